//! `suite klv`: print one benchmark in the KLV format runner programs read on stdin, to test a
//! runner by hand.

use std::{io::Write, path::PathBuf, sync::LazyLock};

use anyhow::Context;

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, HumanDuration},
    format::definitions,
    klv::{self, Limits},
};
use crate::usage::{self, Opt, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Print one benchmark in the KLV format that runner programs read on stdin.

USAGE:
    benchgrind suite klv [OPTIONS] <benchmark-name>

    Pipe it into a runner to test the runner by hand, e.g.
    benchgrind suite klv memmem/sherlock-holmes --max-iters 10 --max-time 3s | ./runner rust/memmem
    All limits default to 0, so set --max-iters and --max-time to get samples.

",
        &[&[
            flags::DIR_OPT,
            Opt::new(
                "--max-iters <n>",
                "maximum measured iterations (default: 0)",
            ),
            Opt::new(
                "--max-warmup-iters <n>",
                "maximum warm-up iterations (default: 0)",
            ),
            Opt::new(
                "--max-time <duration>",
                "time budget, e.g. 3s, 500ms (default: 0s)",
            ),
            Opt::new(
                "--max-warmup-time <duration>",
                "warm-up time budget (default: 0s)",
            ),
            flags::HELP_OPT,
        ]],
    )
});

/// What `suite klv` was asked.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`: the suite directory.
    dir: PathBuf,
    /// The benchmark, `group/name`.
    name: String,
    /// The limits written into the KLV.
    limits: Limits,
}

impl Config {
    /// Parses the flags after `suite klv`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let mut dir = PathBuf::from("benchmarks");
        let mut name = None;
        let mut limits = Limits::default();
        while let Some(arg) = p.next()? {
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(USAGE.as_str())),
                Short('d') | Long("dir") => dir = PathBuf::from(usage::string(p, "-d/--dir")?),
                Long("max-iters") => limits.max_iters = usage::parse(p, "--max-iters")?,
                Long("max-warmup-iters") => {
                    limits.max_warmup_iters = usage::parse(p, "--max-warmup-iters")?
                }
                Long("max-time") => {
                    limits.max_time = usage::parse::<HumanDuration>(p, "--max-time")?.0
                }
                Long("max-warmup-time") => {
                    limits.max_warmup_time =
                        usage::parse::<HumanDuration>(p, "--max-warmup-time")?.0
                }
                Value(v) => usage::one_name(v, &mut name)?,
                other => return Err(other.unexpected().into()),
            }
        }
        let name = name.ok_or_else(|| {
            UsageError::new("missing the benchmark name, e.g. `benchgrind suite klv group/name`")
        })?;
        Ok(Config { dir, name, limits })
    }
}

/// Runs `suite klv`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let def = definitions::find_one(&config.dir, &config.name)?;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(&klv::encode(&def, &config.limits))
        .and_then(|_| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Outcome::Done),
        r => r.context("cannot write to stdout").map(|_| Outcome::Done),
    }
}
