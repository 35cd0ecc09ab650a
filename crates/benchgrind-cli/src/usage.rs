//! The one usage error of every command: a mistake on the command line (exit code 2), the bare
//! usage when no command is given, or the help a user asked for (exit code 0).
//!
//! Parsing is the first stage of every command (`Config::parse`), so help and mistakes stop it
//! the same way, before anything runs (as clap's `DisplayHelp`); `main` prints them and decides
//! the exit code. Also here: reading one flag's value with `lexopt`.

use std::{fmt, str::FromStr};

use lexopt::ValueExt;

/// Why a command line does not lead to a run.
#[derive(Debug)]
pub enum UsageError {
    /// `-h`/`--help`: the command's usage goes to stdout; not a mistake (exit code 0).
    Help(&'static str),
    /// No command at all: the usage goes to stderr (exit code 2).
    Missing(&'static str),
    /// A mistake: `error: {message}` on stderr, then the hint (exit code 2).
    Invalid {
        /// What is wrong, naming the flag or argument.
        message: String,
        /// What follows after a blank line: a pointer to `--help`, or the usage itself.
        hint: Option<&'static str>,
    },
}

impl UsageError {
    /// A mistake, with no hint yet.
    pub fn new(message: impl Into<String>) -> UsageError {
        UsageError::Invalid {
            message: message.into(),
            hint: None,
        }
    }

    /// Adds `hint` to a mistake that has none yet (the innermost hint wins).
    pub fn hint(self, hint: &'static str) -> UsageError {
        match self {
            UsageError::Invalid {
                message,
                hint: None,
            } => UsageError::Invalid {
                message,
                hint: Some(hint),
            },
            other => other,
        }
    }
}

/// Adds `hint` to `err` if it is a usage mistake without one; other errors pass unchanged.
pub fn hint(err: anyhow::Error, hint: &'static str) -> anyhow::Error {
    match err.downcast::<UsageError>() {
        Ok(usage) => usage.hint(hint).into(),
        Err(other) => other,
    }
}

impl fmt::Display for UsageError {
    /// What is printed, trailing newline included.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::Help(text) | UsageError::Missing(text) => f.write_str(text),
            UsageError::Invalid {
                message,
                hint: None,
            } => writeln!(f, "error: {message}"),
            UsageError::Invalid {
                message,
                hint: Some(hint),
            } => writeln!(f, "error: {message}\n\n{hint}"),
        }
    }
}

impl std::error::Error for UsageError {}

impl From<lexopt::Error> for UsageError {
    /// An unknown flag, a missing value, a value that is not UTF-8.
    fn from(err: lexopt::Error) -> UsageError {
        UsageError::new(err.to_string())
    }
}

/// Reads the value of `flag` as a UTF-8 string.
pub fn string(p: &mut lexopt::Parser, flag: &str) -> Result<String, UsageError> {
    let v = p.value()?;
    v.string()
        .map_err(|_| UsageError::new(format!("{flag}: the value is not valid UTF-8")))
}

/// The one benchmark name a `suite` command takes (`klv`, `haystack`): `value` stored in `name`,
/// refused when it is not UTF-8 or a name was given already.
pub fn one_name(value: std::ffi::OsString, name: &mut Option<String>) -> Result<(), UsageError> {
    if name.is_some() {
        return Err(UsageError::new("only one benchmark name is accepted"));
    }
    let value = value
        .into_string()
        .map_err(|_| UsageError::new("the benchmark name is not valid UTF-8"))?;
    *name = Some(value);
    Ok(())
}

/// Reads the value of `flag` and parses it; a bad value is a usage error naming the flag.
pub fn parse<T>(p: &mut lexopt::Parser, flag: &str) -> Result<T, UsageError>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let s = string(p, flag)?;
    s.parse::<T>()
        .map_err(|e| UsageError::new(format!("{flag}: invalid value '{s}': {e}")))
}

/// One option of a help page: the flag with its value, and what it does (a description of
/// several lines continues each line under the first).
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The flag as typed, e.g. `-s, --statistic <name>`.
    pub flag: &'static str,
    /// What it does; `\n` starts a continuation line.
    pub help: &'static str,
}

impl Opt {
    /// An option line.
    pub const fn new(flag: &'static str, help: &'static str) -> Opt {
        Opt { flag, help }
    }
}

/// A help page: `intro` (ending with a blank line), then `OPTIONS:` and every option of
/// `groups` in order, each flag indented by four spaces and every description in one column,
/// two spaces past the widest flag of the page, so that options shared by several commands
/// line up with each command's own.
pub fn page(intro: &str, groups: &[&[Opt]]) -> String {
    let opts: Vec<&Opt> = groups.iter().flat_map(|g| g.iter()).collect();
    let width = opts
        .iter()
        .map(|o| o.flag.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = format!("{intro}OPTIONS:\n");
    for o in opts {
        let mut lines = o.help.lines();
        let first = lines.next().unwrap_or_default();
        out.push_str(&format!("    {:width$}{first}\n", o.flag));
        for line in lines {
            out.push_str(&format!("    {:width$}{}\n", "", line.trim_start()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_align_every_description() {
        const SHARED: &[Opt] = &[Opt::new("-f, --filter <regex>", "include\nrepeatable")];
        let got = page(
            "Do it.\n\n",
            &[
                SHARED,
                &[Opt::new("--max-warmup-time <duration>", "budget")],
            ],
        );
        let want = format!(
            "Do it.\n\nOPTIONS:\n    -f, --filter <regex>          include\n{}repeatable\n    \
             --max-warmup-time <duration>  budget\n",
            " ".repeat(4 + 28 + 2)
        );
        assert_eq!(got, want);
    }

    #[test]
    fn what_is_printed() {
        let table = [
            (UsageError::Help("usage\n"), "usage\n"),
            (UsageError::Missing("usage\n"), "usage\n"),
            (UsageError::new("bad flag"), "error: bad flag\n"),
            (
                UsageError::new("bad flag").hint("see --help"),
                "error: bad flag\n\nsee --help\n",
            ),
            // The innermost hint wins; help and bare usage take none.
            (
                UsageError::new("bad").hint("first").hint("second"),
                "error: bad\n\nfirst\n",
            ),
            (UsageError::Help("usage\n").hint("see --help"), "usage\n"),
        ];
        for (err, want) in table {
            assert_eq!(err.to_string(), want);
        }
    }

    #[test]
    fn hints_reach_usage_errors_inside_anyhow_only() {
        let usage = hint(UsageError::new("bad").into(), "see --help");
        assert_eq!(usage.to_string(), "error: bad\n\nsee --help\n");
        let other = hint(anyhow::anyhow!("cannot read x"), "see --help");
        assert_eq!(other.to_string(), "cannot read x");
    }

    #[test]
    fn flag_values() {
        let mut p = lexopt::Parser::from_args(["--n", "7", "--n", "x", "--m"]);
        p.next().unwrap();
        assert_eq!(parse::<u32>(&mut p, "--n").unwrap(), 7);
        p.next().unwrap();
        let err = parse::<u32>(&mut p, "--n").unwrap_err().to_string();
        assert_eq!(
            err,
            "error: --n: invalid value 'x': invalid digit found in string\n"
        );
        p.next().unwrap();
        assert!(string(&mut p, "--m").is_err());
    }
}
