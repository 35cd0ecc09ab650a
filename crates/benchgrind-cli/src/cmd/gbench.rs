//! `benchgrind gbench BINARY`: exact counts of each Google Benchmark benchmark of a C++ binary,
//! each alone under Callgrind (the work is in [`crate::compare::gbench`]).

use std::ffi::OsString;

use anyhow::Result;

use crate::compare::gbench::args::{self, Parsed};
use crate::exit::Outcome;
use crate::usage::UsageError;

pub use crate::compare::gbench::args::USAGE;

/// What follows a usage mistake.
const HINT: &str = "Run `benchgrind gbench --help` for usage.";

/// The command line of `gbench`, checked for shape.
#[derive(Debug)]
pub struct Config {
    /// What to measure, and how.
    run: args::Config,
}

impl Config {
    /// Parses the arguments after `gbench`.
    pub fn parse(raw: Vec<OsString>) -> Result<Config, UsageError> {
        match args::parse(raw).map_err(|e| e.hint(HINT))? {
            Parsed::Help => Err(UsageError::Help(USAGE)),
            Parsed::Run(run) => Ok(Config { run }),
        }
    }
}

/// Runs `gbench`: failed when a benchmark failed, the others still measured.
pub fn run(config: &Config) -> Result<Outcome> {
    crate::compare::gbench::run(&config.run)
}
