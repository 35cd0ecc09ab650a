//! `suite version`: the version benchgrind writes in the `rebar_version` column of its results,
//! as `rebar version` prints rebar's.

use std::sync::LazyLock;

use crate::exit::Outcome;
use crate::suite::{flags, plan};
use crate::usage::{self, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Print the version written in the `rebar_version` column of results, and exit.

USAGE:
    benchgrind suite version

",
        &[&[flags::HELP_OPT]],
    )
});

/// What `suite version` was asked: nothing but help.
#[derive(Debug)]
pub struct Config;

impl Config {
    /// Parses the flags after `suite version` (only `-h/--help`).
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short};
        if let Some(arg) = p.next()? {
            return Err(match arg {
                Short('h') | Long("help") => UsageError::Help(USAGE.as_str()),
                other => other.unexpected().into(),
            });
        }
        Ok(Config)
    }
}

/// Runs `suite version`.
pub fn run(_config: &Config) -> anyhow::Result<Outcome> {
    println!("{}", plan::tool_version());
    Ok(Outcome::Done)
}
