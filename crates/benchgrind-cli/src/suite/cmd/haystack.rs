//! `suite haystack`: print the haystack of one benchmark, after every transformation its
//! definition applies (`utf8-lossy`, `trim`, `line-start`, `prepend`, `append`, ...), as the
//! runners receive it: rebar's `haystack` command.

use std::{io::Write, path::PathBuf, sync::LazyLock};

use anyhow::Context;

use crate::exit::Outcome;
use crate::suite::{flags, format::definitions};
use crate::usage::{self, Opt, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Print the haystack of one benchmark to stdout, exactly as its runners receive it.

USAGE:
    benchgrind suite haystack [OPTIONS] <benchmark-name>

",
        &[&[
            flags::DIR_OPT,
            Opt::new(
                "-r, --repeat <n>",
                "print the haystack this many times (default: 1)",
            ),
            flags::HELP_OPT,
        ]],
    )
});

/// What `suite haystack` was asked.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`: the suite directory.
    dir: PathBuf,
    /// The benchmark, `group/name`.
    name: String,
    /// `-r/--repeat`.
    repeat: u64,
}

impl Config {
    /// Parses the flags after `suite haystack`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let (mut dir, mut name, mut repeat) = (PathBuf::from("benchmarks"), None, 1);
        while let Some(arg) = p.next()? {
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(USAGE.as_str())),
                Short('d') | Long("dir") => dir = PathBuf::from(usage::string(p, "-d/--dir")?),
                Short('r') | Long("repeat") => repeat = usage::parse(p, "-r/--repeat")?,
                Value(v) => usage::one_name(v, &mut name)?,
                other => return Err(other.unexpected().into()),
            }
        }
        let name = name.ok_or_else(|| {
            UsageError::new(
                "missing the benchmark name, e.g. `benchgrind suite haystack group/name`",
            )
        })?;
        Ok(Config { dir, name, repeat })
    }
}

/// Runs `suite haystack`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let def = definitions::find_one(&config.dir, &config.name)?;
    let mut stdout = std::io::stdout().lock();
    for _ in 0..config.repeat {
        match stdout.write_all(&def.haystack) {
            // A reader that has seen enough (`| head`) is not an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(Outcome::Done),
            r => r.context("cannot write the haystack to stdout")?,
        }
    }
    match stdout.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Outcome::Done),
        r => r
            .context("cannot write the haystack to stdout")
            .map(|_| Outcome::Done),
    }
}
