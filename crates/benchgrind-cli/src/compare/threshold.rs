//! `--fail-above`: which changes are worse than the limits the user set.
//!
//! Limits are percentages. A bare limit applies to every metric whose better direction is known
//! (times, throughput); `METRIC=PCT` sets or overrides the limit of one metric, and is the only way
//! to check a user counter, whose direction the file does not say (then a change either way
//! counts). Checked: each benchmark's summary change and the overall geometric mean, never spread
//! aggregates (stddev, cv); a benchmark that failed on the new side only also counts. A summary's
//! perf metrics (`perf-<name>`: wall time and software counters, sampled) take only a limit that
//! names them: a bare limit is for what repeats, and perf's own verdict (an interval against a
//! margin, in the bench binary and `ab`) is where sampled times gate.

use anyhow::{bail, Result};

use super::diff::{Comparison, MetricDiff, Side, GEOMEAN_NAME};
use super::input::summary::PERF_PREFIX;
use super::model::{Better, Kind};

/// The limits, in percent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// For every metric with a known direction.
    pub all: Option<f64>,
    /// Per metric name; these win over `all`.
    pub per_metric: Vec<(String, f64)>,
}

/// Why the exit code is 3.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    /// A metric got worse by more than its limit.
    Worse {
        /// The benchmark (or the geomean line).
        benchmark: String,
        /// The metric.
        metric: String,
        /// The relative change (0.1 = +10%).
        change: f64,
        /// The limit in percent.
        limit: f64,
    },
    /// A benchmark that ran on the old side failed on the new one.
    Failed {
        /// The benchmark.
        benchmark: String,
        /// Its error message.
        message: String,
    },
}

impl Limits {
    /// Whether any limit is set.
    pub fn is_set(&self) -> bool {
        self.all.is_some() || !self.per_metric.is_empty()
    }

    /// Adds one `--fail-above` value: `PCT` or `METRIC=PCT`, with an optional `%`.
    pub fn add(&mut self, spec: &str) -> Result<()> {
        let (metric, pct) = match spec.rsplit_once('=') {
            Some((metric, pct)) if !metric.is_empty() => (Some(metric), pct),
            Some(_) => bail!("`--fail-above {spec}`: the metric name before `=` is empty"),
            None => (None, spec),
        };
        let pct_text = pct.trim().trim_end_matches('%');
        let Ok(value) = pct_text.parse::<f64>() else {
            bail!("`--fail-above {spec}`: `{pct}` is not a percentage (try `5` or `cpu=2.5`)");
        };
        if !value.is_finite() || value < 0.0 {
            bail!("`--fail-above {spec}`: the percentage must be zero or more");
        }
        match metric {
            Some(name) => {
                self.per_metric.retain(|(n, _)| n != name);
                self.per_metric.push((name.to_string(), value));
            }
            None => self.all = Some(value),
        }
        Ok(())
    }

    /// The limit for `metric`, if any.
    fn for_metric(&self, metric: &MetricDiff) -> Option<f64> {
        let named = self.per_metric.iter().find(|(n, _)| *n == metric.name);
        match (named, metric.better) {
            (Some((_, pct)), _) => Some(*pct),
            (None, Better::Unknown) => None,
            (None, _) if metric.name.starts_with(PERF_PREFIX) => None,
            (None, _) => self.all,
        }
    }
}

/// Every limit `cmp` breaks, in report order.
pub fn check(cmp: &Comparison, limits: &Limits) -> Vec<Violation> {
    if !limits.is_set() {
        return Vec::new();
    }
    let mut found = Vec::new();
    let checked = cmp
        .benchmarks
        .iter()
        .filter(|b| !matches!(b.kind, Kind::Aggregate { spread: true, .. }))
        .flat_map(|b| b.metrics.iter().map(move |m| (b.name.as_str(), m)))
        .chain(cmp.geomean.iter().map(|m| (GEOMEAN_NAME, m)));
    for (benchmark, metric) in checked {
        let (Some(limit), Some(change)) = (limits.for_metric(metric), metric.summary.change) else {
            continue;
        };
        let worse_by = match metric.better {
            Better::Lower => change,
            Better::Higher => -change,
            Better::Unknown => change.abs(),
        };
        if worse_by * 100.0 > limit {
            found.push(Violation::Worse {
                benchmark: benchmark.to_string(),
                metric: metric.name.clone(),
                change,
                limit,
            });
        }
    }
    for failure in &cmp.failures {
        let also_old = cmp
            .failures
            .iter()
            .any(|f| f.name == failure.name && f.side == Side::Old);
        if failure.side == Side::New && !also_old {
            found.push(Violation::Failed {
                benchmark: failure.name.clone(),
                message: failure.message.clone(),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::diff::{compare, Options};
    use crate::compare::model::{Benchmark, Metric, ResultSet, Unit};

    fn set(time: f64, throughput: f64, user: f64) -> ResultSet {
        with_perf(time, throughput, user, 100.0)
    }

    fn with_perf(time: f64, throughput: f64, user: f64, task_clock: f64) -> ResultSet {
        let metric = |name: &str, better, value| Metric {
            name: name.into(),
            unit: Unit::Count,
            better,
            samples: vec![value],
            geomean: false,
        };
        ResultSet {
            label: "x".into(),
            benchmarks: vec![Benchmark {
                name: "a".into(),
                kind: Kind::Run,
                metrics: vec![
                    metric("time", Better::Lower, time),
                    metric("bytes_per_second", Better::Higher, throughput),
                    metric("user", Better::Unknown, user),
                    metric("perf-task-clock", Better::Lower, task_clock),
                ],
                error: None,
                entries: Vec::new(),
            }],
            ..ResultSet::default()
        }
    }

    fn violations(new: ResultSet, specs: &[&str]) -> Vec<(String, f64)> {
        let mut limits = Limits::default();
        for s in specs {
            limits.add(s).unwrap();
        }
        let options = Options {
            alpha: 0.05,
            utest: true,
        };
        let cmp = compare(&set(100.0, 100.0, 100.0), &new, options);
        check(&cmp, &limits)
            .into_iter()
            .map(|v| match v {
                Violation::Worse { metric, limit, .. } => (metric, limit),
                Violation::Failed { benchmark, .. } => (benchmark, -1.0),
            })
            .collect()
    }

    #[test]
    fn limits_follow_the_better_direction() {
        let v = |new, specs: &[&str]| violations(new, specs);
        assert_eq!(v(set(110.0, 100.0, 100.0), &["5"]), [("time".into(), 5.0)]);
        assert!(v(set(102.0, 100.0, 100.0), &["5"]).is_empty());
        assert!(
            v(set(90.0, 100.0, 100.0), &["5"]).is_empty(),
            "faster is fine"
        );
        assert_eq!(
            v(set(100.0, 90.0, 100.0), &["5%"]),
            [("bytes_per_second".into(), 5.0)]
        );
        // Unknown direction: only when named, and then either way.
        assert!(v(set(100.0, 100.0, 80.0), &["5"]).is_empty());
        assert_eq!(
            v(set(100.0, 100.0, 80.0), &["5", "user=10"]),
            [("user".into(), 10.0)]
        );
        // A per-metric limit wins over the bare one.
        assert!(v(set(110.0, 100.0, 100.0), &["5", "time=20"]).is_empty());
        assert_eq!(
            v(set(110.0, 100.0, 100.0), &["time=0"]),
            [("time".into(), 0.0)]
        );
    }

    #[test]
    fn perf_metrics_take_only_a_limit_that_names_them() {
        let v = |new, specs: &[&str]| violations(new, specs);
        let slower = || with_perf(100.0, 100.0, 100.0, 150.0);
        assert!(v(slower(), &["5"]).is_empty());
        assert_eq!(
            v(slower(), &["5", "perf-task-clock=20"]),
            [("perf-task-clock".into(), 20.0)]
        );
        assert!(v(with_perf(100.0, 100.0, 100.0, 90.0), &["perf-task-clock=5"]).is_empty());
    }

    #[test]
    fn bad_specs_are_refused() {
        for bad in ["", "x", "=5", "time=", "-1", "cpu=nan"] {
            assert!(Limits::default().add(bad).is_err(), "{bad:?}");
        }
    }
}
