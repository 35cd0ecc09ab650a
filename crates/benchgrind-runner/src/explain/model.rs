//! What an explanation is made of: the changes of functions and lines between two profiles.
//! The model the attribution ([`super::diff`]) fills and the reports read; it imports nothing
//! else of `explain`.

use std::path::PathBuf;

use crate::config::EventKind;

/// An old and a new value of one metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The old value.
    pub old: u64,
    /// The new value.
    pub new: u64,
}

impl Change {
    /// `new - old`.
    pub fn diff(&self) -> i128 {
        i128::from(self.new) - i128::from(self.old)
    }
}

/// Whether a function is in both profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// In both; its cost changed.
    Changed,
    /// Only in the new profile (e.g. no longer inlined).
    New,
    /// Only in the old profile (e.g. inlined away).
    Gone,
}

/// One function's change, per metric in [`Explanation::metrics`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionChange {
    /// The full name: demangled, without hash, generics kept.
    pub name: String,
    /// The name shortened for display ([`crate::parse::names::shorten`]).
    pub short: String,
    /// The source file, when the profile has it.
    pub file: Option<String>,
    /// The object (binary or library), when the profile has it.
    pub object: Option<String>,
    /// In both profiles, or one only.
    pub status: Status,
    /// Self cost per metric.
    pub self_cost: Vec<Change>,
    /// Inclusive cost per metric.
    pub inclusive: Vec<Change>,
    /// The function's source lines whose self cost changed, ranked like the functions. Empty
    /// without line information.
    pub lines: Vec<LineChange>,
}

impl FunctionChange {
    pub(super) fn is_unchanged(&self) -> bool {
        self.status == Status::Changed
            && self
                .self_cost
                .iter()
                .chain(&self.inclusive)
                .all(|c| c.old == c.new)
    }
}

/// One source line's self-cost change, per metric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineChange {
    /// The source file (of inlined code, the file it was inlined from).
    pub file: String,
    /// The line, 1-based.
    pub line: u64,
    /// Self cost per metric.
    pub self_cost: Vec<Change>,
}

/// The attribution of one benchmark's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The old profile.
    pub old: PathBuf,
    /// The new profile.
    pub new: PathBuf,
    /// The metrics both profiles have, in report order.
    pub metrics: Vec<EventKind>,
    /// The index in `metrics` of the metric that ranks.
    pub rank: usize,
    /// The benchmark's totals per metric, from the profiles' `totals:` lines.
    pub total: Vec<Change>,
    /// Every function whose cost changed, by decreasing |self-cost change| of the ranking
    /// metric, then |inclusive change|, then increasing inclusive cost.
    pub functions: Vec<FunctionChange>,
    /// How many functions are in both profiles with the same costs.
    pub unchanged: usize,
    /// Whether both profiles have source lines.
    pub has_lines: bool,
    /// Per metric, the total's change minus the sum of all functions' self-cost changes: zero
    /// unless a profile's `totals:` line disagrees with its cost lines.
    pub unattributed: Vec<i128>,
}
