//! `suite list`: the (benchmark, model, engine, version) rows that `suite measure` would run,
//! then the suite's problems. It takes `measure`'s flags (and shows its help), so that a
//! `measure` command line with `list` in its place lists what it would run.

use std::path::PathBuf;

use super::measure;
use crate::exit::Outcome;
use crate::suite::{flags::Filters, plan};
use crate::usage::UsageError;

/// The help text: `measure`'s, whose flags `list` takes.
pub const USAGE: &str = measure::USAGE;

/// What `suite list` was asked: the parts of `measure`'s flags that choose the jobs.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`: the suite directory.
    dir: PathBuf,
    /// The benchmark, model and engine filters.
    filters: Filters,
}

impl Config {
    /// Parses the flags after `suite list`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        let measure = measure::Config::parse_with_help(p, USAGE)?;
        Ok(Config {
            dir: measure.dir,
            filters: measure.filters,
        })
    }
}

/// Runs `suite list`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    Ok(if plan::list(&config.dir, &config.filters)? {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}
