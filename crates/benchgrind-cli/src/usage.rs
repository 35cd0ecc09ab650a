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

#[cfg(test)]
mod tests {
    use super::*;

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
