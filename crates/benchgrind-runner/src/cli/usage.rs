//! The help text of a bench binary, generated from the flag table so that every flag appears
//! with its variable.

use super::flags::all;

/// Where help texts start, and how wide lines get.
const HELP_COLUMN: usize = 33;
const WIDTH: usize = 100;

const HEAD: &str = "\
Usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER]...

Runs the benchmarks of this file under Valgrind and compares every one with its previous run
(or a baseline). Exit status: 0 ok, 1 a benchmark failed or another error (the filters select
nothing, with --no-match=fail), 2 usage, 3 a regression limit was passed, 4 a benchmark had
nothing to compare with (--uncompared=fail).

Arguments:
";

const TAIL: &str = "
Environment:
  BENCHGRIND_COLOR               always, never or auto (else CARGO_TERM_COLOR)
  BENCHGRIND_LOG                 error, warn (default), info (captured output), debug, trace
";

/// The help text: usage, arguments, every flag with its variable, the other variables.
pub fn usage() -> String {
    let mut text = HEAD.to_owned();
    entry(
        &mut text,
        "  [FILTER]...",
        &format!(
            "run benchmarks whose id (file::group::function::id) contains FILTER; `*` and `?` make \
         it a pattern of the whole id {}",
            env("BENCHGRIND_FILTER")
        ),
    );
    let mut category = None;
    for flag in all() {
        if category != Some(flag.category) {
            category = Some(flag.category);
            text.push_str(&format!("\n{}:\n", flag.category.heading()));
        }
        let left = format!("      {}{}", flag.name, flag.value);
        let help = format!("{} {}", flag.help, env(flag.env));
        entry(&mut text, &left, &help);
    }
    text.push_str(
        "\nlibtest's flags (--bench, --test-threads, --format, ...) are accepted and ignored.\n\n",
    );
    entry(&mut text, "  -h, --help", "print this help");
    text.push_str(TAIL);
    text
}

/// `[env: NAME]`, kept on one line (a no-break space until [`entry`] writes it).
fn env(name: &str) -> String {
    format!("[env:\u{a0}{name}]")
}

/// One entry: `left`, then `help` from [`HELP_COLUMN`] on (on a line of its own when `left` is
/// too long), wrapped at [`WIDTH`].
fn entry(text: &mut String, left: &str, help: &str) {
    text.push_str(left);
    let mut column = left.len();
    if column + 2 > HELP_COLUMN {
        text.push('\n');
        column = 0;
    }
    text.push_str(&" ".repeat(HELP_COLUMN - column));
    let mut column = HELP_COLUMN;
    for (i, word) in help.split(' ').filter(|w| !w.is_empty()).enumerate() {
        if i > 0 && column + 1 + word.len() > WIDTH {
            text.push('\n');
            text.push_str(&" ".repeat(HELP_COLUMN));
            column = HELP_COLUMN;
        } else if i > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(&word.replace('\u{a0}', " "));
        column += word.chars().count();
    }
    text.push('\n');
}

#[cfg(test)]
mod tests {
    use super::super::flags::flag::Category;
    use super::*;

    #[test]
    fn every_flag_and_variable_is_in_the_help_within_the_width() {
        let text = usage();
        for flag in all() {
            assert!(text.contains(&format!("      {}{}", flag.name, flag.value)));
            assert!(
                text.contains(&format!("[env: {}]", flag.env)),
                "{}",
                flag.env
            );
        }
        assert!(text.lines().all(|l| l.len() <= WIDTH), "{text}");
        // One heading per category, the flags of each together.
        for category in [
            Category::Run,
            Category::Tools,
            Category::Output,
            Category::Compatibility,
        ] {
            let heading = format!("\n{}:\n", category.heading());
            assert_eq!(text.matches(&heading).count(), 1, "{heading}");
        }
    }
}
