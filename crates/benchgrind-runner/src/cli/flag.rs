//! What a flag is ([`Flag`]), how it takes its value ([`Takes`]), the value as given
//! ([`Given`]) and the usage error that names it; the flags themselves are in `flags`.

use std::str::FromStr;

use super::values::Cli;
use crate::config::is_file_name;

/// A usage error: the message names the flag, variable or value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

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
    pub fn parse<T: FromStr<Err = String>>(&self) -> Result<T, UsageError> {
        self.value
            .parse()
            .map_err(|e| UsageError(format!("{}: {e}", self.source)))
    }
}

/// How a flag takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    /// `--flag`; the variable takes yes/no.
    Switch,
    /// `--flag` or `--flag=VALUE`; without a value it means `default`.
    Optional(&'static str),
    /// `--flag=VALUE` or `--flag VALUE`.
    Value,
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
