//! `benchgrind compare OLD NEW`: line up two result sets, say what changed and whether it is
//! noise, and fail CI past a threshold.
//!
//! The pipeline: `args` (raw values) -> `config` (resolved; inputs looked at, nothing run) ->
//! `sides` (files read, binaries run, via `input/`) -> `diff` (the format-neutral comparison
//! core, over `model` types) -> `threshold` -> `report` -> exit code. Inputs of every kind become
//! `model::ResultSet`s, so the core and the reports do not know where results came from.

pub(crate) mod args;
mod config;
mod diff;
mod filter;
pub(crate) mod input;
pub(crate) mod model;
mod report;
mod sides;
mod stats;
mod threshold;

use std::ffi::OsString;
use std::io::{self, Write};

use anyhow::Result;

use args::UsageError;

/// Exit code: compared, no limit passed.
const OK: u8 = 0;
/// Exit code: an input could not be read or run.
const ERROR: u8 = 1;
/// Exit code: the command line is wrong.
const USAGE: u8 = 2;
/// Exit code: a change is past `--fail-above`.
const THRESHOLD: u8 = 3;

/// Runs `benchgrind compare` with the arguments after the command name; returns the exit code.
pub fn run(args: Vec<OsString>) -> u8 {
    match compare(args) {
        Ok(code) => code,
        Err(err) if err.is::<UsageError>() => {
            eprintln!("error: {err}\n\nRun `benchgrind compare --help` for usage.");
            USAGE
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ERROR
        }
    }
}

fn compare(args: Vec<OsString>) -> Result<u8> {
    let raw = args::parse(args)?;
    if raw.help {
        print!("{}", args::USAGE);
        return Ok(OK);
    }
    let config = config::Config::resolve(raw)?;
    let (old, new) = sides::load(&config)?;
    let comparison = diff::compare(&old, &new, config.options);
    let violations = threshold::check(&comparison, &config.limits);
    let reporter = report::reporter(config.format, config.style);
    let mut out = io::stdout().lock();
    let written = reporter
        .write(&comparison, &violations, &mut out)
        .and_then(|()| out.flush());
    match written {
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(anyhow::Error::new(e).context("cannot write the report"))
        }
        _ => {}
    }
    if violations.is_empty() {
        return Ok(OK);
    }
    eprintln!(
        "benchgrind compare: {} result{} past --fail-above (exit code {THRESHOLD})",
        violations.len(),
        if violations.len() == 1 {
            " is"
        } else {
            "s are"
        }
    );
    Ok(THRESHOLD)
}
