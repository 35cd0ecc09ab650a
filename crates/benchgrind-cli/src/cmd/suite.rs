//! `benchgrind suite`: run and compare suites of benchmarks in rebar's formats, with runner
//! programs in any language. This file picks the suite command; each one is in `suite/cmd/`.

use std::ffi::OsString;

use crate::exit::Outcome;
use crate::suite::cmd::{
    build, clean, cmp, diff, haystack, klv, list, measure, rank, report, version,
};
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Run and compare benchmark suites in rebar's formats, with runner programs in any language.

USAGE:
    benchgrind suite <COMMAND> [OPTIONS]

COMMANDS:
    klv        print one benchmark in the KLV format runners read on stdin
    haystack   print one benchmark's haystack as its runners receive it
    build      check dependencies and build every engine (engines.toml)
    clean      run every engine's clean commands
    list       list the benchmark/engine pairs that `measure` would run
    measure    run benchmarks and write results (rebar CSV, full CSV or JSON)
    cmp        compare engines side by side from result files
    diff       compare the same engine across result files (e.g. before/after)
    rank       rank engines by the geometric mean of their speed ratios
    report     write a Markdown report from result files
    version    print the version written in the results' rebar_version column

The suite directory (-d/--dir, default ./benchmarks) holds engines.toml, definitions/**/*.toml,
haystacks/ and regexes/. Run `benchgrind suite <COMMAND> --help` for a command's options.
";

/// What follows a usage mistake.
const HINT: &str =
    "Run `benchgrind suite --help` or `benchgrind suite <COMMAND> --help` for usage.";

/// The suite command asked for, with its flags.
#[derive(Debug)]
pub enum Config {
    /// `suite klv`.
    Klv(klv::Config),
    /// `suite haystack`.
    Haystack(haystack::Config),
    /// `suite version`.
    Version(version::Config),
    /// `suite build`.
    Build(build::Config),
    /// `suite clean`.
    Clean(clean::Config),
    /// `suite list`.
    List(list::Config),
    /// `suite measure`.
    Measure(measure::Config),
    /// `suite cmp`.
    Cmp(cmp::Config),
    /// `suite diff`.
    Diff(diff::Config),
    /// `suite rank`.
    Rank(rank::Config),
    /// `suite report`.
    Report(report::Config),
}

impl Config {
    /// Parses the arguments after `suite`: the command, then its flags.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        Config::parse_command(args).map_err(|e| e.hint(HINT))
    }

    fn parse_command(args: Vec<OsString>) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let mut p = lexopt::Parser::from_args(args);
        let name = match p.next()? {
            None => return Err(UsageError::Missing(USAGE)),
            Some(Short('h') | Long("help")) => return Err(UsageError::Help(USAGE)),
            Some(Value(v)) => v,
            Some(other) => return Err(other.unexpected().into()),
        };
        let p = &mut p;
        Ok(match name.to_str() {
            Some("klv") => Config::Klv(klv::Config::parse(p)?),
            Some("haystack") => Config::Haystack(haystack::Config::parse(p)?),
            Some("version") => Config::Version(version::Config::parse(p)?),
            Some("build") => Config::Build(build::Config::parse(p)?),
            Some("clean") => Config::Clean(clean::Config::parse(p)?),
            Some("list") => Config::List(list::Config::parse(p)?),
            Some("measure") => Config::Measure(measure::Config::parse(p)?),
            Some("cmp") => Config::Cmp(cmp::Config::parse(p)?),
            Some("diff") => Config::Diff(diff::Config::parse(p)?),
            Some("rank") => Config::Rank(rank::Config::parse(p)?),
            Some("report") => Config::Report(report::Config::parse(p)?),
            _ => {
                return Err(UsageError::new(format!(
                    "unknown suite command '{}'",
                    name.to_string_lossy()
                )))
            }
        })
    }
}

/// Runs the suite command.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    match config {
        Config::Klv(c) => klv::run(c),
        Config::Haystack(c) => haystack::run(c),
        Config::Version(c) => version::run(c),
        Config::Build(c) => build::run(c),
        Config::Clean(c) => clean::run(c),
        Config::List(c) => list::run(c),
        Config::Measure(c) => measure::run(c),
        Config::Cmp(c) => cmp::run(c),
        Config::Diff(c) => diff::run(c),
        Config::Rank(c) => rank::run(c),
        Config::Report(c) => report::run(c),
    }
}
