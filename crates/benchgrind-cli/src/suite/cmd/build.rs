//! `suite build`: run each engine's dependency checks and build commands from `engines.toml`, in
//! file order, and report per engine (see `engine_steps`).

use std::{path::PathBuf, sync::LazyLock};

use crate::exit::Outcome;
use crate::suite::{
    engine_steps,
    flags::{self, Filter},
    format::engines::Engine,
};
use crate::usage::{self, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Check dependencies and build every engine defined in engines.toml.

USAGE:
    benchgrind suite build [OPTIONS]

",
        &[flags::ENGINE_STEP_OPTS],
    )
});

/// What `suite build` was asked.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`: the suite directory.
    dir: PathBuf,
    /// `-e`/`-E`: which engines.
    engines: Filter,
}

impl Config {
    /// Parses the flags after `suite build`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        let (dir, engines) = flags::dir_and_engines(p, USAGE.as_str())?;
        Ok(Config { dir, engines })
    }
}

/// Runs `suite build`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    engine_steps::each(&config.dir, &config.engines, "build", |e| {
        build_one(e).map(|version| format!("build complete for version {version}"))
    })
}

/// Checks one engine's dependencies, builds it and gets its version.
fn build_one(e: &Engine) -> anyhow::Result<String> {
    for dep in &e.dependency {
        let out = dep
            .cmd
            .output()
            .map_err(|err| anyhow::anyhow!("dependency check failed: {err:#}"))?;
        if let Some(re) = &dep.regex {
            anyhow::ensure!(
                re.is_match(&out),
                "dependency check {} printed output that does not match {:?}",
                dep.cmd.display(),
                re.as_str()
            );
        }
    }
    for cmd in &e.build {
        println!("{}: running: {}", e.name, cmd.display());
        cmd.output()?;
    }
    e.version
        .get()
        .map_err(|err| anyhow::anyhow!("built, but getting the version failed: {err:#}"))
}
