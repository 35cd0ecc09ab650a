//! The value the command line and environment are parsed into ([`Cli`]) and the choices its
//! flags take; what the rest of the pipeline reads. Imports nothing of `cli`.

use std::path::PathBuf;

use super::gbfilter::GbFilter;
use crate::config::{EventKind, ExplainPolicy, RegressionConfig, ValgrindTool};

/// What the command line and environment ask for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cli {
    /// Positional filters: a benchmark runs when its id matches any of them (all when empty).
    pub filters: Vec<String>,
    /// `--skip`: benchmarks matching any of these do not run.
    pub skip: Vec<String>,
    /// `--exact`: filters match the whole id instead of a part of it.
    pub exact: bool,
    /// `--nocapture`: which streams of the benchmark process to show.
    pub nocapture: Nocapture,
    /// `--home`: the root of all output files.
    pub home: Option<PathBuf>,
    /// `--separate-targets`: one directory tree per target triple below the home.
    pub separate_targets: bool,
    /// `--callgrind-args`: extra arguments for Callgrind, after those from the code.
    pub callgrind_args: Vec<String>,
    /// `--valgrind-args`: Valgrind's core arguments for every tool, after those from the code.
    pub valgrind_args: Vec<String>,
    /// `--tool-runner`: the command (and its arguments) Valgrind is started through.
    pub tool_runner: Vec<String>,
    /// `--tool-runner-args`: more arguments of the tool runner.
    pub tool_runner_args: Vec<String>,
    /// `--tools`: other Valgrind tools to run on every benchmark, besides the code's.
    pub tools: Vec<ValgrindTool>,
    /// `--cachegrind-args`, `--dhat-args`, ...: extra arguments of one tool, after the code's
    /// (and after `--valgrind-args`), in the order of the flags.
    pub tool_args: Vec<(ValgrindTool, Vec<String>)>,
    /// `--default-tool`: the tool that benchmarks, over the code's `default_tool`.
    pub default_tool: Option<ValgrindTool>,
    /// `--nosummary`: no tally line at the end of the run.
    pub nosummary: bool,
    /// `--truncate-description`: over the code's (`Some(None)`: never cut).
    pub truncate_description: Option<Option<usize>>,
    /// `--env-clear`: over the code's `env_clear`.
    pub env_clear: Option<bool>,
    /// `--envs`: variables set (`KEY=VALUE`) or passed through (`KEY`), after the code's.
    pub envs: Vec<(String, Option<String>)>,
    /// `--allow-aslr`: leave address space randomization on in measured processes.
    pub allow_aslr: bool,
    /// `--valgrind-bin`: the Valgrind launcher to run (over `BENCHGRIND_VALGRIND` and `PATH`).
    pub valgrind_bin: Option<PathBuf>,
    /// `--regression`: limits for every benchmark, over the code's.
    pub regression: Option<RegressionConfig>,
    /// `--regression-fail-fast`.
    pub regression_fail_fast: Option<bool>,
    /// `--limit-layout`: limits on the metrics that follow layout fire on a layout-only change
    /// too, over the code's `limit_layout`.
    pub limit_layout: Option<bool>,
    /// `--layout-spread=N`: measure each benchmark again with N shifted layouts.
    pub layout_spread: Option<usize>,
    /// `--fail-on-empty`: a benchmark that measures almost nothing fails.
    pub fail_on_empty: bool,
    /// `--save-baseline`: save the run under this name.
    pub save_baseline: Option<String>,
    /// `--baseline`: compare with this baseline instead of the previous run.
    pub baseline: Option<String>,
    /// `--load-baseline`: take the new values from this baseline instead of running.
    pub load_baseline: Option<String>,
    /// `--uncompared=fail`: a benchmark not compared with a baseline of its own machine and
    /// revision makes the run exit with 4.
    pub uncompared_fails: bool,
    /// `--baseline-revision`: the commit the baseline must have measured.
    pub baseline_revision: Option<String>,
    /// `--output-format`.
    pub output_format: ReportFormat,
    /// `--output-file`: the report of `--output-format` goes into this file instead of stdout.
    pub output_file: Option<std::path::PathBuf>,
    /// `--explain`: when to show why a benchmark's counts changed.
    pub explain: ExplainPolicy,
    /// `--labels`: the names of the terminal report's metric lines.
    pub labels: Labels,
    /// `--save-summary`: write `summary.json` next to each benchmark's files.
    pub save_summary: Option<JsonStyle>,
    /// `--history=off`: do not append this run to `<home>/history/`.
    pub no_history: bool,
    /// `--no-match`: what a run whose filters select no benchmark does.
    pub no_match: NoMatch,
    /// `--list`: print the benchmarks instead of running them.
    pub list: bool,
    /// `--ignored` (with `--list`): list the ignored benchmarks, of which there are none.
    pub ignored: bool,
    /// `--help`.
    pub help: bool,
    /// Colored output.
    pub color: Color,
    /// `BENCHGRIND_LOG`.
    pub log: LogLevel,
    /// `--deterministic-random`: overrides the code's `deterministic_random`.
    pub deterministic_random: Option<bool>,
    /// `--realtime=no`: measured processes run under the usual scheduling even where
    /// `SCHED_FIFO` is permitted.
    pub no_realtime: bool,
    /// `--random-seed`: overrides the code's `random_seed`.
    pub random_seed: Option<u64>,
    /// `--jobs`: how many benchmarks run at once (default: the available cores).
    pub jobs: Option<usize>,
    /// `--separate-threads`: overrides the code's `separate_threads`.
    pub separate_threads: Option<bool>,
    /// `--timeout`: overrides the code's `timeout`.
    pub timeout: Option<std::time::Duration>,
    /// `--stall-limit`: how long a run's processes may all be asleep.
    pub stall_limit: Option<std::time::Duration>,
    /// `--isolation`: a fork server per class of benchmarks, or a process per benchmark.
    pub isolation: Isolation,
    /// `--fresh`, `--verify-reuse`: whether a benchmark whose recorded inputs are all unchanged
    /// is reported as it was instead of run.
    pub reuse: Reuse,
    /// `--partition=K/N`: run only the K-th of N deterministic shares of the benchmarks.
    pub partition: Option<(u32, u32)>,
    /// `--test-mode`: run every benchmark once natively, without Valgrind.
    pub test_mode: bool,
    /// `BENCHGRIND_CANNED` (hidden, for the pipeline tests): run nothing, copy the canned
    /// profiles of this directory instead (see [`crate::execute::canned`]).
    pub canned: Option<PathBuf>,
    /// `--bench` was given (cargo passes it to bench targets under `cargo bench`).
    pub bench_flag: bool,
    /// `--benchmark_out`: also write the run to this file, as Google Benchmark would.
    pub benchmark_out: Option<PathBuf>,
    /// `--benchmark_out_format`: the format of that file.
    pub benchmark_out_format: BenchmarkOutFormat,
    /// `--benchmark_filter`: Google Benchmark's filter, beside the positional ones.
    pub benchmark_filter: Option<GbFilter>,
    /// `--benchmark_list_tests`: print the ids, one per line, instead of running.
    pub benchmark_list_tests: bool,
    /// `--benchmark_metric`: what fills Google Benchmark's time fields (default: Ir); see
    /// [`Cli::benchmark_metric`].
    pub benchmark_metric: Option<EventKind>,
    /// `--callgrind-limits`: Callgrind's limits, replacing the code's.
    pub callgrind_limits: Option<RegressionConfig>,
    /// `--cachegrind-limits`: Cachegrind's limits, replacing the code's.
    pub cachegrind_limits: Option<RegressionConfig>,
    /// `--dhat-limits`: DHAT's limits, replacing the code's.
    pub dhat_limits: Option<RegressionConfig>,
    /// `--callgrind-metrics`: Callgrind's metrics the report shows, in order.
    pub callgrind_metrics: Option<Vec<EventKind>>,
    /// `--cachegrind-metrics`: Cachegrind's metrics the report shows, in order.
    pub cachegrind_metrics: Option<Vec<EventKind>>,
    /// `--dhat-metrics`, `--memcheck-metrics`, `--helgrind-metrics`, `--drd-metrics`: the
    /// metrics of these tools the report shows, in order.
    pub tool_metrics: Vec<(ValgrindTool, Vec<crate::config::ToolMetric>)>,
    /// `--tolerance`: changes within this many percent show as `(Tolerance)`.
    pub tolerance: Option<f64>,
    /// The perf flags (`--perf`, `--perf-events`, `--perf-limits`, ...), folded into each
    /// benchmark's [`crate::config::perf::run::PerfRun`] when it is planned.
    pub perf: crate::config::perf::run::PerfFlags,
    /// `--perf-round=FILE`: one round of perf sampling of every benchmark perf samples, nothing
    /// else, its round means written to FILE (`benchgrind ab` in turns).
    pub perf_round: Option<std::path::PathBuf>,
    /// `--show-grid`: grid marks in the terminal report.
    pub show_grid: Option<bool>,
    /// `--show-only-comparison`: of a benchmark with `compare_by_id` comparisons, only those.
    pub show_only_comparison: Option<bool>,
}

/// The formats of `--benchmark_out`, Google Benchmark's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BenchmarkOutFormat {
    /// Google Benchmark's JSON (what compare.py reads).
    #[default]
    Json,
    /// Google Benchmark's CSV columns.
    Csv,
    /// The terminal report, without color.
    Console,
}

/// What becomes of a benchmark whose record of inputs matches ([`crate::execute::reuse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reuse {
    /// Its last results are reported, marked reused, and it does not run (the default).
    #[default]
    Reuse,
    /// Every benchmark runs (`--fresh`); records are still written.
    Fresh,
    /// Every benchmark runs, and one whose record matched fails if a count differs from what
    /// would have been reused (`--verify-reuse`).
    Verify,
    /// Nothing is recorded or reused: runs without Valgrind (test mode, canned profiles,
    /// `--load-baseline`) and a suite's.
    Off,
}

/// What a run does when its filters select no benchmark of the bench file (`--no-match`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoMatch {
    /// Says so and exits 0 (the default: under `cargo bench -- FILTER` every bench file of the
    /// package sees the filter, and most match nothing).
    #[default]
    Warn,
    /// Says so as an error and exits 1, so that a mistyped filter fails a CI job.
    Fail,
    /// Says nothing and exits 0.
    Pass,
}

/// How measured processes are started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// One Valgrind process per class of benchmarks, forking a child per benchmark.
    #[default]
    Fork,
    /// One Valgrind process per benchmark.
    Process,
}

/// Which output of the benchmark process is shown instead of captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nocapture {
    /// Both captured (the default); shown with `BENCHGRIND_LOG=info` or when a benchmark fails.
    #[default]
    None,
    /// Both shown.
    All,
    /// Stdout shown, stderr discarded.
    Stdout,
    /// Stderr shown, stdout discarded.
    Stderr,
}

/// When to color the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Color {
    /// When stdout is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The report a run prints on stdout, as `--output-format` names it (`benchgrind merge` takes the
/// same names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReportFormat {
    /// The terminal report (`default`).
    #[default]
    Terminal,
    /// One JSON summary per benchmark and line (`json`).
    Json,
    /// Indented JSON summaries (`pretty-json`).
    PrettyJson,
    /// A pull-request comment at the end: a table of the benchmarks and, per changed one, the
    /// functions that changed its counts (`markdown`).
    Markdown,
    /// The Bencher Metric Format: one JSON object at the end, each benchmark's measures
    /// (`bmf`).
    Bmf,
    /// gungraun 0.20's summaries (its version 7), one per line (`gungraun-json`).
    GungraunJson,
}

impl ReportFormat {
    /// The names `from_name` takes, for messages.
    pub const NAMES: &'static str = "default, json, pretty-json, markdown, bmf or gungraun-json";

    /// The format of a name (in lower case), if it is one.
    pub fn from_name(name: &str) -> Option<ReportFormat> {
        match name {
            "default" => Some(ReportFormat::Terminal),
            "json" => Some(ReportFormat::Json),
            "pretty-json" => Some(ReportFormat::PrettyJson),
            "markdown" => Some(ReportFormat::Markdown),
            "bmf" => Some(ReportFormat::Bmf),
            "gungraun-json" => Some(ReportFormat::GungraunJson),
            _ => None,
        }
    }
}

/// The names of the terminal report's metric lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Labels {
    /// iai-callgrind 0.13's (`L2 Hits`), line for line, for tools that parse its output.
    #[default]
    IaiCallgrind,
    /// benchgrind's own (`LL Hits`).
    Benchgrind,
}

/// Compact or indented JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonStyle {
    /// One line.
    Compact,
    /// Indented.
    Pretty,
}

/// How much the harness logs to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum LogLevel {
    /// Errors only.
    Error,
    /// Warnings (the default).
    #[default]
    Warn,
    /// Also the captured output of every benchmark.
    Info,
    /// Also the Valgrind command lines.
    Debug,
    /// Everything.
    Trace,
}

impl Cli {
    /// Whether a benchmark with this id (`file::group::function::id`) is selected.
    pub fn selects(&self, id: &str) -> bool {
        let hit = |f: &String| {
            if f.contains(['*', '?']) {
                glob(f, id)
            } else if self.exact {
                f == id
            } else {
                id.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(hit))
            && !self.skip.iter().any(hit)
            && self
                .benchmark_filter
                .as_ref()
                .map_or(true, |f| f.selects(id))
    }

    /// The metric of `--benchmark_metric`, instructions unless chosen.
    pub fn benchmark_metric(&self) -> EventKind {
        self.benchmark_metric.unwrap_or(EventKind::Ir)
    }
}

/// `*` matches any run of characters, `?` one character; the whole id must match.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}
