//! The rates in the JSON summary (`rates`: `I1MissRate`, `L1HitRate`, ... in percent, with the
//! cache simulation), and numbers that are whole for counts and fractional for rates (a
//! regression's values): written as integers when whole, so that the counts read as before.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::compare::{change_f64, Change};
use crate::metrics::Metrics;

/// A rate's new and old value in percent and their relation. A rate's change is, as every
/// metric's, in percent of its old value (not in percentage points): a miss rate from 2% to 3%
/// is `+50%`, and a soft limit on a rate means the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRate {
    /// The new rate, in percent.
    pub new: f64,
    /// The old rate, absent without a previous run or baseline.
    pub old: Option<f64>,
    /// `(new - old) / old * 100`; absent without an old value or when it is zero.
    pub diff_pct: Option<f64>,
    /// The rise in percentage points, `new - old`; absent without an old value.
    pub diff_points: Option<f64>,
}

/// The rates of `new` by name, each with the old rate where `old` has it; empty without the
/// cache simulation.
pub(super) fn wire_rates(new: &Metrics, old: Option<&Metrics>) -> BTreeMap<String, WireRate> {
    new.rates()
        .into_iter()
        .map(|(kind, value)| {
            let old_value = old.and_then(|o| o.rate(kind));
            let diff_pct = match change_f64(value, old_value) {
                Change::NoOld => None,
                Change::Same => Some(0.0),
                Change::Diff { pct, .. } => Some(pct).filter(|p| p.is_finite()),
            };
            let rate = WireRate {
                new: value,
                old: old_value,
                diff_pct,
                diff_points: old_value.map(|o| value - o),
            };
            (kind.name().to_owned(), rate)
        })
        .collect()
}

/// Writes a whole number as an integer, any other as a float.
pub(super) fn write_number<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(value) {
        s.serialize_u64(*value as u64)
    } else {
        s.serialize_f64(*value)
    }
}

/// [`write_number`] of an optional number.
pub(super) fn write_option<S: Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => write_number(v, s),
        None => s.serialize_none(),
    }
}

/// Reads an optional number, integer or float.
pub(super) fn read_option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(d)
}
