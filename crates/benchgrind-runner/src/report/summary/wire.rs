//! The wire forms the summary shares between a benchmark and its other tools: a metric's
//! values, a limit passed, a tool's result; to them from the results and back.

use crate::error::Problem;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::rates;
use crate::compare::regression::{Limit, Regression};
use crate::compare::{change, Change};

/// One other tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTool {
    /// `ok`, `regressed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Each metric by name (`TotalBytes`, `Errors`, ...; Cachegrind's as Callgrind's, `Ir`, ...).
    pub metrics: BTreeMap<String, Metric>,
    /// The limits passed.
    pub regressions: Vec<WireRegression>,
    /// The tool's output file, if it writes one besides the log.
    pub out: Option<String>,
    /// The tool's log.
    pub log: String,
}

/// A metric's new and old value and their relation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// The new value.
    pub new: u64,
    /// The old value, absent without a previous run or baseline.
    pub old: Option<u64>,
    /// `(new - old) / old * 100`; absent without an old value or when it is zero.
    pub diff_pct: Option<f64>,
    /// `new / old` when it grew, `-(old / new)` when it shrank, `1` when equal; absent without
    /// an old value or when either is zero.
    pub factor: Option<f64>,
}

/// A limit that was passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRegression {
    /// The metric's name.
    pub metric: String,
    /// `relative` (a percentage of the old value) or `absolute` (a cap).
    pub kind: String,
    /// The limit: percent for `relative`, a count (or a rate) for `absolute`.
    pub limit: f64,
    /// The new value: a count (an integer), or a rate in percent.
    #[serde(serialize_with = "rates::write_number")]
    pub new: f64,
    /// The old value.
    #[serde(
        serialize_with = "rates::write_option",
        deserialize_with = "rates::read_option"
    )]
    pub old: Option<f64>,
    /// The change in percent (for `relative`).
    pub diff_pct: Option<f64>,
}

/// A metric's wire form.
pub(super) fn metric(value: u64, old_value: Option<u64>) -> Metric {
    let (diff_pct, factor) = match change(value, old_value) {
        Change::NoOld => (None, None),
        Change::Same => (Some(0.0), Some(1.0)),
        Change::Diff { pct, factor } => (
            Some(pct).filter(|p| p.is_finite()),
            Some(factor).filter(|f| f.is_finite()),
        ),
    };
    Metric {
        new: value,
        old: old_value,
        diff_pct,
        factor,
    }
}

/// A limit's wire form.
pub(super) fn regression(metric: &str, limit: Limit, new: f64, old: Option<f64>) -> WireRegression {
    let (kind, limit, diff_pct) = match limit {
        Limit::Relative {
            limit_pct,
            diff_pct,
        } => (
            "relative",
            limit_pct,
            Some(diff_pct).filter(|d| d.is_finite()),
        ),
        Limit::Absolute { cap } => ("absolute", cap, None),
    };
    WireRegression {
        metric: metric.to_owned(),
        kind: kind.to_owned(),
        limit,
        new,
        old,
        diff_pct,
    }
}

/// Each metric of `new` by name, with the old value where `old` has it.
/// (The cache simulation's own counts, `Dr` and the misses, are left out as before; its rates
/// are in [`Summary::rates`].)
pub(super) fn wire_metrics(
    new: &crate::metrics::Metrics,
    old: Option<&crate::metrics::Metrics>,
) -> BTreeMap<String, Metric> {
    new.shown_by_default()
        .map(|(kind, value)| {
            let old_value = old.and_then(|o| o.get(kind));
            (kind.name().to_owned(), metric(value, old_value))
        })
        .collect()
}

impl WireRegression {
    /// The limit this wire form describes.
    fn limit(&self) -> Limit {
        match &self.kind[..] {
            "absolute" => Limit::Absolute { cap: self.limit },
            _ => Limit::Relative {
                limit_pct: self.limit,
                diff_pct: self.diff_pct.unwrap_or(f64::INFINITY),
            },
        }
    }
}

/// New and old values of the metrics of a summary, by `metric`'s reading of their names.
pub(super) type Values<M> = (Vec<(M, u64)>, Vec<(M, u64)>);

/// The new and old values of wire metrics.
pub(super) fn read_values<M: Copy>(
    metrics: &BTreeMap<String, Metric>,
    metric: impl Fn(&str) -> Result<M, Problem>,
) -> Result<Values<M>, Problem> {
    let mut new = Vec::new();
    let mut old = Vec::new();
    for (name, m) in metrics {
        let kind = metric(name)?;
        new.push((kind, m.new));
        if let Some(o) = m.old {
            old.push((kind, o));
        }
    }
    Ok((new, old))
}

/// The regressions of wire regressions, of Callgrind or another tool.
pub(super) fn read_regressions<M>(
    wire: &[WireRegression],
    metric: impl Fn(&str) -> Result<M, Problem>,
) -> Result<Vec<Regression<M>>, Problem> {
    wire.iter()
        .map(|r| {
            Ok(Regression {
                metric: metric(&r.metric)?,
                new: r.new,
                old: r.old,
                limit: r.limit(),
            })
        })
        .collect()
}
