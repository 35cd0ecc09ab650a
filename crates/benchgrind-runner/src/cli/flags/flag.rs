//! What a flag is ([`Flag`]), how it takes its value ([`Takes`]), the value as given
//! ([`Given`]), how a value of several words is split ([`shell_words`]) and the usage error that
//! names it; the flags themselves are in `flags`.

use crate::error::Problem;
use std::str::FromStr;

use crate::cli::values::{Cli, Nocapture};
use crate::config::is_file_name;

/// A usage error: the message names the flag, variable or value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

impl UsageError {
    /// What the harness prints for it after `error: `: the message (with the closest flag, for
    /// one that is unknown) and where the flags are, a few lines, not the whole help.
    pub fn report(&self) -> String {
        format!("{}\n  see the flags with --help", self.0)
    }
}

/// A value and where it came from (the flag or the variable), for messages.
pub(crate) struct Given {
    /// The value as given.
    pub value: String,
    /// `--flag` or `BENCHGRIND_*`.
    pub source: String,
}

impl Given {
    /// The value in lower case, for values matched without regard to case.
    pub fn lowercase(&self) -> String {
        self.value.to_ascii_lowercase()
    }

    /// `SOURCE is `VALUE`; HINT`.
    pub fn invalid(&self, hint: &str) -> UsageError {
        UsageError(format!("{} is `{}`; {hint}", self.source, self.value))
    }

    /// [`invalid`](Self::invalid), showing the value in lower case as it was matched.
    pub fn invalid_lowercase(&self, hint: &str) -> UsageError {
        UsageError(format!("{} is `{}`; {hint}", self.source, self.lowercase()))
    }

    /// The value's text form (`--tools`, `--regression`), its error prefixed with the source.
    pub fn parse<T: FromStr<Err = Problem>>(&self) -> Result<T, UsageError> {
        self.value
            .parse()
            .map_err(|e| UsageError(format!("{}: {e}", self.source)))
    }
}

/// How a flag takes its value. There is no switch that takes none: every on/off flag is
/// `Optional("yes")`, so that `--flag=no` undoes it as its variable's `no` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    /// `--flag` or `--flag=VALUE`; without a value it means `default`.
    Optional(&'static str),
    /// `--flag=VALUE` or `--flag VALUE`.
    Value,
}

/// What a flag is about; the help lists the flags under these headings, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Category {
    /// What runs and what it is compared with.
    Run,
    /// Valgrind and its tools.
    Tools,
    /// What the report shows and where it goes.
    Output,
    /// Other tools' names: Google Benchmark's flags, gungraun's aliases.
    Compatibility,
}

impl Category {
    /// The heading of the help's section.
    pub fn heading(self) -> &'static str {
        match self {
            Category::Run => "Running and comparing",
            Category::Tools => "Valgrind and its tools",
            Category::Output => "Output",
            Category::Compatibility => "Compatibility (Google Benchmark, gungraun)",
        }
    }
}

/// A flag of benchgrind.
pub(crate) struct Flag {
    /// `--name`.
    pub name: &'static str,
    /// Its `BENCHGRIND_*` variable.
    pub env: &'static str,
    /// How it takes its value.
    pub takes: Takes,
    /// How the help shows the value (`=DIR`, `[=NAME]`, ` FILTER`), empty for a switch.
    pub value: &'static str,
    /// The help text.
    pub help: &'static str,
    /// Whether every occurrence counts (on the command line and in the variable) instead of the
    /// last one.
    pub repeats: bool,
    /// Its section of the help.
    pub category: Category,
    /// Puts a value into the [`Cli`].
    pub set: fn(&mut Cli, &Given) -> Result<(), UsageError>,
}

/// A switch's value from its variable: yes or no.
pub(super) fn yes_no(given: &Given) -> Result<bool, UsageError> {
    match given.lowercase().as_str() {
        "yes" | "true" | "1" | "on" => Ok(true),
        "no" | "false" | "0" | "off" => Ok(false),
        _ => Err(given.invalid_lowercase("use yes or no")),
    }
}

/// Baseline names become file names: letters, digits, `-`, `_` and `.` only.
pub(super) fn baseline_name(given: &Given) -> Result<String, UsageError> {
    if is_file_name(&given.value) {
        Ok(given.value.clone())
    } else {
        Err(given.invalid("a baseline name may use letters, digits, `-`, `_` and `.`"))
    }
}

/// Splits a value as a shell would split a command line: on whitespace, with `'...'`, `"..."`
/// and `\` keeping what they quote together.
pub(crate) fn shell_words(given: &Given) -> Result<Vec<String>, UsageError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = given.value.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                let next = chars.next().ok_or_else(|| {
                    given.invalid("it ends in a lone `\\`; remove it or quote it")
                })?;
                word.get_or_insert_with(String::new).push(next);
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(given.invalid(&format!("a {q} is not closed; close it or leave it out")));
    }
    words.extend(word);
    Ok(words)
}

/// A spec's error (`--callgrind-limits`, `--dhat-metrics`), naming the flag or variable.
pub(crate) fn spec<T>(given: &Given, parsed: Result<T, Problem>) -> Result<T, UsageError> {
    parsed.map_err(|e| UsageError(format!("{}: {e}", given.source)))
}

/// `--nocapture` and `--no-capture`: which of the benchmark's streams to show.
pub(crate) fn nocapture(cli: &mut Cli, g: &Given) -> Result<(), UsageError> {
    cli.nocapture = match g.lowercase().trim() {
        "true" | "yes" | "y" | "t" | "on" | "1" | "" => Nocapture::All,
        "false" | "no" | "n" | "f" | "off" | "0" => Nocapture::None,
        "stdout" => Nocapture::Stdout,
        "stderr" => Nocapture::Stderr,
        _ => return Err(g.invalid_lowercase("use true, false, stdout or stderr")),
    };
    Ok(())
}

/// A summary switch of the end of the run: `--nosummary` and its alias.
pub(crate) fn nosummary(cli: &mut Cli, given: &Given) -> Result<(), UsageError> {
    cli.nosummary = yes_no(given)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Result<Vec<String>, UsageError> {
        shell_words(&Given {
            value: text.to_owned(),
            source: "--x".to_owned(),
        })
    }

    #[test]
    fn values_split_as_a_shell_splits_them() {
        assert_eq!(
            words(r#"--a=1  "--b=x y" --c='q "r"' d\ e"#).unwrap(),
            ["--a=1", "--b=x y", r#"--c=q "r""#, "d e"]
        );
        assert_eq!(words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(words("''").unwrap(), [""]);
        let open = words("--a='1").unwrap_err().0;
        assert!(
            open.contains("--x is `--a='1`") && open.contains("not closed"),
            "{open}"
        );
    }
}
