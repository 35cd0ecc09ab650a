//! What one benchmark's run produced, as the reporters and the summary see it.

use std::path::PathBuf;
use std::time::Duration;

use crate::execute::Captured;
use crate::metrics::Metrics;
use crate::plan::BenchId;
use crate::regression::Regression;
use crate::tools::ToolResult;

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
    /// What the benchmark printed that is to be shown (`--nocapture`), under its own header.
    pub output: Captured,
}

impl BenchResult {
    /// Whether it failed: Callgrind's run or another tool's.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, Outcome::Failed { .. }) || self.tools.iter().any(|t| t.failed())
    }

    /// Whether a limit was passed, of Callgrind or another tool.
    pub fn regressed(&self) -> bool {
        !self.regressions.is_empty() || self.tools.iter().any(|t| !t.regressions.is_empty())
    }
}
