//! Stage 6, compare: whether a benchmark's change is one of layout alone. Code and data that
//! sit at other addresses (a function added elsewhere in the binary, a longer environment)
//! hit and miss other lines of the simulated caches, so the cache metrics move although the
//! benchmark executed exactly what it executed before. Such a change is *layout only*: it is
//! reported as such, and limits on the metrics that follow layout
//! ([`EventKind::follows_layout`]) do not fire on it unless asked ([`hold`]).
//!
//! "The same executed code" is decided on the two profiles' functions ([`Executed`]): the same
//! set of functions, and each one the same self cost in every event that counts what was
//! executed and not where (`Ir`, `Dr`, `Dw` and, when simulated, `Bc`, `Bi` and `Ge`) in both
//! profiles. A function is named by its demangled name (legacy hashes removed), whatever its
//! object or source file (`fl=`/`fi=` names, and the path of a binary built in another
//! checkout, do not matter); the functions Callgrind names by their address (no symbol) are
//! one, since their names move with the layout. Source lines are not compared: a benchmark
//! added above another moves the other's line numbers, not its code.
//!
//! [`Spread`] is what measuring again with shifted layouts found (`--layout-spread`,
//! [`crate::harness`]).

use std::collections::BTreeMap;

use crate::compare::regression::{Limit, Regression};
use crate::config::EventKind;
use crate::metrics::Metrics;
use crate::parse::names;
use crate::parse::profile::Profile;

/// The events that count what the code executed, independent of addresses.
pub const EXECUTED: [&str; 6] = ["Ir", "Dr", "Dw", "Bc", "Bi", "Ge"];

/// The key of the functions that Callgrind names by an address.
const UNNAMED: &str = "(functions without a symbol)";

/// What one profile says the benchmark executed: per function, its self cost in each of
/// `events`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executed {
    /// The events of [`EXECUTED`] compared, in that order.
    pub events: Vec<&'static str>,
    /// Function name to its self costs in `events`; functions that executed nothing are left
    /// out.
    pub functions: BTreeMap<String, Vec<u64>>,
}

impl Executed {
    /// The executed code of `profile` in `events` (those of both profiles compared); `None`
    /// when the profile was read without its functions or lacks one of the events.
    pub fn of(profile: &Profile, events: &[&'static str]) -> Option<Executed> {
        if profile.functions.is_empty() {
            return None;
        }
        let columns: Vec<usize> = (events.iter())
            .map(|e| profile.events.iter().position(|p| p == e))
            .collect::<Option<_>>()?;
        let mut functions: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for function in &profile.functions {
            let costs: Vec<u64> = (columns.iter())
                .map(|&c| function.self_cost.get(c).copied().unwrap_or(0))
                .collect();
            if costs.iter().all(|&c| c == 0) {
                continue;
            }
            let slot = functions
                .entry(key(&function.name))
                .or_insert_with(|| vec![0; costs.len()]);
            for (sum, c) in slot.iter_mut().zip(costs) {
                *sum = sum.saturating_add(c);
            }
        }
        Some(Executed {
            events: events.to_vec(),
            functions,
        })
    }
}

/// A function's name as the comparison knows it: demangled, one for every address.
fn key(name: &str) -> String {
    let name = names::demangle(name);
    let address = name
        .strip_prefix("0x")
        .is_some_and(|hex| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()));
    if address {
        UNNAMED.to_owned()
    } else {
        name
    }
}

/// The events of [`EXECUTED`] that both profiles count, `Ir` among them; empty when either
/// lacks `Ir`.
fn common_events(old: &Profile, new: &Profile) -> Vec<&'static str> {
    let has = |p: &Profile, e: &str| p.events.iter().any(|x| x == e);
    if !has(old, "Ir") || !has(new, "Ir") {
        return Vec::new();
    }
    EXECUTED
        .into_iter()
        .filter(|e| has(old, e) && has(new, e))
        .collect()
}

/// Whether the two profiles executed the same code (see the module documentation); `None` when
/// it cannot be told (a profile read without its functions, or without `Ir`).
pub fn same_code(old: &Profile, new: &Profile) -> Option<bool> {
    let events = common_events(old, new);
    if events.is_empty() {
        return None;
    }
    let (old, new) = (Executed::of(old, &events)?, Executed::of(new, &events)?);
    Some(old == new)
}

/// A change of layout alone, and the limits it passed that did not fire.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutOnly {
    /// How many functions executed the same counts in both runs.
    pub functions: usize,
    /// The metrics that moved (those that follow layout; the others did not).
    pub moved: Vec<EventKind>,
    /// The limits it passed that were held back (`--limit-layout` fires them).
    pub held: Vec<Regression>,
}

/// Whether the change from `old` to `new` (profiles and their metrics) is one of layout alone:
/// the same executed code and a metric that moved. `None` when it is not, or cannot be told.
pub fn layout_only(
    old: &Profile,
    new: &Profile,
    old_metrics: &Metrics,
    new_metrics: &Metrics,
) -> Option<LayoutOnly> {
    let changed = |k: EventKind, v: u64| old_metrics.get(k).is_some_and(|o| o != v);
    let moved: Vec<EventKind> = (new_metrics.values.iter())
        .filter(|&&(k, v)| k.follows_layout() && changed(k, v))
        .map(|(k, _)| *k)
        .collect();
    // The executed counts' totals too, whatever the functions say.
    let executed_moved =
        (new_metrics.values.iter()).any(|&(k, v)| EXECUTED.contains(&k.name()) && changed(k, v));
    if moved.is_empty() || executed_moved {
        return None;
    }
    if same_code(old, new) != Some(true) {
        return None;
    }
    let events = common_events(old, new);
    let functions = Executed::of(new, &events).map_or(0, |e| e.functions.len());
    Some(LayoutOnly {
        functions,
        moved,
        held: Vec::new(),
    })
}

/// Of the limits a layout-only change passed, those that fire (returned) and those held back
/// (into `only.held`): a relative limit on a metric that follows layout is held, and so is a
/// cap on one that the old value was within (the layout alone took it past).
pub fn hold(passed: Vec<Regression>, only: &mut LayoutOnly) -> Vec<Regression> {
    let (held, fired): (Vec<Regression>, Vec<Regression>) = passed.into_iter().partition(|r| {
        r.metric.follows_layout()
            && match r.limit {
                Limit::Relative { .. } => true,
                Limit::Absolute { cap } => r.old.is_some_and(|old| old <= cap),
            }
    });
    only.held = held;
    fired
}

/// How far layout alone moves a benchmark's metrics: the range of each metric that follows
/// layout over this run and the runs with shifted layouts that executed the same code.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    /// How many layouts the ranges cover (this run's among them).
    pub layouts: usize,
    /// Each metric that follows layout: its smallest and largest value.
    pub ranges: Vec<(EventKind, u64, u64)>,
    /// The shifted runs left out, and why (their executed code differed, or they failed).
    pub left_out: Vec<String>,
    /// The shifts measured with the stack moved alone: with the heap moved too, the benchmark
    /// executed other code.
    pub stack_only: Vec<usize>,
    /// The wall time of the shifted runs, in seconds.
    pub seconds: f64,
}

impl Spread {
    /// The ranges of `runs` (this run's metrics first) in the metrics that follow layout.
    pub fn of(runs: &[Metrics], left_out: Vec<String>, seconds: f64) -> Spread {
        let ranges = runs.first().map_or_else(Vec::new, |first| {
            (first.values.iter())
                .filter(|(k, _)| k.follows_layout())
                .map(|&(k, v)| {
                    let values = runs.iter().filter_map(|m| m.get(k));
                    let (min, max) = values.fold((v, v), |(a, b), x| (a.min(x), b.max(x)));
                    (k, min, max)
                })
                .collect()
        });
        Spread {
            layouts: runs.len(),
            ranges,
            left_out,
            stack_only: Vec::new(),
            seconds,
        }
    }

    /// The range of `kind`, if the spread has it.
    pub fn range(&self, kind: EventKind) -> Option<(u64, u64)> {
        (self.ranges.iter())
            .find(|(k, _, _)| *k == kind)
            .map(|&(_, min, max)| (min, max))
    }

    /// Whether the old value of `kind` lies within the spread of the new: a change of it that
    /// layout alone could have made.
    pub fn within(&self, kind: EventKind, old: u64) -> bool {
        self.range(kind)
            .is_some_and(|(min, max)| (min..=max).contains(&old))
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
