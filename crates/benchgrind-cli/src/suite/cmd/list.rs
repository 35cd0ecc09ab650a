//! `suite list`: the (benchmark, model, engine, version) rows that `suite measure` would run,
//! then the suite's problems. It takes `measure`'s flags (its help shows the ones that choose
//! what is listed), so that a `measure` command line with `list` in its place lists what it
//! would run.

use std::{path::PathBuf, sync::LazyLock};

use super::measure;
use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Filters},
    plan,
};
use crate::usage::{self, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
List the benchmark and engine pairs that `suite measure` would run, without running them.

USAGE:
    benchgrind suite list [OPTIONS]

    One line per pair, `benchmark,model,engine,version`, as `suite measure --list` prints
    them; the suite's problems follow, and the exit code is then 1. `measure`'s other flags
    are accepted too, so that a `measure` command line with `list` in its place lists what it
    would run.

",
        &[
            &[flags::DIR_OPT],
            flags::FILTER_OPTS,
            &[measure::IGNORE_MISSING_OPT, flags::HELP_OPT],
        ],
    )
});

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
        let measure = measure::Config::parse_with_help(p, USAGE.as_str())?;
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
