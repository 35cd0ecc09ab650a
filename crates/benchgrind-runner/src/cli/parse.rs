//! The parser: command-line words and variables, matched against the flag tables, each flag's value
//! converted by the flag's own function; then the checks between flags and the variables that
//! are not flags (`BENCHGRIND_FILTER`, `BENCHGRIND_COLOR`, `BENCHGRIND_LOG`).

use std::ffi::OsString;
use std::path::PathBuf;

use super::flags::flag::Flag;
use super::flags::flag::{Given, Takes, UsageError};
use super::flags::{all, ENV_ALIASES, LIBTEST_SWITCHES, LIBTEST_VALUES};
use super::values::{Cli, Color, LogLevel};

/// Parses the arguments (without the program name) over the given environment lookup.
pub fn parse(args: &[OsString], env: &dyn Fn(&str) -> Option<String>) -> Result<Cli, UsageError> {
    let mut cli = Cli::default();
    let flags: Vec<&Flag> = all().collect();
    // Per flag (by position in the list): the values given, on the command line, else in the
    // variable.
    let mut given: Vec<Vec<Given>> = flags.iter().map(|_| Vec::new()).collect();
    read_command_line(args, &flags, &mut cli, &mut given)?;
    for (flag, values) in flags.iter().zip(&mut given) {
        if !values.is_empty() && !flag.repeats {
            continue;
        }
        let older = ENV_ALIASES.iter().filter(|(_, name)| *name == flag.env);
        let named = std::iter::once(flag.env).chain(older.map(|(older, _)| *older));
        let set = named
            .filter_map(|name| Some((name, env(name).filter(|v| !v.is_empty())?)))
            .next();
        if let Some((name, value)) = set {
            let source = name.to_owned();
            values.push(Given { value, source });
        }
    }
    if cli.filters.is_empty() {
        cli.filters
            .extend(env("BENCHGRIND_FILTER").filter(|f| !f.is_empty()));
    }
    for (flag, values) in flags.iter().zip(&given) {
        for value in values {
            (flag.set)(&mut cli, value)?;
        }
    }
    check_baselines(&cli)?;
    // Hidden like hyperfine's `--debug-mode`: not a flag users should reach for.
    cli.canned = env("BENCHGRIND_CANNED")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    cli.color = color(env)?;
    cli.log = log_level(env)?;
    Ok(cli)
}

/// Splits the command-line words of the flags `names` (each with its value, inline or the next
/// word, as the flag takes it) from the other words, which are left as they were: for a tool
/// that passes a bench binary's arguments on but reads some of them itself, with
/// [`parse`]'s rules.
pub fn split_off(
    args: &[OsString],
    names: &[&str],
) -> Result<(Vec<OsString>, Vec<OsString>), UsageError> {
    let (mut taken, mut rest) = (Vec::new(), Vec::new());
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy();
        let (name, inline) = match text.split_once('=') {
            Some((name, _)) => (name, true),
            None => (text.as_ref(), false),
        };
        let Some(flag) = all().find(|f| f.name == name && names.contains(&f.name)) else {
            rest.push(arg.clone());
            continue;
        };
        taken.push(arg.clone());
        if flag.takes == Takes::Value && !inline {
            let value = iter
                .next()
                .ok_or_else(|| UsageError(format!("{name} needs a value")))?;
            taken.push(value.clone());
        }
    }
    Ok((taken, rest))
}

/// The command line's words: filters, benchgrind's flags (the last value of a flag wins, every
/// value of a repeating one counts) and libtest's.
fn read_command_line(
    args: &[OsString],
    flags: &[&Flag],
    cli: &mut Cli,
    given: &mut [Vec<Given>],
) -> Result<(), UsageError> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let arg = arg
            .to_str()
            .ok_or_else(|| UsageError(format!("argument {arg:?} is not valid UTF-8")))?;
        if !arg.starts_with('-') || arg == "-" {
            cli.filters.push(arg.to_owned());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg, None),
        };
        let mut next_value = |flag: &str| -> Result<String, UsageError> {
            iter.next()
                .and_then(|v| v.to_str().map(str::to_owned))
                .ok_or_else(|| UsageError(format!("{flag} needs a value")))
        };
        if name == "-h" || name == "--help" {
            cli.help = true;
        } else if let Some(i) = flags.iter().position(|f| f.name == name) {
            let value = match (flags[i].takes, inline) {
                (Takes::Optional(default), v) => v.unwrap_or_else(|| default.to_owned()),
                (Takes::Value, Some(v)) => v,
                (Takes::Value, None) => next_value(name)?,
            };
            if !flags[i].repeats {
                given[i].clear();
            }
            let source = name.to_owned();
            given[i].push(Given { value, source });
        } else if LIBTEST_SWITCHES.contains(&name) {
            cli.ignored |= name == "--ignored";
            cli.bench_flag |= name == "--bench";
        } else if LIBTEST_VALUES.contains(&name) {
            if inline.is_none() {
                next_value(name)?;
            }
        } else {
            return Err(unknown_flag(arg, name, flags));
        }
    }
    Ok(())
}

/// A word that names no flag: the word, and the flag of the table closest to its name if one
/// is close enough to be what was meant.
fn unknown_flag(arg: &str, name: &str, flags: &[&Flag]) -> UsageError {
    let names = flags.iter().map(|f| f.name).chain(["--help"]);
    match closest(name, names) {
        Some(similar) => UsageError(format!(
            "unknown flag {arg}\n  a similar flag exists: {similar}"
        )),
        None => UsageError(format!("unknown flag {arg}")),
    }
}

/// Of `names`, the one with the fewest edits (a letter added, left out, changed, or two
/// swapped) from `given`, leading dashes and case aside; `None` when even that one needs more
/// than a quarter of the given name's letters changed (one at least). The first of equals wins.
fn closest<'a>(given: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let stem = |s: &str| s.trim_start_matches('-').to_ascii_lowercase();
    let given = stem(given);
    let allowed = (given.chars().count() / 4).max(1);
    let mut best: Option<(usize, &str)> = None;
    for name in names {
        let d = edits(&given, &stem(name));
        if d <= allowed && best.map_or(true, |(b, _)| d < b) {
            best = Some((d, name));
        }
    }
    best.map(|(_, name)| name)
}

/// The edit distance of `a` and `b` counting a swap of two neighbouring letters as one edit
/// (the optimal string alignment distance).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // rows[i][j]: the edits from a[..i] to b[..j].
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    rows[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let changed = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + changed);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// The baseline flags that contradict each other.
fn check_baselines(cli: &Cli) -> Result<(), UsageError> {
    if cli.load_baseline.is_some() && cli.baseline.is_none() {
        return Err(UsageError(
            "--load-baseline needs --baseline: it compares two saved baselines".into(),
        ));
    }
    if let (Some(load), Some(_)) = (&cli.load_baseline, &cli.save_baseline) {
        return Err(UsageError(format!(
            "--load-baseline={load} runs nothing, so there is nothing for --save-baseline to save"
        )));
    }
    Ok(())
}

/// `BENCHGRIND_COLOR`, else cargo's `CARGO_TERM_COLOR`.
fn color(env: &dyn Fn(&str) -> Option<String>) -> Result<Color, UsageError> {
    let color = env("BENCHGRIND_COLOR").or_else(|| env("CARGO_TERM_COLOR"));
    match color.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("auto") | Some("") => Ok(Color::Auto),
        Some("always") => Ok(Color::Always),
        Some("never") => Ok(Color::Never),
        Some(other) => Err(UsageError(format!(
            "BENCHGRIND_COLOR (or CARGO_TERM_COLOR) is `{other}`; use always, never or auto"
        ))),
    }
}

/// `BENCHGRIND_LOG`.
fn log_level(env: &dyn Fn(&str) -> Option<String>) -> Result<LogLevel, UsageError> {
    match env("BENCHGRIND_LOG")
        .map(|l| l.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("") | Some("warn") => Ok(LogLevel::Warn),
        Some("error") => Ok(LogLevel::Error),
        Some("info") => Ok(LogLevel::Info),
        Some("debug") => Ok(LogLevel::Debug),
        Some("trace") => Ok(LogLevel::Trace),
        Some(other) => Err(UsageError(format!(
            "BENCHGRIND_LOG is `{other}`; use error, warn, info, debug or trace"
        ))),
    }
}
