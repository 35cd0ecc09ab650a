//! The format-neutral results that `compare` works on: named benchmarks, each with named metrics,
//! each metric with one or more samples.
//!
//! Every input kind (Google Benchmark JSON and binaries; benchgrind summaries, baselines and
//! bench binaries) is turned into a [`ResultSet`] by its own module under `input/`; the
//! comparison core (`diff`), the thresholds and the reports only ever see these types.

use benchgrind_runner::config::EventKind;

/// Which way a metric gets better; decides colors and what `--fail-above` counts as worse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Times, instruction counts, cache misses.
    Lower,
    /// Throughput counters such as `bytes_per_second`.
    Higher,
    /// User counters: the file does not say.
    Unknown,
}

/// What a metric's values measure, for display and for the JSON `unit` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A duration; values are stored in nanoseconds whatever unit the input used.
    Nanoseconds,
    /// Something per second (bytes, items).
    PerSecond,
    /// A plain number: a count or a user counter.
    Count,
    /// A ratio where 1.0 is 100% (Google Benchmark's coefficient of variation).
    Fraction,
}

/// One measured quantity of one benchmark, with one sample per repetition.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// Name used in reports and in `--fail-above METRIC=PCT`.
    pub name: String,
    /// How the samples are measured.
    pub unit: Unit,
    /// Which way is an improvement.
    pub better: Better,
    /// One value per repetition, in repetition order.
    pub samples: Vec<f64>,
    /// Whether the metric takes part in the overall geometric-mean line (times do).
    pub geomean: bool,
}

impl Metric {
    /// One Callgrind count (one sample, lower is better); instructions and estimated cycles
    /// take part in the geometric mean.
    pub fn count(kind: EventKind, value: f64) -> Metric {
        Metric {
            name: kind.name().to_string(),
            unit: Unit::Count,
            better: Better::Lower,
            samples: vec![value],
            geomean: matches!(kind, EventKind::Ir | EventKind::EstimatedCycles),
        }
    }
}

/// Whether a benchmark is a measured run or a statistic computed from runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Measured; several samples mean several repetitions.
    Run,
    /// A statistic over the repetitions of a run, such as `mean` or `stddev`.
    Aggregate {
        /// The name of the run it summarises.
        run: String,
        /// The statistic's name as the input spells it.
        stat: String,
        /// True for spread statistics (stddev, cv): their changes are shown but never fail a
        /// threshold, since more or less noise is not a faster or slower program.
        spread: bool,
    },
}

/// One benchmark of a result set.
#[derive(Clone, Debug, PartialEq)]
pub struct Benchmark {
    /// The name benchmarks are matched by.
    pub name: String,
    /// Run or aggregate.
    pub kind: Kind,
    /// Its metrics, in the input's order.
    pub metrics: Vec<Metric>,
    /// Set when the benchmark failed; a failure is reported, not compared.
    pub error: Option<String>,
    /// Google Benchmark input: the ids ([`GbEntry::id`]) of the file's entries it was made of,
    /// one per sample, in sample order; empty for other inputs.
    pub entries: Vec<usize>,
}

/// All the benchmarks of one side of a comparison.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ResultSet {
    /// Where the results came from (a path, or a binary and its filter), for the report.
    pub label: String,
    /// The benchmarks, in the input's order.
    pub benchmarks: Vec<Benchmark>,
    /// The machines that produced benchgrind summaries' values (their fingerprints, each once),
    /// so that a comparison can say when the two sides come from different machines.
    pub machines: Vec<benchgrind_runner::fingerprint::Fingerprint>,
    /// Google Benchmark JSON input (a file, or a binary's output): its entries as compare.py
    /// reads them, so that a comparison can say where compare.py's report would differ.
    pub gbench: Option<Vec<GbEntry>>,
}

/// One entry of a Google Benchmark file's `benchmarks` array, with what compare.py uses of it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GbEntry {
    /// Its index in the file's `benchmarks` array.
    pub id: usize,
    /// Its name (after a filtered mode's renaming).
    pub name: String,
    /// `run_type` is `aggregate`: what compare.py takes for an aggregate.
    pub aggregate: bool,
    /// `aggregate_name`, if any.
    pub aggregate_name: Option<String>,
    /// `time_unit`, if any.
    pub time_unit: Option<String>,
    /// `real_time` in `time_unit`.
    pub real_time: Option<f64>,
    /// `cpu_time` in `time_unit`.
    pub cpu_time: Option<f64>,
    /// `family_index`, `per_family_instance_index` and `repetition_index`, which compare.py sorts
    /// by.
    pub order: [Option<i64>; 3],
    /// `error_occurred`.
    pub failed: bool,
}

impl Kind {
    /// The aggregate's statistic, if this is one.
    pub fn stat(&self) -> Option<&str> {
        match self {
            Kind::Run => None,
            Kind::Aggregate { stat, .. } => Some(stat),
        }
    }
}

impl Better {
    /// The name used in machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            Better::Lower => "lower",
            Better::Higher => "higher",
            Better::Unknown => "unknown",
        }
    }
}

impl Unit {
    /// The name used in machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "ns",
            Unit::PerSecond => "per_second",
            Unit::Count => "count",
            Unit::Fraction => "fraction",
        }
    }
}
