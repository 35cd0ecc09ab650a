//! Stage 3 of `benchgrind gbench`: every listed benchmark measured, one at a time, into exact
//! per-iteration counts; and those counts as a `compare` [`ResultSet`].
//!
//! With Google Benchmark 1.8 or newer each benchmark runs twice, with 1 and with 1+N iterations
//! (`--benchmark_min_time=<N>x`); the figure is the difference of the two loop counts divided by
//! N: the cost of one iteration, exactly, with the loop's fixed start and end cancelled out and
//! the cold first iteration in both runs. Older versions cannot be told an iteration count, so
//! the benchmark runs once with `--benchmark_min_time=0`, which makes Google Benchmark stop after
//! its first trial of one iteration; the figure is that loop's count divided by the iterations
//! it ran (1, unless the benchmark fixes its own with `Iterations(n)`), which includes the loop's
//! few instructions of counting and the cold caches of a first iteration. A benchmark that fails
//! (crash, reported error) is recorded with its reason and the next one runs.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use benchgrind_runner::config::EventKind;
use benchgrind_runner::metrics::Metrics;

use super::callgrind::{Iterations, LoopRun, RunInfo, Runner};
use super::discover;
use crate::compare::input::source::{self, Source};
use crate::compare::model::{Benchmark, Kind, Metric, ResultSet};

/// Iterations added to the second run when none are asked for: enough to average out a loop
/// whose cost varies a little between iterations, few enough to stay quick under Callgrind.
pub const DEFAULT_ITERATIONS: u64 = 10;

/// How the figures were obtained, the same for every benchmark of a binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// `(count(1+n) - count(1)) / n`, n being the field.
    Difference(u64),
    /// One run with `--benchmark_min_time=0`, divided by the iterations it ran.
    Single,
}

impl Counting {
    /// A few words for labels.
    pub fn short(self) -> String {
        match self {
            Counting::Difference(n) => format!("loop per iteration, (1+{n}) - 1 iterations"),
            Counting::Single => "loop of 1 iteration".to_string(),
        }
    }

    /// One line saying what is counted, for reports and the JSON context.
    pub fn describe(self) -> String {
        match self {
            Counting::Difference(n) => format!(
                "the benchmark loop, per iteration: (count of 1+{n} iterations - count of 1) / {n}"
            ),
            Counting::Single => "the benchmark loop of one run with --benchmark_min_time=0 \
                                 (1 iteration), per iteration, loop start and end included"
                .to_string(),
        }
    }
}

/// The counts of one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    /// Per-iteration values, in report order.
    pub values: Vec<(EventKind, f64)>,
    /// The iterations the values are averaged over.
    pub iterations: u64,
}

/// One benchmark's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Google Benchmark's name of it.
    pub name: String,
    /// The counts, or why there are none.
    pub outcome: Result<Counts, String>,
    /// What Google Benchmark said about the (last) run.
    pub info: RunInfo,
}

/// Every benchmark of one binary.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The binary as given.
    pub binary: PathBuf,
    /// How the figures were obtained.
    pub counting: Counting,
    /// In the binary's order.
    pub benchmarks: Vec<Measured>,
}

impl Measurement {
    /// The failed benchmarks.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &str)> {
        self.benchmarks.iter().filter_map(|b| {
            b.outcome
                .as_ref()
                .err()
                .map(|e| (b.name.as_str(), e.as_str()))
        })
    }
}

/// Measures the benchmarks of `binary` that `filter` selects; `iterations` is the user's N, which
/// needs Google Benchmark 1.8+. `progress` hears one line per benchmark.
pub fn measure(
    valgrind: &benchgrind_runner::execute::valgrind::Valgrind,
    binary: &Path,
    filter: Option<&str>,
    iterations: Option<u64>,
    progress: &mut dyn FnMut(&str),
) -> Result<Measurement> {
    check_binary(binary)?;
    // A bare name would be searched in PATH; the user meant the file they named.
    let absolute = std::path::absolute(binary).file_op("resolve", binary)?;
    let found = discover::discover(&absolute, filter)?;
    let counting = match (found.fixed_iterations, iterations) {
        (true, n) => Counting::Difference(n.unwrap_or(DEFAULT_ITERATIONS)),
        (false, None) => Counting::Single,
        (false, Some(_)) => bail!(
            "`--iterations` needs Google Benchmark 1.8 or newer (`--benchmark_min_time=<N>x`), \
             but `{}` refuses `--benchmark_min_time=1x`; without `--iterations` each benchmark \
             is measured over one iteration",
            binary.display()
        ),
    };
    let runner = Runner {
        valgrind: valgrind.clone(),
        binary: absolute,
    };
    let total = found.names.len();
    let mut benchmarks = Vec::with_capacity(total);
    for (i, name) in found.names.into_iter().enumerate() {
        progress(&format!("[{}/{total}] {name}", i + 1));
        let (outcome, info) = match measure_one(&runner, &name, counting) {
            Ok((counts, info)) => (Ok(counts), info),
            Err(e) => (Err(e.into()), RunInfo::default()),
        };
        benchmarks.push(Measured {
            name,
            outcome,
            info,
        });
    }
    Ok(Measurement {
        binary: binary.to_path_buf(),
        counting,
        benchmarks,
    })
}

/// Refuses, before running anything, what is not a Google Benchmark binary (the same test as
/// `compare` applies to its inputs).
fn check_binary(binary: &Path) -> Result<()> {
    std::fs::metadata(binary)
        .file_op("read", binary)
        .map_err(|e| anyhow::anyhow!("{e}; pass the path of a Google Benchmark binary"))?;
    match source::detect(binary, Path::new("."))? {
        Source::GbenchBinary(_) => Ok(()),
        Source::BenchBinary(_) => bail!(
            "`{}` is a benchgrind bench binary, which measures itself: run it (or `cargo \
             bench`); `benchgrind gbench` is for Google Benchmark binaries",
            binary.display()
        ),
        _ => bail!(
            "`{}` is not a program: `benchgrind gbench` runs a Google Benchmark binary (to \
             compare Google Benchmark JSON files, use `benchgrind compare`)",
            binary.display()
        ),
    }
}

fn measure_one(
    runner: &Runner,
    name: &str,
    counting: Counting,
) -> Result<(Counts, RunInfo), Problem> {
    match counting {
        Counting::Single => {
            let run = runner.run(name, Iterations::One)?;
            Ok((per_iteration(&run.metrics, None, run.iterations), run.info))
        }
        Counting::Difference(n) => {
            let low = runner.run(name, Iterations::Fixed(1))?;
            let high = runner.run(name, Iterations::Fixed(1 + n))?;
            Ok((difference(&low, &high, name)?, high.info))
        }
    }
}

/// `(high - low) / (its iterations - low's)`, or high alone per iteration when the benchmark
/// fixes its own iteration count and both runs ran the same number.
fn difference(low: &LoopRun, high: &LoopRun, name: &str) -> Result<Counts, Problem> {
    if high.iterations > low.iterations {
        let n = high.iterations - low.iterations;
        return Ok(per_iteration(&high.metrics, Some(&low.metrics), n));
    }
    if high.iterations == low.iterations {
        return Ok(per_iteration(&high.metrics, None, high.iterations));
    }
    Err(problem!(
        "`{name}` ran {} iterations when asked for more and {} when asked for 1",
        high.iterations,
        low.iterations
    ))
}

fn per_iteration(metrics: &Metrics, minus: Option<&Metrics>, iterations: u64) -> Counts {
    let divisor = iterations.max(1) as f64;
    let values = metrics
        .values
        .iter()
        .map(|&(kind, value)| {
            let base = minus.and_then(|m| m.get(kind)).unwrap_or(0);
            // f64: a difference of cache misses may come out negative; counts stay exact up to
            // 2^53, far past any loop.
            (kind, (value as f64 - base as f64) / divisor)
        })
        .collect();
    Counts { values, iterations }
}

/// The measurement as one side of a comparison: every metric, lower is better, Ir and the cycle
/// estimate in the overall geomean (as for benchgrind summaries); `first` is shown first. The
/// label is `label` and what was counted.
pub fn result_set(m: &Measurement, first: EventKind, label: &str) -> ResultSet {
    let benchmarks = m
        .benchmarks
        .iter()
        .map(|b| {
            let mut metrics: Vec<Metric> = match &b.outcome {
                Ok(counts) => counts
                    .values
                    .iter()
                    .map(|&(kind, value)| Metric::count(kind, value))
                    .collect(),
                Err(_) => Vec::new(),
            };
            if let Some(i) = metrics.iter().position(|x| x.name == first.name()) {
                let chosen = metrics.remove(i);
                metrics.insert(0, chosen);
            }
            Benchmark {
                name: b.name.clone(),
                kind: Kind::Run,
                metrics,
                error: b.outcome.as_ref().err().cloned(),
                entries: Vec::new(),
            }
        })
        .collect();
    ResultSet {
        label: format!("{label} [Callgrind: {}]", m.counting.short()),
        benchmarks,
        ..ResultSet::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ir: u64, misses: u64, iterations: u64) -> LoopRun {
        LoopRun {
            metrics: Metrics {
                values: vec![(EventKind::Ir, ir), (EventKind::D1mr, misses)],
            },
            iterations,
            info: RunInfo::default(),
        }
    }

    #[test]
    fn differences_are_per_iteration_and_may_be_fractional_or_negative() {
        let counts = difference(&run(120, 9, 1), &run(1120, 5, 11), "BM_a").unwrap();
        assert_eq!(counts.iterations, 10);
        assert_eq!(
            counts.values,
            [(EventKind::Ir, 100.0), (EventKind::D1mr, -0.4)]
        );
        // A benchmark with `Iterations(4)` in its code runs 4 both times.
        let fixed = difference(&run(400, 8, 4), &run(400, 8, 4), "BM_a").unwrap();
        assert_eq!(
            fixed.values,
            [(EventKind::Ir, 100.0), (EventKind::D1mr, 2.0)]
        );
        assert!(difference(&run(1, 1, 5), &run(1, 1, 2), "BM_a")
            .unwrap_err()
            .contains("`BM_a` ran 2 iterations"));
    }

    #[test]
    fn result_sets_put_the_chosen_metric_first_and_keep_failures() {
        let m = Measurement {
            binary: "./b".into(),
            counting: Counting::Single,
            benchmarks: vec![
                Measured {
                    name: "BM_ok".into(),
                    outcome: Ok(per_iteration(&run(7, 1, 1).metrics, None, 1)),
                    info: RunInfo::default(),
                },
                Measured {
                    name: "BM_bad".into(),
                    outcome: Err("it was killed by signal 11".into()),
                    info: RunInfo::default(),
                },
            ],
        };
        let set = result_set(&m, EventKind::D1mr, "./b");
        assert_eq!(set.label, "./b [Callgrind: loop of 1 iteration]");
        let names: Vec<_> = set.benchmarks[0].metrics.iter().map(|x| &x.name).collect();
        assert_eq!(names, ["D1mr", "Ir"]);
        assert!(set.benchmarks[0].metrics[1].geomean);
        assert_eq!(
            set.benchmarks[1].error.as_deref(),
            Some("it was killed by signal 11")
        );
        assert_eq!(m.failures().count(), 1);
    }
}
