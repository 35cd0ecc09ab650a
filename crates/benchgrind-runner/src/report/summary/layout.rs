//! The summary's wire forms of a change of layout alone and of the spread of layouts (version
//! 6), to them from the results and back ([`crate::compare::layout`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::wire::{read_regressions, regression, WireRegression};
use crate::compare::layout::{LayoutOnly, Spread};
use crate::config::EventKind;
use crate::error::Problem;
use crate::problem;

/// The change from the old values is one of layout alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireLayoutOnly {
    /// How many functions executed the same counts in both runs.
    pub functions: usize,
    /// The metrics that moved, by name.
    pub moved: Vec<String>,
    /// The limits passed that did not fire (`--limit-layout` fires them).
    pub held: Vec<WireRegression>,
}

/// How far layout alone moves the benchmark's metrics (`--layout-spread`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireSpread {
    /// How many layouts the ranges cover, this run's among them.
    pub layouts: usize,
    /// Each metric that follows layout by name: its range.
    pub metrics: BTreeMap<String, WireRange>,
    /// The shifted runs left out, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// The shifts measured with the stack moved alone (with the heap moved too, the benchmark
    /// executed other code).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stack_only: Vec<usize>,
    /// The wall time of the shifted runs in seconds.
    pub seconds: f64,
}

/// A metric's smallest and largest value over the layouts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRange {
    /// The smallest.
    pub min: u64,
    /// The largest.
    pub max: u64,
    /// Whether the old value lies within the range (a change that layout alone could make);
    /// absent without an old value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_within: Option<bool>,
}

/// The wire form of a layout-only change.
pub(super) fn wire_layout_only(only: &LayoutOnly) -> WireLayoutOnly {
    WireLayoutOnly {
        functions: only.functions,
        moved: only.moved.iter().map(|k| k.name().to_owned()).collect(),
        held: (only.held.iter())
            .map(|r| regression(r.metric.name(), r.limit, r.new, r.old))
            .collect(),
    }
}

/// The wire form of a spread; `old` gives each metric's old value, if any.
pub(super) fn wire_spread(spread: &Spread, old: impl Fn(EventKind) -> Option<u64>) -> WireSpread {
    WireSpread {
        layouts: spread.layouts,
        metrics: (spread.ranges.iter())
            .map(|&(kind, min, max)| {
                let old_within = old(kind).map(|o| spread.within(kind, o));
                (
                    kind.name().to_owned(),
                    WireRange {
                        min,
                        max,
                        old_within,
                    },
                )
            })
            .collect(),
        left_out: spread.left_out.clone(),
        stack_only: spread.stack_only.clone(),
        seconds: spread.seconds,
    }
}

/// A metric of `id`'s summary by name.
fn metric(name: &str, id: &str) -> Result<EventKind, Problem> {
    EventKind::from_name(name)
        .ok_or_else(|| problem!("unknown metric `{name}` in the summary of {id}"))
}

impl WireLayoutOnly {
    /// The change this wire form describes, of the benchmark `id`.
    pub(super) fn to_layout_only(&self, id: &str) -> Result<LayoutOnly, Problem> {
        Ok(LayoutOnly {
            functions: self.functions,
            moved: (self.moved.iter())
                .map(|name| metric(name, id))
                .collect::<Result<_, _>>()?,
            held: read_regressions(&self.held, |name| metric(name, id))?,
        })
    }
}

impl WireSpread {
    /// The spread this wire form describes, of the benchmark `id`.
    pub(super) fn to_spread(&self, id: &str) -> Result<Spread, Problem> {
        let mut ranges = (self.metrics.iter())
            .map(|(name, r)| Ok((metric(name, id)?, r.min, r.max)))
            .collect::<Result<Vec<_>, Problem>>()?;
        ranges.sort_by_key(|(k, _, _)| EventKind::ALL.iter().position(|a| a == k));
        Ok(Spread {
            layouts: self.layouts,
            ranges,
            left_out: self.left_out.clone(),
            stack_only: self.stack_only.clone(),
            seconds: self.seconds,
        })
    }
}
