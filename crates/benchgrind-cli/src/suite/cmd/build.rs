//! `suite build`: run each engine's dependency checks and build commands from `engines.toml`, in
//! file order, and report per engine. One engine failing does not stop the others.

use std::path::PathBuf;

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Filter},
    format::engines::{self, Engine},
};
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Check dependencies and build every engine defined in engines.toml.

USAGE:
    benchgrind suite build [OPTIONS]

OPTIONS:
    -d, --dir <dir>             the suite directory (default: ./benchmarks)
    -e, --engine <regex>        only engines whose name matches (repeatable)
    -E, --engine-not <regex>    skip engines whose name matches
    -h, --help                  print this help
";

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
        let (dir, engines) = flags::dir_and_engines(p, USAGE)?;
        Ok(Config { dir, engines })
    }
}

/// Runs `suite build`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let engines = engines::load(&config.dir)?;
    let mut failed = vec![];
    for e in engines.selected(&config.engines) {
        match build_one(e) {
            Ok(version) => println!("{}: build complete for version {version}", e.name),
            Err(err) => {
                println!("{}: build failed: {err:#}", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    if failed.is_empty() {
        return Ok(Outcome::Done);
    }
    eprintln!(
        "error: {} engine(s) failed to build: {}",
        failed.len(),
        failed.join(", ")
    );
    Ok(Outcome::Failed)
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
