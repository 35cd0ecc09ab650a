//! `--format json`: everything the comparison holds, numbers in full precision, versioned.
//!
//! The wire types here are kept apart from the domain types of `diff` so that the format changes
//! only on purpose; its schema is `schemas/compare.v1.schema.json`. Times are nanoseconds,
//! changes fractions (0.1 = +10%), and values that are not finite (NaN counters) are `null`.

use std::io::{self, Write};

use serde::Serialize;

use super::Reporter;
use crate::compare::diff::Row;
use crate::compare::diff::{Change, Comparison, MetricDiff, SummaryOf};
use crate::compare::model::Kind;
use crate::compare::threshold::Violation;

/// The `format` field, so that readers can tell this file from other JSON.
pub const FORMAT_NAME: &str = "benchgrind-compare";
/// Bumped on any change a reader could notice.
pub const VERSION: u32 = 1;

/// The JSON report.
pub struct Json;

/// The report document.
#[derive(Serialize)]
struct WireReport<'a> {
    format: &'static str,
    version: u32,
    old: &'a str,
    new: &'a str,
    alpha: f64,
    benchmarks: Vec<WireBench<'a>>,
    geomean: Vec<WireMetric<'a>>,
    only_old: &'a [String],
    only_new: &'a [String],
    failures: Vec<WireFailure<'a>>,
    violations: Vec<WireViolation<'a>>,
    compare_py: Vec<WireDifference<'a>>,
}

/// Where compare.py's report of the same Google Benchmark files differs, and why.
#[derive(Serialize)]
struct WireDifference<'a> {
    name: &'a str,
    row: &'static str,
    /// The row's index among the rows of its name, for `pair`.
    index: Option<usize>,
    time: Option<f64>,
    cpu: Option<f64>,
    reason: &'a str,
}

/// One benchmark found on both sides.
#[derive(Serialize)]
struct WireBench<'a> {
    name: &'a str,
    label: &'a str,
    kind: &'static str,
    aggregate: Option<&'a str>,
    metrics: Vec<WireMetric<'a>>,
    metrics_only_old: &'a [String],
    metrics_only_new: &'a [String],
}

/// One metric of a benchmark, or of the geomean.
#[derive(Serialize)]
struct WireMetric<'a> {
    name: &'a str,
    unit: &'static str,
    better: &'static str,
    samples_old: usize,
    samples_new: usize,
    summary: &'static str,
    old: f64,
    new: f64,
    change: Option<f64>,
    u_test: Option<WireUTest>,
    repetitions: Vec<WireChange>,
}

/// A Mann-Whitney U test's result.
#[derive(Serialize)]
struct WireUTest {
    p_value: f64,
    significant: bool,
    reliable: bool,
    method: &'static str,
}

/// Old and new values and the change between them.
#[derive(Serialize)]
struct WireChange {
    old: f64,
    new: f64,
    change: Option<f64>,
}

/// A benchmark that failed on one side.
#[derive(Serialize)]
struct WireFailure<'a> {
    name: &'a str,
    side: &'static str,
    message: &'a str,
}

/// A result past `--fail-above`.
#[derive(Serialize)]
struct WireViolation<'a> {
    benchmark: &'a str,
    /// Absent for a benchmark that failed in new.
    metric: Option<&'a str>,
    change: Option<f64>,
    limit_percent: Option<f64>,
    failed: Option<&'a str>,
}

impl Reporter for Json {
    fn write(
        &self,
        cmp: &Comparison,
        violations: &[Violation],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let report = WireReport {
            format: FORMAT_NAME,
            version: VERSION,
            old: &cmp.old_label,
            new: &cmp.new_label,
            alpha: cmp.alpha,
            benchmarks: cmp
                .benchmarks
                .iter()
                .map(|b| WireBench {
                    name: &b.name,
                    label: &b.label,
                    kind: match b.kind {
                        Kind::Run => "run",
                        Kind::Aggregate { .. } => "aggregate",
                    },
                    aggregate: b.kind.stat(),
                    metrics: b.metrics.iter().map(metric).collect(),
                    metrics_only_old: &b.metrics_only_old,
                    metrics_only_new: &b.metrics_only_new,
                })
                .collect(),
            geomean: cmp.geomean.iter().map(metric).collect(),
            only_old: &cmp.only_old,
            only_new: &cmp.only_new,
            failures: cmp
                .failures
                .iter()
                .map(|f| WireFailure {
                    name: &f.name,
                    side: f.side.as_str(),
                    message: &f.message,
                })
                .collect(),
            violations: violations.iter().map(violation).collect(),
            compare_py: cmp
                .compare_py
                .iter()
                .map(|d| WireDifference {
                    name: &d.name,
                    row: d.row.as_str(),
                    index: match d.row {
                        Row::Pair(i) => Some(i),
                        _ => None,
                    },
                    time: d.time.filter(|v| v.is_finite()),
                    cpu: d.cpu.filter(|v| v.is_finite()),
                    reason: &d.reason,
                })
                .collect(),
        };
        serde_json::to_writer_pretty(&mut *out, &report).map_err(io::Error::from)?;
        writeln!(out)
    }
}

/// A metric's wire form.
fn metric(m: &MetricDiff) -> WireMetric<'_> {
    WireMetric {
        name: &m.name,
        unit: m.unit.as_str(),
        better: m.better.as_str(),
        samples_old: m.samples.0,
        samples_new: m.samples.1,
        summary: match m.summary_of {
            SummaryOf::Single => "single",
            SummaryOf::Median => "median",
            SummaryOf::Geomean => "geomean",
        },
        old: m.summary.old,
        new: m.summary.new,
        change: m.summary.change,
        u_test: m.utest.map(|u| WireUTest {
            p_value: u.p_value,
            significant: u.significant,
            reliable: u.reliable,
            method: u.method.as_str(),
        }),
        repetitions: m.repetitions.iter().map(change).collect(),
    }
}

/// A change's wire form.
fn change(c: &Change) -> WireChange {
    WireChange {
        old: c.old,
        new: c.new,
        change: c.change,
    }
}

/// A violation's wire form.
fn violation(v: &Violation) -> WireViolation<'_> {
    match v {
        Violation::Worse {
            benchmark,
            metric,
            change,
            limit,
        } => WireViolation {
            benchmark,
            metric: Some(metric),
            change: Some(*change),
            limit_percent: Some(*limit),
            failed: None,
        },
        Violation::Failed { benchmark, message } => WireViolation {
            benchmark,
            metric: None,
            change: None,
            limit_percent: None,
            failed: Some(message),
        },
    }
}
