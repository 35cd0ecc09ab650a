//! `benchgrind compare OLD NEW`: line up two result sets, say what changed and whether it is
//! noise, and fail CI past a threshold.
//!
//! `Config::parse` checks the command line's shape; `run` resolves it (inputs looked at, nothing
//! run yet), loads both sides (files read, binaries run), compares, checks the limits and writes
//! the report. The stages are in `compare/`.

use crate::compare::model::ResultSet;
use benchgrind_runner::fingerprint::describe;
use std::ffi::OsString;
use std::io::{self, Write};

use anyhow::Result;

use crate::compare::args::{self, RawArgs};
use crate::compare::config::Resolved;
use crate::compare::report::{
    csv::Csv, json::Json, markdown::Markdown, terminal::Terminal, Format, Reporter, Style,
};
use crate::compare::{compare_py, diff, sides, threshold};
use crate::exit::{Exit, Outcome};
use crate::usage::{self, UsageError};

/// The help text.
pub const USAGE: &str = "\
benchgrind compare: line up two result sets, say what changed and whether it is noise

USAGE:
    benchgrind compare OLD NEW [OPTIONS] [-- BENCHMARK_OPTIONS...]
    benchgrind compare benchmarks OLD NEW [OPTIONS] [-- ...]
    benchgrind compare filters INPUT FILTER_OLD FILTER_NEW [OPTIONS] [-- ...]
    benchgrind compare benchmarksfiltered OLD FILTER_OLD NEW FILTER_NEW [OPTIONS] [-- ...]

OLD, NEW and INPUT are each one of:
    a benchgrind summary file: a `summary.json` (from `--save-summary`) or the output of
        `--output-format=json` (one summary per line) saved to a file
    a directory: every `summary.json` below it (e.g. target/benchgrind after `--save-summary`)
    a baseline NAME saved with `--save-baseline=NAME`: every `baseline.NAME.callgrind.out`
        below the benchgrind home (see --home); used when no file of that name exists
    a benchgrind bench binary (e.g. target/release/deps/my_bench-HASH): run with
        `--output-format=json` and BENCHMARK_OPTIONS; its stderr passes through
    a Google Benchmark JSON file (from `--benchmark_out=FILE --benchmark_out_format=json`)
    a Google Benchmark binary, which is run with those options, the filter of its side, and
        BENCHMARK_OPTIONS (e.g. `-- --benchmark_repetitions=9`)

Benchmarks are matched by name (benchgrind: the id `file::group::function::id`) and kind: runs
with runs, each aggregate with the aggregate of the same statistic; what one side lacks is
listed. On Google Benchmark JSON, the report also lists where compare.py's would differ (it pairs
a name's entries by position) with compare.py's numbers; see docs/command.md.

`filters` compares two sets of benchmarks of one input; `benchmarksfiltered` one set from each
input. In both, the part of each name that its filter (a regex) matches is replaced by
`[FILTER_OLD vs. FILTER_NEW]`, so that the two sets line up.

Per metric: old, new and the change (new-old)/|old|. benchgrind summaries: every metric of the
summary (Ir, L1hits, LLhits, RamHits, TotalRW, EstimatedCycles, other tools' events), each side's
`new` value (exact counts: one run, no U test), lower is better; an OVERALL_GEOMEAN line for Ir
and EstimatedCycles. Google Benchmark (time, cpu, bytes_per_second, items_per_second, user
counters): with repetitions, each pair by index, the medians, and a two-sided Mann-Whitney U test
(9 or more repetitions per side recommended); aggregates (_mean, _median, ...) one to one; an
OVERALL_GEOMEAN line for the times of the runs compared; a change from 0 is n/a.

OPTIONS:
    --format FORMAT        terminal (default), json, markdown or csv
    --fail-above [METRIC=]PCT
                           exit with code 3 when a metric gets worse by more than PCT percent.
                           A bare PCT applies to every benchgrind metric and to time, cpu and
                           throughput counters; METRIC=PCT sets one metric's limit (e.g. Ir=5,
                           EstimatedCycles=10; needed for user counters, checked both ways).
                           Repeatable. Checked on each benchmark's median (or only) value, on
                           non-spread aggregates and on the geomean; a benchmark that fails in
                           NEW only also exits with 3.
    --metric METRIC        Google Benchmark binaries: instead of timing them, run each of their
                           benchmarks alone under Callgrind and compare exact counts per
                           iteration of the benchmark loop, every Callgrind metric (METRIC, e.g.
                           instructions, comes first; see `benchgrind gbench --help` for what is
                           counted). `--keep-results` then keeps Google Benchmark JSON with
                           METRIC in its time fields
    --home DIR             where baselines are looked up [default: env BENCHGRIND_HOME, else
                           $CARGO_TARGET_DIR/benchgrind, else target/benchgrind]
    --alpha A              significance level of the U test [default: 0.05]
    --no-utest             do not run the U test
    --aggregates-only      terminal and markdown: hide the rows of single repetitions
    --color WHEN           auto (default), always or never; env BENCHGRIND_COLOR, then
                           CARGO_TERM_COLOR
    --keep-results DIR     keep what binaries wrote as DIR/old.json and DIR/new.json (summaries
                           one per line for bench binaries)
    -h, --help             print this help

EXIT CODES:
    0 compared, 1 error (unreadable input, failing binary), 2 usage, 3 past --fail-above
";

/// What follows a usage mistake.
const HINT: &str = "Run `benchgrind compare --help` for usage.";

/// The command line of `compare`, checked for shape; `run` resolves it.
#[derive(Debug)]
pub struct Config {
    /// The arguments as given.
    raw: RawArgs,
}

impl Config {
    /// Parses the arguments after `compare`.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        let raw = args::parse(args).map_err(|e| e.hint(HINT))?;
        if raw.help {
            return Err(UsageError::Help(USAGE));
        }
        Ok(Config { raw })
    }
}

/// Runs `compare`: past the limit when a result is past `--fail-above`.
pub fn run(config: &Config) -> Result<Outcome> {
    let resolved = Resolved::resolve(&config.raw).map_err(|e| usage::hint(e, HINT))?;
    let (old, new) = sides::load(&resolved)?;
    warn_machines(&old, &new);
    let mut comparison = diff::compare(&old, &new, resolved.options);
    comparison.compare_py =
        compare_py::differences(&old, &new, &comparison, resolved.options.utest);
    let violations = threshold::check(&comparison, &resolved.limits);
    let reporter = reporter(resolved.format, resolved.style);
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
        return Ok(Outcome::Done);
    }
    crate::messages::error!(
        "{} result{} past --fail-above (exit code {})",
        violations.len(),
        if violations.len() == 1 {
            " is"
        } else {
            "s are"
        },
        Exit::Threshold as u8
    );
    Ok(Outcome::PastLimit)
}

/// Says on stderr which fields of the machine fingerprint differ between the two sides' summaries
/// (the first machine of each side; summaries without one say nothing).
fn warn_machines(old: &ResultSet, new: &ResultSet) {
    let (Some(old_machine), Some(new_machine)) = (old.machines.first(), new.machines.first())
    else {
        return;
    };
    let differences = new_machine.differences(old_machine);
    if let Some(text) = describe(&differences, "old side") {
        crate::messages::note!("{text}");
    }
    for (side, set) in [("old", old), ("new", new)] {
        if set.machines.len() > 1 {
            crate::messages::note!(
                "the {side} side holds values from {} different machines",
                set.machines.len()
            );
        }
    }
}

/// The reporter of a `--format`.
fn reporter(format: Format, style: Style) -> Box<dyn Reporter> {
    match format {
        Format::Terminal => Box::new(Terminal { style }),
        Format::Json => Box::new(Json),
        Format::Markdown => Box::new(Markdown { style }),
        Format::Csv => Box::new(Csv),
    }
}
