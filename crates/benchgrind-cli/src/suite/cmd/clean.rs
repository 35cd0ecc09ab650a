//! `suite clean`: run each engine's clean commands from `engines.toml`, in file order, and
//! report per engine (see `engine_steps`).

use std::{path::PathBuf, sync::LazyLock};

use crate::exit::Outcome;
use crate::suite::{
    engine_steps,
    flags::{self, Filter},
};
use crate::usage::{self, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Run the clean commands of every engine defined in engines.toml.

USAGE:
    benchgrind suite clean [OPTIONS]

",
        &[flags::ENGINE_STEP_OPTS],
    )
});

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
        let (dir, engines) = flags::dir_and_engines(p, USAGE.as_str())?;
        Ok(Config { dir, engines })
    }
}

/// Runs `suite clean`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    engine_steps::each(&config.dir, &config.engines, "clean", |e| {
        for cmd in &e.clean {
            println!("{}: running: {}", e.name, cmd.display());
            cmd.output()?;
        }
        Ok("clean complete".to_string())
    })
}
