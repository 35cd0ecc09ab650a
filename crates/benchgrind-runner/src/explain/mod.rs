//! Why a benchmark's counts changed: exact per-function attribution between two Callgrind
//! profiles (the previous run or a baseline, and the new run).
//!
//! A stage after compare: [`explain`] reads both profiles ([`crate::parse::profile`], in full),
//! pairs their functions
//! and takes each one's self and inclusive cost per metric ([`diff`]), and ranks them by the
//! change of their self cost. Counts are exact, so the attribution is: the self-cost changes of
//! all functions add up to the change of the benchmark's total, event by event, and what a
//! report leaves out is one "other" line that keeps the sum.
//!
//! Reports, each one call: [`Explanation::write_terminal`], [`Explanation::to_markdown`] (or
//! [`markdown::render`] for several benchmarks: a pull-request comment) and
//! [`Explanation::to_wire`] (the JSON form, [`wire`]).

pub mod diff;
pub mod markdown;
mod model;
mod terminal;
pub mod wire;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::config::EventKind;

use crate::parse::profile::{self, Read};
use crate::parse::ParseError;
pub use model::{Change, Explanation, FunctionChange, LineChange, Status};

/// What to rank by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The metric whose self-cost change ranks the functions; `Ir` when `None` and the
    /// profiles have it, else their first common metric.
    pub metric: Option<EventKind>,
}

/// Why an explanation could not be made.
#[derive(Debug)]
pub enum Error {
    /// A profile could not be read; names the file and line.
    Parse(ParseError),
    /// The two profiles share no metric (e.g. different tools' event sets).
    NoCommonMetric {
        /// The old profile.
        old: PathBuf,
        /// The new profile.
        new: PathBuf,
    },
    /// The metric asked for is not in both profiles.
    MetricMissing {
        /// The metric asked for.
        metric: EventKind,
        /// The metrics both profiles have.
        available: Vec<EventKind>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => write!(f, "{e}"),
            Error::NoCommonMetric { old, new } => write!(
                f,
                "`{}` and `{}` have no metric in common: compare profiles of the same tool \
                 and event set",
                old.display(),
                new.display()
            ),
            Error::MetricMissing { metric, available } => {
                let names: Vec<_> = available.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "metric `{}` is not in both profiles; they have {}",
                    metric.name(),
                    names.join(", ")
                )
            }
        }
    }
}

/// The message of [`Error::Parse`] is the parse error's own (file:line: what), so it is not
/// repeated as a source.
impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        Error::Parse(e)
    }
}

/// Explains the change from `old` to `new`, two Callgrind out files.
pub fn explain(old: &Path, new: &Path, options: &Options) -> Result<Explanation, Error> {
    let old_profile = profile::parse_file(old, Read::Full)?;
    let new_profile = profile::parse_file(new, Read::Full)?;
    explain_profiles(&old_profile, &new_profile, options)
}

/// Explains the change between two parsed profiles.
pub fn explain_profiles(
    old: &profile::Profile,
    new: &profile::Profile,
    options: &Options,
) -> Result<Explanation, Error> {
    let metrics = diff::common_metrics(old, new);
    if metrics.is_empty() {
        return Err(Error::NoCommonMetric {
            old: old.path.clone(),
            new: new.path.clone(),
        });
    }
    let rank = match options.metric {
        Some(metric) => {
            metrics
                .iter()
                .position(|&k| k == metric)
                .ok_or_else(|| Error::MetricMissing {
                    metric,
                    available: metrics.clone(),
                })?
        }
        None => metrics
            .iter()
            .position(|&k| k == EventKind::Ir)
            .unwrap_or(0),
    };
    let total: Vec<Change> = diff::metric_values(&old.events, &old.totals(), &metrics)
        .into_iter()
        .zip(diff::metric_values(&new.events, &new.totals(), &metrics))
        .map(|(old, new)| Change { old, new })
        .collect();
    let (mut functions, unchanged) = diff::functions(old, new, &metrics);
    let unattributed = (0..metrics.len())
        .map(|k| {
            total[k].diff()
                - functions
                    .iter()
                    .map(|f| f.self_cost[k].diff())
                    .sum::<i128>()
        })
        .collect();
    for f in &mut functions {
        f.lines.sort_by(|a, b| {
            let key = |l: &LineChange| std::cmp::Reverse(l.self_cost[rank].diff().abs());
            key(a)
                .cmp(&key(b))
                .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
        });
    }
    // Among callers whose own cost stayed, the one nearest the change (the smallest inclusive
    // cost) comes first: `step` before `work` before `main`.
    functions.sort_by(|a, b| {
        let key = |f: &FunctionChange| {
            (
                std::cmp::Reverse(f.self_cost[rank].diff().abs()),
                std::cmp::Reverse(f.inclusive[rank].diff().abs()),
                f.inclusive[rank].new.max(f.inclusive[rank].old),
            )
        };
        key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
    });
    Ok(Explanation {
        old: old.path.clone(),
        new: new.path.clone(),
        metrics,
        rank,
        total,
        functions,
        unchanged,
        has_lines: old.has_lines && new.has_lines,
        unattributed,
    })
}

impl Explanation {
    /// The metric that ranks the functions.
    pub fn rank_metric(&self) -> EventKind {
        self.metrics[self.rank]
    }

    /// Per metric, the change of the total minus the self-cost changes of the first `top`
    /// functions: what an "other" line must show for the listed changes to add up.
    pub fn other(&self, top: usize) -> Vec<i128> {
        (0..self.metrics.len())
            .map(|k| {
                self.total[k].diff()
                    - self
                        .functions
                        .iter()
                        .take(top)
                        .map(|f| f.self_cost[k].diff())
                        .sum::<i128>()
            })
            .collect()
    }

    /// Whether the functions' self-cost changes add up to the total's change in every metric.
    pub fn adds_up(&self) -> bool {
        self.unattributed.iter().all(|&u| u == 0)
    }

    /// Whether any metric's total changed.
    pub fn changed(&self) -> bool {
        self.total.iter().any(|c| c.old != c.new)
    }
}

/// When a run explains a benchmark's change: `--explain=N|always|never`.
pub use crate::config::ExplainPolicy as Policy;

impl Policy {
    /// Whether to show `explanation` of a benchmark that did (`regressed`) or did not pass a
    /// regression limit.
    pub fn wants(self, explanation: &Explanation, regressed: bool) -> bool {
        let total = explanation.total[explanation.rank];
        match self {
            Policy::Never => false,
            Policy::Always => explanation.changed(),
            Policy::Above(_) if regressed => explanation.changed(),
            // From nothing: an infinite change.
            Policy::Above(_) if total.old == 0 => total.new != 0,
            Policy::Above(pct) => (total.diff().abs() as f64) * 100.0 / total.old as f64 > pct,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explanation(old: u64, new: u64) -> Explanation {
        let text = |n: u64| format!("events: Ir\nfn=f\n1 {n}\n");
        let parse =
            |t: String| profile::parse(Path::new("t.out"), t.as_bytes(), Read::Full).unwrap();
        explain_profiles(&parse(text(old)), &parse(text(new)), &Options::default()).unwrap()
    }

    #[test]
    fn the_policy_decides_by_percentage_or_regression() {
        assert_eq!(Policy::parse("2.5"), Ok(Policy::Above(2.5)));
        assert_eq!(Policy::parse("always"), Ok(Policy::Always));
        assert!(Policy::parse("-1").unwrap_err().contains("percentage"));
        let small = explanation(1000, 1010);
        let same = explanation(1000, 1000);
        for (policy, e, regressed, wanted) in [
            (Policy::Above(2.0), &small, false, false),
            (Policy::Above(0.5), &small, false, true),
            (Policy::Above(2.0), &small, true, true),
            (Policy::Always, &small, false, true),
            (Policy::Always, &same, false, false),
            (Policy::Never, &small, true, false),
            (Policy::Above(0.0), &same, true, false),
        ] {
            assert_eq!(policy.wants(e, regressed), wanted, "{policy:?} {regressed}");
        }
    }
}
