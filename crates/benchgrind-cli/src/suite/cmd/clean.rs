//! `suite clean`: run each engine's clean commands from `engines.toml`, in file order, and
//! report per engine. One engine failing does not stop the others.

use std::path::PathBuf;

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Filter},
    format::engines,
};
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Run the clean commands of every engine defined in engines.toml.

USAGE:
    benchgrind suite clean [OPTIONS]

OPTIONS:
    -d, --dir <dir>             the suite directory (default: ./benchmarks)
    -e, --engine <regex>        only engines whose name matches (repeatable)
    -E, --engine-not <regex>    skip engines whose name matches
    -h, --help                  print this help
";

/// What `suite clean` was asked.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`: the suite directory.
    dir: PathBuf,
    /// `-e`/`-E`: which engines.
    engines: Filter,
}

impl Config {
    /// Parses the flags after `suite clean`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        let (dir, engines) = flags::dir_and_engines(p, USAGE)?;
        Ok(Config { dir, engines })
    }
}

/// Runs `suite clean`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let engines = engines::load(&config.dir)?;
    let mut failed = vec![];
    for e in engines.selected(&config.engines) {
        let result = e.clean.iter().try_for_each(|cmd| {
            println!("{}: running: {}", e.name, cmd.display());
            cmd.output().map(|_| ())
        });
        match result {
            Ok(()) => println!("{}: clean complete", e.name),
            Err(err) => {
                println!("{}: clean failed: {err:#}", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    if failed.is_empty() {
        return Ok(Outcome::Done);
    }
    eprintln!(
        "error: {} engine(s) failed to clean: {}",
        failed.len(),
        failed.join(", ")
    );
    Ok(Outcome::Failed)
}
