//! What one benchmark's run produced, between the harness that builds it and the reporters and
//! the summary that show it: the outcome, the values compared, the limits passed, the other
//! tools' results.

use std::path::PathBuf;
use std::time::Duration;

use crate::compare::layout::{LayoutOnly, Spread};
use crate::compare::regression::Regression;
use crate::compare::regression::ToolRegression;
use crate::config::ValgrindTool;
use crate::execute::Captured;
use crate::explain::Explanation;
use crate::metrics::Metrics;
use crate::metrics::ToolMetrics;
use crate::plan::BenchId;

/// Where a set of values came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// This run.
    Run,
    /// The run before this one.
    PreviousRun,
    /// A saved baseline.
    Baseline(String),
}

impl Source {
    /// `run`, `previous run` or `baseline NAME`.
    pub fn describe(&self) -> String {
        match self {
            Source::Run => "run".into(),
            Source::PreviousRun => "previous run".into(),
            Source::Baseline(name) => format!("baseline {name}"),
        }
    }
}

/// How a benchmark ended.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Measured; `old` is absent on a first run or when the baseline does not exist yet.
    Measured {
        /// The new values.
        new: Metrics,
        /// The values compared with.
        old: Option<Metrics>,
    },
    /// Not measured: panic, failed process, unreadable profile or baseline.
    Failed {
        /// What happened and what to do.
        reason: String,
    },
}

/// A `compare_by_id` comparison with an earlier function's bench of the same id.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The other function.
    pub function: String,
    /// The other bench's `id:args`.
    pub id_and_args: String,
    /// The other bench's values.
    pub metrics: Metrics,
}

/// One benchmark's result.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// The package of the bench target.
    pub package: String,
    /// The benchmark's names.
    pub id: BenchId,
    /// The measured command line of a binary benchmark.
    pub command: Option<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// The tool whose values `outcome` holds: Callgrind, or where Callgrind did not run (another
    /// default tool, `Callgrind::enable(false)`), none of whose (those are in `tools`) and the
    /// default tool here.
    pub tool: ValgrindTool,
    /// Where the new values come from.
    pub new_source: Source,
    /// What they are compared with.
    pub old_source: Source,
    /// Limits passed.
    pub regressions: Vec<Regression>,
    /// `compare_by_id` comparisons.
    pub comparisons: Vec<Comparison>,
    /// The benchmark's directory.
    pub dir: PathBuf,
    /// The profile of the new values.
    pub profile: PathBuf,
    /// Valgrind's log of the run (absent when nothing ran).
    pub log: Option<PathBuf>,
    /// Wall time of the Valgrind process.
    pub duration: Duration,
    /// The other tools' results, in the order they ran.
    pub tools: Vec<ToolResult>,
    /// The flamegraph SVGs written.
    pub flamegraphs: Vec<PathBuf>,
    /// Why its Callgrind counts changed (`--explain`): present when they changed and both
    /// profiles could be read.
    pub explained: Option<Explained>,
    /// What the benchmark printed that is to be shown (`--nocapture`), under its own header.
    pub output: Captured,
    /// The machine that produced the new values, when known.
    pub fingerprint: Option<crate::fingerprint::Fingerprint>,
    /// The fields in which the machine of the old values differs.
    pub machine: Vec<crate::fingerprint::Difference>,
    /// The machine and revision of the old values (the baseline's), when known.
    pub old_fingerprint: Option<crate::fingerprint::Fingerprint>,
    /// Why the benchmark was not compared with a baseline of its own machine and revision
    /// (`--baseline` given): none saved, another machine's, another revision's.
    pub uncompared: Option<String>,
    /// Measured, or not run because its inputs were all as recorded (these are then the
    /// results measured at the date it holds), or measured under `--verify-reuse` although its
    /// record matched ([`crate::execute::reuse`]).
    pub reuse: crate::execute::reuse::Verdict,
    /// What looks wrong with the benchmark although it ran (e.g. it measures almost nothing).
    pub warnings: Vec<String>,
    /// Its counts per thread and process, when asked for (`separate_threads`).
    pub parts: Vec<PartResult>,
    /// The change from the old values is one of layout alone: the executed code is the same,
    /// only cache metrics moved ([`crate::compare::layout`]).
    pub layout_only: Option<LayoutOnly>,
    /// How far layout alone moves its metrics, measured with shifted layouts
    /// (`--layout-spread`).
    pub spread: Option<Spread>,
    /// How the terminal report shows its metrics.
    pub view: View,
    /// Linux perf's statistics, where perf was configured and ran.
    pub perf: Option<PerfResult>,
}

/// Linux perf's statistics of a benchmark ([`crate::perf`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PerfResult {
    /// Per metric, in the order counted.
    pub metrics: Vec<PerfMetricResult>,
    /// The limits passed and the verdicts that fail ([`crate::compare::limits`]).
    pub regressions: Vec<crate::compare::perf::PerfRegression>,
    /// What the machine or the samples changed (events it cannot count, kernel time left out,
    /// samples dropped).
    pub notes: Vec<String>,
    /// Why perf gave nothing (not allowed, no such event): the benchmark failed.
    pub failed: Option<String>,
    /// The significance level of the t-test.
    pub alpha: f64,
    /// What separate runs differ by, in percent of the mean, in the t-test (`--perf-noise`).
    pub noise_pct: f64,
    /// The samples file.
    pub file: PathBuf,
    /// The number of rounds where base and head were sampled in turns and compared round by
    /// round (`benchgrind ab`); `None` where a run is compared with one taken at another time.
    pub paired_rounds: Option<usize>,
}

/// One perf metric's comparison ([`crate::compare::perf`], where it is made).
pub use crate::compare::perf::PerfMetricResult;

/// How the terminal report shows a benchmark's metrics, from its configuration and the command
/// line: which metrics in which order (`format`, `--callgrind-metrics`, ...), the tolerance
/// under which a change shows as `(Tolerance)`, and the grid.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    /// Callgrind's metrics in order; `None`: the default ones (those of `@default` that were
    /// collected, in the order they were, as before formats existed).
    pub callgrind: Option<Vec<crate::config::EventKind>>,
    /// Cachegrind's metrics in order (`Cachegrind::format`, `--cachegrind-metrics`).
    pub cachegrind: Option<Vec<crate::config::EventKind>>,
    /// The other tools' metrics in order, for the tools that have a format.
    pub tools: Vec<(ValgrindTool, Vec<crate::config::ToolMetric>)>,
    /// Changes within this many percent either way show as `(Tolerance)`.
    pub tolerance: Option<f64>,
    /// Whether the lines have grid marks (`|-` before a metric, `|=` before a tool's title).
    pub grid: bool,
    /// Of a benchmark with `compare_by_id` comparisons, only those (`--show-only-comparison`).
    pub only_comparison: bool,
}

/// One thread's counts in a benchmark's result.
#[derive(Debug, Clone, PartialEq)]
pub struct PartResult {
    /// The process, numbered in the order they appear (1 is the measured process).
    pub process: usize,
    /// Its pid in this run.
    pub pid: u32,
    /// Valgrind's number of the thread in its process (1 is the first).
    pub thread: u32,
    /// The process's command line.
    pub command: String,
    /// The new values.
    pub new: Metrics,
    /// The values of the same process (by number) and thread compared with, if any.
    pub old: Option<Metrics>,
}

/// The parts of a joined profile, each thread's dumps added up, with the old profile's part of
/// the same process number and thread.
pub fn parts(
    new: &crate::parse::profile::Profile,
    old: Option<&crate::parse::profile::Profile>,
) -> Vec<PartResult> {
    let old_parts = old.map(|old| (numbered(old), &old.events));
    numbered(new)
        .into_iter()
        .map(|part| {
            let old = old_parts.as_ref().and_then(|(parts, events)| {
                parts
                    .iter()
                    .find(|o| (o.process, o.thread) == (part.process, part.thread))
                    .map(|o| Metrics::from_costs(events, &o.totals))
            });
            PartResult {
                process: part.process,
                pid: part.pid,
                thread: part.thread,
                command: part.command.to_owned(),
                new: Metrics::from_costs(&new.events, &part.totals),
                old,
            }
        })
        .collect()
}

/// A thread of a joined profile, its dumps added up.
struct Numbered<'a> {
    process: usize,
    pid: u32,
    thread: u32,
    command: &'a str,
    totals: Vec<u64>,
}

/// The threads of a joined profile, processes numbered in the order they appear.
fn numbered(profile: &crate::parse::profile::Profile) -> Vec<Numbered<'_>> {
    let mut pids: Vec<u32> = Vec::new();
    let mut out: Vec<Numbered<'_>> = Vec::new();
    for part in &profile.parts {
        let process = match pids.iter().position(|&p| p == part.id.pid) {
            Some(i) => i + 1,
            None => {
                pids.push(part.id.pid);
                pids.len()
            }
        };
        let same = |o: &&mut Numbered<'_>| (o.process, o.thread) == (process, part.id.thread);
        match out.iter_mut().find(same) {
            Some(existing) => {
                for (sum, v) in existing.totals.iter_mut().zip(&part.totals) {
                    *sum = sum.saturating_add(*v);
                }
            }
            None => out.push(Numbered {
                process,
                pid: part.id.pid,
                thread: part.id.thread,
                command: &part.cmd,
                totals: part.totals.clone(),
            }),
        }
    }
    out
}

impl BenchResult {
    /// Whether it failed: Callgrind's run or another tool's.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, Outcome::Failed { .. })
            || self.tools.iter().any(|t| t.failed())
            || self.perf.as_ref().is_some_and(|p| p.failed.is_some())
    }

    /// Whether a limit was passed, of Callgrind or another tool.
    pub fn regressed(&self) -> bool {
        !self.regressions.is_empty()
            || self.tools.iter().any(ToolResult::regressed)
            || self
                .perf
                .as_ref()
                .is_some_and(|p| !p.regressions.is_empty())
    }
}

/// The attribution of a benchmark's change to functions, and whether to show it.
#[derive(Debug, Clone)]
pub struct Explained {
    /// Every changed function, ranked.
    pub explanation: Explanation,
    /// Whether `--explain` asks the terminal to show it (changed past the threshold, or a
    /// limit was passed); JSON and Markdown show every explanation.
    pub shown: bool,
}

/// How one tool's run of a benchmark ended.
#[derive(Debug, Clone)]
pub enum ToolOutcome {
    /// It ran; tools without metrics (BBV, Cachegrind) have empty ones.
    Ran {
        /// The new values.
        new: ToolMetrics,
        /// The values compared with.
        old: Option<ToolMetrics>,
    },
    /// It failed (errors found, a crash, an unreadable file); the benchmark fails.
    Failed {
        /// What happened.
        reason: String,
        /// The values, when the files could be read (the error counts of a failing Memcheck).
        new: Option<ToolMetrics>,
    },
}

/// One tool's part of a benchmark's result.
#[derive(Debug, Clone)]
pub struct ToolResult {
    /// The tool.
    pub tool: ValgrindTool,
    /// How it ended.
    pub outcome: ToolOutcome,
    /// Limits passed.
    pub regressions: Vec<ToolRegression>,
    /// The output file (absent for tools that write only a log).
    pub out: Option<PathBuf>,
    /// The log.
    pub log: PathBuf,
    /// Cachegrind's counts, as Callgrind's metrics (absent for other tools, or when its file
    /// could not be read).
    pub events: Option<EventValues>,
}

/// Cachegrind's counts as Callgrind's metrics: new, old, and the limits they passed.
#[derive(Debug, Clone, PartialEq)]
pub struct EventValues {
    /// The new counts.
    pub new: Metrics,
    /// Those compared with.
    pub old: Option<Metrics>,
    /// Cachegrind's limits passed.
    pub regressions: Vec<Regression>,
}

impl ToolResult {
    /// The limits Cachegrind's counts passed.
    pub fn event_regressions(&self) -> &[Regression] {
        self.events.as_ref().map_or(&[], |e| &e.regressions[..])
    }

    /// Whether the tool's values passed a limit (its metrics' or, Cachegrind's, its counts').
    pub fn regressed(&self) -> bool {
        !self.regressions.is_empty() || !self.event_regressions().is_empty()
    }

    /// Each passed limit in words, the tool named: its metrics', then its counts'.
    pub fn regression_lines(&self) -> impl Iterator<Item = String> + '_ {
        let metrics = self.regressions.iter().map(|r| r.describe(self.tool));
        let events = (self.event_regressions().iter())
            .map(|r| format!("{} {}", self.tool.title(), r.describe()));
        metrics.chain(events)
    }
}

impl ToolResult {
    /// Whether the tool failed the benchmark.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, ToolOutcome::Failed { .. })
    }
}

/// The metrics of a failed or successful run, whichever it has.
pub fn tool_metrics(outcome: &ToolOutcome) -> Option<&ToolMetrics> {
    match outcome {
        ToolOutcome::Ran { new, .. } => Some(new),
        ToolOutcome::Failed { new, .. } => new.as_ref(),
    }
}

/// Why a measured benchmark failed all the same: its tools' failures ([`tool_failure`]), else
/// perf's, with the file to look at.
pub fn other_failure(result: &BenchResult) -> Option<(String, PathBuf)> {
    tool_failure(&result.tools).or_else(|| {
        let perf = result.perf.as_ref()?;
        Some((
            format!("perf: {}", perf.failed.as_ref()?),
            perf.file.clone(),
        ))
    })
}

/// The failures of a benchmark's tools as one reason, with the first failing tool's log.
pub fn tool_failure(results: &[ToolResult]) -> Option<(String, PathBuf)> {
    let failed: Vec<&ToolResult> = results.iter().filter(|r| r.failed()).collect();
    let log = failed.first()?.log.clone();
    let reasons: Vec<&str> = failed
        .iter()
        .filter_map(|r| match &r.outcome {
            ToolOutcome::Failed { reason, .. } => Some(reason.as_str()),
            ToolOutcome::Ran { .. } => None,
        })
        .collect();
    Some((reasons.join("; "), log))
}
