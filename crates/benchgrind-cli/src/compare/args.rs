//! `benchgrind compare` arguments, first stage: raw values as typed, checked for shape only.
//! `config` turns them into a resolved [`super::config::Config`].

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;

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

Benchmarks are matched by name (benchgrind: the id `file::group::function::id`); names found on
one side only are listed. `filters` compares two sets of benchmarks of one input;
`benchmarksfiltered` one set from each input. In both, the part of each name that its filter (a
regex) matches is replaced by `[FILTER_OLD vs. FILTER_NEW]`, so that the two sets line up.

Per metric: old, new and the change (new-old)/|old|. benchgrind summaries: every metric of the
summary (Ir, L1hits, LLhits, RamHits, TotalRW, EstimatedCycles, other tools' events), each side's
`new` value (exact counts: one run, no U test), lower is better; an OVERALL_GEOMEAN line for Ir
and EstimatedCycles. Google Benchmark (time, cpu, bytes_per_second, items_per_second, user
counters): with repetitions, each pair by index, the medians, and a two-sided Mann-Whitney U test
(9 or more repetitions per side recommended); aggregates (_mean, _median, ...) one to one; an
OVERALL_GEOMEAN line for the times.

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

/// A mistake in the command line itself: exit code 2 and a pointer to `--help`.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The arguments as given.
#[derive(Debug, Default)]
pub struct RawArgs {
    /// Positional arguments: an optional mode word, inputs and filters.
    pub positional: Vec<OsString>,
    /// `--format`.
    pub format: Option<String>,
    /// Every `--fail-above`, in order.
    pub fail_above: Vec<String>,
    /// `--alpha`.
    pub alpha: Option<String>,
    /// `--no-utest`.
    pub no_utest: bool,
    /// `--aggregates-only`.
    pub aggregates_only: bool,
    /// `--color`.
    pub color: Option<String>,
    /// `--keep-results`.
    pub keep_results: Option<PathBuf>,
    /// `--home`.
    pub home: Option<PathBuf>,
    /// `--metric`.
    pub metric: Option<String>,
    /// Everything after `--`, for the binaries.
    pub passthrough: Vec<OsString>,
    /// `-h` / `--help`.
    pub help: bool,
}

/// Parses the arguments after `compare`.
pub fn parse(mut args: Vec<OsString>) -> Result<RawArgs, UsageError> {
    use lexopt::prelude::*;

    let mut raw = RawArgs::default();
    // Split at `--` ourselves: what follows belongs to the binaries, never to positionals.
    if let Some(i) = args.iter().position(|a| a == "--") {
        raw.passthrough = args.split_off(i + 1);
        args.pop();
    }
    let mut parser = lexopt::Parser::from_args(args);
    let usage = |e: lexopt::Error| UsageError(e.to_string());
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => raw.help = true,
            Long("format") => {
                raw.format = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("fail-above") => raw
                .fail_above
                .push(parser.value().map_err(usage)?.string().map_err(usage)?),
            Long("alpha") => {
                raw.alpha = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("no-utest") => raw.no_utest = true,
            Long("aggregates-only") => raw.aggregates_only = true,
            Long("color") => {
                raw.color = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("keep-results") => raw.keep_results = Some(parser.value().map_err(usage)?.into()),
            Long("home") => raw.home = Some(parser.value().map_err(usage)?.into()),
            Long("metric") => {
                raw.metric = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Value(v) => raw.positional.push(v),
            other => return Err(usage(other.unexpected())),
        }
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn options_positionals_and_passthrough() {
        let raw = parse(args(&[
            "a.json",
            "--fail-above",
            "5",
            "b",
            "--fail-above=cpu=2",
            "--format=json",
            "--",
            "--benchmark_repetitions=9",
            "--format",
        ]))
        .unwrap();
        assert_eq!(raw.positional, args(&["a.json", "b"]));
        assert_eq!(raw.fail_above, ["5", "cpu=2"]);
        assert_eq!(raw.format.as_deref(), Some("json"));
        assert_eq!(
            raw.passthrough,
            args(&["--benchmark_repetitions=9", "--format"])
        );
    }

    #[test]
    fn unknown_options_are_usage_errors() {
        let err = parse(args(&["a", "b", "--frobnicate"])).unwrap_err();
        assert!(err.0.contains("--frobnicate"), "{err}");
        assert!(parse(args(&["a", "b", "--format"])).is_err());
    }
}
