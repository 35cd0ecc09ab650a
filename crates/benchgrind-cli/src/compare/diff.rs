//! The comparison core: two [`ResultSet`]s in, a [`Comparison`] out. A pure function of its
//! inputs, whatever format they came from.
//!
//! Benchmarks are matched by name and kind: runs with runs, each aggregate with the aggregate of
//! the same name and statistic, the k-th of those with the k-th when a file holds several (as
//! Google Benchmark's own test files do). What one side has and the other lacks, and failed
//! benchmarks, are listed, not dropped. Per metric: the change of every repetition pair (paired by index), a summary change
//! (of the medians when a side has several samples), and the two-sided Mann-Whitney U test when
//! both sides have at least two samples. The overall line compares the geometric means of all the
//! samples of the geomean metrics (times) of the matched runs.

use std::collections::{HashMap, HashSet};

use super::model::{Benchmark, Better, Kind, Metric, ResultSet, Unit};
use super::stats::{self, UMethod};

/// Below this many repetitions on either side the U test is shown with a warning.
pub const RELIABLE_REPETITIONS: usize = 9;

/// The name of the overall geometric-mean line.
pub const GEOMEAN_NAME: &str = "OVERALL_GEOMEAN";

/// Settings of the comparison.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Significance level of the U test.
    pub alpha: f64,
    /// Whether to run the U test at all.
    pub utest: bool,
}

/// An old value, a new value and the relative change between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The old value.
    pub old: f64,
    /// The new value.
    pub new: f64,
    /// `(new - old) / |old|`, `None` when undefined.
    pub change: Option<f64>,
}

/// The U test of one metric of one benchmark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UTest {
    /// Two-sided p-value.
    pub p_value: f64,
    /// `p_value < alpha`.
    pub significant: bool,
    /// Both sides have at least [`RELIABLE_REPETITIONS`] samples.
    pub reliable: bool,
    /// How the p-value was computed.
    pub method: UMethod,
}

/// What a summary value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryOf {
    /// Both sides have one sample: the summary is that pair.
    Single,
    /// The medians of the samples.
    Median,
    /// The geometric means of the samples.
    Geomean,
}

/// One metric of one benchmark, old against new.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDiff {
    /// The metric's name.
    pub name: String,
    /// Its unit.
    pub unit: Unit,
    /// Which way is better.
    pub better: Better,
    /// How many samples each side has.
    pub samples: (usize, usize),
    /// Repetition pairs by index, as many as the shorter side has (empty for single samples).
    pub repetitions: Vec<Change>,
    /// The benchmark-level change, which thresholds check.
    pub summary: Change,
    /// What `summary` holds.
    pub summary_of: SummaryOf,
    /// The U test, when both sides have two samples or more.
    pub utest: Option<UTest>,
}

/// One benchmark present on both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchDiff {
    /// The matched name.
    pub name: String,
    /// The name as reports show it: the name, and for an aggregate whose name is also another
    /// benchmark's, which aggregate (`BM_x (aggregate)`, `BM_x (aggregate mean #1)`).
    pub label: String,
    /// Google Benchmark input: the ids of the file entries compared, old and new, one per
    /// sample.
    pub entries: (Vec<usize>, Vec<usize>),
    /// Run or aggregate (from the old side).
    pub kind: Kind,
    /// Metrics present on both sides.
    pub metrics: Vec<MetricDiff>,
    /// Metric names only the old side has.
    pub metrics_only_old: Vec<String>,
    /// Metric names only the new side has.
    pub metrics_only_new: Vec<String>,
}

/// Which side something belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first input.
    Old,
    /// The second input.
    New,
}

impl Side {
    /// `old` or `new`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }
}

/// A benchmark that failed on one side, so could not be compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The benchmark.
    pub name: String,
    /// Where it failed (if both, one entry each).
    pub side: Side,
    /// The benchmark's error message.
    pub message: String,
}

/// Everything the reports show and the thresholds check.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The old side's label.
    pub old_label: String,
    /// The new side's label.
    pub new_label: String,
    /// The significance level used.
    pub alpha: f64,
    /// Benchmarks on both sides that ran, in the old side's order.
    pub benchmarks: Vec<BenchDiff>,
    /// One entry per geomean metric (time, cpu), when there are samples to average.
    pub geomean: Vec<MetricDiff>,
    /// Benchmarks only the old side has (their labels).
    pub only_old: Vec<String>,
    /// Benchmarks only the new side has (their labels).
    pub only_new: Vec<String>,
    /// Benchmarks that failed on a side.
    pub failures: Vec<Failure>,
    /// Google Benchmark inputs: where compare.py's report of the same inputs differs, and why
    /// (filled in by [`super::compare_py::differences`]).
    pub compare_py: Vec<Difference>,
}

/// What a benchmark is matched by: its name, its statistic (aggregates), and which of the
/// benchmarks of that name and statistic on its side it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key<'a> {
    name: &'a str,
    stat: Option<&'a str>,
    occurrence: usize,
}

/// The keys of a side's benchmarks, in its order.
fn keys(set: &ResultSet) -> Vec<Key<'_>> {
    let mut seen: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    set.benchmarks
        .iter()
        .map(|b| {
            let count = seen.entry((b.name.as_str(), b.kind.stat())).or_insert(0);
            *count += 1;
            Key {
                name: &b.name,
                stat: b.kind.stat(),
                occurrence: *count - 1,
            }
        })
        .collect()
}

/// How reports name the benchmarks of both sides: the bare name, unless the name stands for more
/// than one benchmark on a side or across the sides; then aggregates say which, and the k-th of
/// several of a kind says `#k`.
struct Labels<'a> {
    /// Per name, its distinct statistics (`None` for runs) over both sides.
    stats: HashMap<&'a str, HashSet<Option<&'a str>>>,
    /// The (name, statistic) pairs that occur more than once on a side.
    several: HashSet<(&'a str, Option<&'a str>)>,
}

impl<'a> Labels<'a> {
    fn new(old: &[Key<'a>], new: &[Key<'a>]) -> Labels<'a> {
        let mut stats: HashMap<&str, HashSet<Option<&str>>> = HashMap::new();
        let mut several = HashSet::new();
        for k in old.iter().chain(new) {
            stats.entry(k.name).or_default().insert(k.stat);
            if k.occurrence > 0 {
                several.insert((k.name, k.stat));
            }
        }
        Labels { stats, several }
    }

    fn label(&self, key: &Key<'_>) -> String {
        let several = self.several.contains(&(key.name, key.stat));
        let shared = self.stats.get(key.name).is_some_and(|s| s.len() > 1);
        let mut parts = Vec::new();
        if let Some(stat) = key.stat {
            if shared || several {
                parts.push("aggregate".to_string());
                if stat != UNNAMED_AGGREGATE {
                    parts.push(stat.to_string());
                }
            }
        }
        if several {
            parts.push(format!("#{}", key.occurrence));
        }
        if parts.is_empty() {
            key.name.to_string()
        } else {
            format!("{} ({})", key.name, parts.join(" "))
        }
    }
}

/// The statistic of an aggregate whose input does not name it.
pub const UNNAMED_AGGREGATE: &str = "aggregate";

/// Compares `old` with `new`.
pub fn compare(old: &ResultSet, new: &ResultSet, options: Options) -> Comparison {
    let mut benchmarks = Vec::new();
    let mut failures = Vec::new();
    let mut geo: Vec<(Metric, Vec<f64>, Vec<f64>)> = Vec::new();
    let (old_keys, new_keys) = (keys(old), keys(new));
    let labels = Labels::new(&old_keys, &new_keys);
    // Lookups, not searches: a result file may hold many thousands of benchmarks.
    let old_index: HashSet<Key<'_>> = old_keys.iter().copied().collect();
    let new_index: HashSet<Key<'_>> = new_keys.iter().copied().collect();
    let new_by_key: HashMap<Key<'_>, &Benchmark> =
        new_keys.iter().copied().zip(&new.benchmarks).collect();
    for (key, o) in old_keys.iter().zip(&old.benchmarks) {
        let Some(&n) = new_by_key.get(key) else {
            continue;
        };
        let label = labels.label(key);
        let failed_old = o.error.as_ref().map(|e| (Side::Old, e));
        let failed_new = n.error.as_ref().map(|e| (Side::New, e));
        if failed_old.is_some() || failed_new.is_some() {
            failures.extend(
                failed_old
                    .into_iter()
                    .chain(failed_new)
                    .map(|(side, e)| Failure {
                        name: label.clone(),
                        side,
                        message: e.clone(),
                    }),
            );
            continue;
        }
        if o.kind == Kind::Run {
            collect_geomean(&mut geo, o, n);
        }
        let mut diff = diff_benchmark(o, n, options);
        diff.label = label;
        benchmarks.push(diff);
    }
    // A run that failed on one side has no aggregates there: its failure already says why.
    let failed: HashSet<&str> = failures.iter().map(|f| f.name.as_str()).collect();
    let explained = |b: &Benchmark| match &b.kind {
        Kind::Aggregate { run, .. } => failed.contains(run.as_str()),
        Kind::Run => false,
    };
    let unmatched = |keys: &[Key<'_>], side: &ResultSet, other: &HashSet<Key<'_>>| {
        keys.iter()
            .zip(&side.benchmarks)
            .filter(|(k, b)| !other.contains(*k) && !explained(b))
            .map(|(k, _)| labels.label(k))
            .collect::<Vec<String>>()
    };
    let only_old = unmatched(&old_keys, old, &new_index);
    let only_new = unmatched(&new_keys, new, &old_index);
    let geomean = geo
        .into_iter()
        .filter_map(|(m, olds, news)| {
            let summary = Change::of(stats::geomean(&olds)?, stats::geomean(&news)?);
            Some(MetricDiff {
                name: m.name,
                unit: m.unit,
                better: m.better,
                samples: (olds.len(), news.len()),
                repetitions: Vec::new(),
                summary,
                summary_of: SummaryOf::Geomean,
                utest: None,
            })
        })
        .collect();
    Comparison {
        old_label: old.label.clone(),
        new_label: new.label.clone(),
        alpha: options.alpha,
        benchmarks,
        geomean,
        only_old,
        only_new,
        failures,
        compare_py: Vec::new(),
    }
}

impl Change {
    /// The change from `old` to `new`.
    pub fn of(old: f64, new: f64) -> Change {
        Change {
            old,
            new,
            change: stats::relative_change(old, new),
        }
    }
}

/// The comparison of one benchmark found on both sides, metric by metric.
fn diff_benchmark(old: &Benchmark, new: &Benchmark, options: Options) -> BenchDiff {
    let find = |b: &'_ Benchmark, name: &str| b.metrics.iter().any(|m| m.name == name);
    let metrics = old
        .metrics
        .iter()
        .filter_map(|o| {
            let n = new.metrics.iter().find(|n| n.name == o.name)?;
            Some(diff_metric(o, n, options))
        })
        .collect();
    BenchDiff {
        name: old.name.clone(),
        label: old.name.clone(),
        entries: (old.entries.clone(), new.entries.clone()),
        kind: old.kind.clone(),
        metrics,
        metrics_only_old: names_missing(&old.metrics, |n| find(new, n)),
        metrics_only_new: names_missing(&new.metrics, |n| find(old, n)),
    }
}

/// The names of the metrics for which `present` is false.
fn names_missing(metrics: &[Metric], present: impl Fn(&str) -> bool) -> Vec<String> {
    metrics
        .iter()
        .filter(|m| !present(&m.name))
        .map(|m| m.name.clone())
        .collect()
}

/// The comparison of one metric: the summary change, the repetition pairs and the U test.
fn diff_metric(old: &Metric, new: &Metric, options: Options) -> MetricDiff {
    let (xs, ys) = (&old.samples, &new.samples);
    let single = xs.len() == 1 && ys.len() == 1;
    let repetitions = if single {
        Vec::new()
    } else {
        xs.iter().zip(ys).map(|(&o, &n)| Change::of(o, n)).collect()
    };
    let (summary, summary_of) = if single {
        (Change::of(xs[0], ys[0]), SummaryOf::Single)
    } else {
        let m = |v: &[f64]| stats::median(v).unwrap_or(f64::NAN);
        (Change::of(m(xs), m(ys)), SummaryOf::Median)
    };
    let utest = (options.utest && xs.len() >= 2 && ys.len() >= 2)
        .then(|| stats::mann_whitney_u(xs, ys))
        .flatten()
        .map(|r| UTest {
            p_value: r.p_value,
            significant: r.p_value < options.alpha,
            reliable: xs.len().min(ys.len()) >= RELIABLE_REPETITIONS,
            method: r.method,
        });
    MetricDiff {
        name: old.name.clone(),
        unit: old.unit,
        better: old.better,
        samples: (xs.len(), ys.len()),
        repetitions,
        summary,
        summary_of,
        utest,
    }
}

/// Adds a benchmark's geomean metrics (both sides' values) to `acc`, metric by metric.
fn collect_geomean(acc: &mut Vec<(Metric, Vec<f64>, Vec<f64>)>, old: &Benchmark, new: &Benchmark) {
    for o in old.metrics.iter().filter(|m| m.geomean) {
        let Some(n) = new.metrics.iter().find(|n| n.name == o.name) else {
            continue;
        };
        match acc.iter_mut().find(|(m, _, _)| m.name == o.name) {
            Some((_, olds, news)) => {
                olds.extend(&o.samples);
                news.extend(&n.samples);
            }
            None => acc.push((o.clone(), o.samples.clone(), n.samples.clone())),
        }
    }
}

/// Which row of compare.py's report a difference is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The i-th row of a name (its i-th pair of entries).
    Pair(usize),
    /// The name's U test row (`NAME_pvalue`).
    UTest,
    /// `OVERALL_GEOMEAN`.
    Geomean,
    /// A row of this comparison that compare.py's report does not have.
    Absent,
}

impl Row {
    /// The name used in machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            Row::Pair(_) => "pair",
            Row::UTest => "u_test",
            Row::Geomean => "geomean",
            Row::Absent => "absent",
        }
    }
}

/// One place where compare.py's report differs from this comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// compare.py's name for the row (for [`Row::Absent`], this comparison's label).
    pub name: String,
    /// Which row.
    pub row: Row,
    /// compare.py's numbers for the row: the time and CPU changes (fractions), or for a U test
    /// row the two p-values; `None` where compare.py shows nothing.
    pub time: Option<f64>,
    /// See `time`.
    pub cpu: Option<f64>,
    /// Why the two differ.
    pub reason: String,
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
