//! `suite rank`: engines ordered by the geometric mean of their speed ratios (see
//! [`crate::suite::ranking`]), as a table, then the error rows.

use std::{path::PathBuf, sync::LazyLock};

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Filters, Stat},
    grouped, ranking, table,
};
use crate::usage::{self, Opt, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Rank engines by the geometric mean of their speed ratios across benchmarks.

USAGE:
    benchgrind suite rank [OPTIONS] <results> ...

    A ratio of 1.00 means the engine was the best on every benchmark it ran. Use
    --intersection to count only benchmarks that every engine measured.

",
        &[
            flags::FILTER_OPTS,
            &[
                grouped::COMPARE_OPTS[0],
                Opt::new(
                    "--intersection",
                    "only benchmarks that every engine measured without error",
                ),
                flags::HELP_OPT,
            ],
        ],
    )
});

/// What `suite rank` was asked.
#[derive(Debug)]
pub struct Config {
    /// The result files.
    paths: Vec<PathBuf>,
    /// The benchmark, model and engine filters.
    filters: Filters,
    /// `-s/--statistic`.
    stat: Stat,
    /// `--intersection`.
    intersection: bool,
}

impl Config {
    /// Parses the flags after `suite rank`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let (mut paths, mut filters, mut stat, mut intersection) =
            (vec![], Filters::default(), Stat::default(), false);
        while let Some(arg) = p.next()? {
            if let Some(kind) = Filters::kind(&arg) {
                filters.take(kind, p)?;
                continue;
            }
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(USAGE.as_str())),
                Value(v) => paths.push(PathBuf::from(v)),
                Short('s') | Long("statistic") => stat = usage::parse(p, "-s/--statistic")?,
                Long("intersection") => intersection = true,
                other => return Err(other.unexpected().into()),
            }
        }
        Ok(Config {
            paths: grouped::result_files(paths)?,
            filters,
            stat,
            intersection,
        })
    }
}

/// Runs `suite rank`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let (entries, _) = grouped::load(&config.paths, &config.filters)?;
    let mut rows = table::header(
        &[
            "Engine",
            "Version",
            "Geometric mean of speed ratios",
            "Benchmark count",
        ]
        .map(String::from),
    );
    for r in ranking::ranking(&entries, config.stat, config.intersection) {
        rows.push(vec![
            r.engine,
            r.version,
            format!("{:.2}", r.geomean),
            r.count.to_string(),
        ]);
    }
    print!("{}", table::render(&rows));
    print!(
        "{}",
        grouped::errors_section(&entries.iter().collect::<Vec<_>>(), false)
    );
    Ok(Outcome::Done)
}
