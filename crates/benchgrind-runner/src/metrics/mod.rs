//! Stage 5 of the pipeline, derive: Callgrind event totals to the metrics users read.
//!
//! With the cache simulation on, hits per level follow from accesses and misses:
//! `L1 hits = Ir + Dr + Dw - (I1mr + D1mr + D1mw)`, `LL hits = L1 misses - LL misses`,
//! `RAM hits = LL misses`, and the estimate `cycles = L1 + 5 LL + 35 RAM`. The counts
//! themselves (`Dr`, `Dw`, the misses) are kept too, after those, and the eight rates are
//! computed from them on demand ([`Metrics::rate`]), in percent:
//!
//! - `I1MissRate = I1mr / Ir`, `LLiMissRate = ILmr / Ir`;
//! - `D1MissRate = (D1mr + D1mw) / (Dr + Dw)`, `LLdMissRate = (DLmr + DLmw) / (Dr + Dw)`;
//! - `LLMissRate = (ILmr + DLmr + DLmw) / (Ir + Dr + Dw)`;
//! - `L1HitRate`, `LLHitRate`, `RamHitRate`: `L1hits`, `LLhits`, `RamHits` over `TotalRW`;
//!
//! each times 100, and 0 when nothing was accessed.

mod tools;

pub use tools::{
    add_children, describe_errors, dhat_second_ballast, read_metrics, Context, ToolMetrics,
};

use crate::config::EventKind;
use crate::parse::profile::Profile;

/// The cache simulation's events, in Callgrind's spelling and [`EventKind::ALL`]'s order.
pub(crate) const CACHE_EVENTS: [&str; 9] = [
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
];

/// The metrics derived from the cache simulation's counts, in report order after `Ir`.
pub(crate) const DERIVED: [EventKind; 5] = [
    EventKind::L1hits,
    EventKind::LLhits,
    EventKind::RamHits,
    EventKind::TotalRW,
    EventKind::EstimatedCycles,
];

/// A metric derived from the nine counts of [`CACHE_EVENTS`] (in that order): the hits per
/// level, their total and the cycle estimate; `None` for any other metric.
pub(crate) fn derived(kind: EventKind, counts: [u64; 9]) -> Option<u64> {
    let [ir, dr, dw, i1, d1r, d1w, il, dlr, dlw] = counts;
    // Saturating: a damaged profile may hold any counts; a real one is far below 2^64.
    let sum = |a: u64, b: u64, c: u64| a.saturating_add(b).saturating_add(c);
    let l1_misses = sum(i1, d1r, d1w);
    let ll_misses = sum(il, dlr, dlw);
    let l1 = sum(ir, dr, dw).saturating_sub(l1_misses);
    let ll = l1_misses.saturating_sub(ll_misses);
    let ram = ll_misses;
    Some(match kind {
        EventKind::L1hits => l1,
        EventKind::LLhits => ll,
        EventKind::RamHits => ram,
        EventKind::TotalRW => sum(l1, ll, ram),
        EventKind::EstimatedCycles => sum(l1, ll.saturating_mul(5), ram.saturating_mul(35)),
        _ => return None,
    })
}

/// The metrics of one run, in report order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    /// `(metric, value)` in the order they are shown.
    pub values: Vec<(EventKind, u64)>,
}

impl Metrics {
    /// The value of one metric, if this run has it.
    pub fn get(&self, kind: EventKind) -> Option<u64> {
        self.values
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, v)| *v)
    }

    /// A metric's value as a number: a count, or a rate in percent ([`Self::rate`]).
    pub fn number(&self, kind: EventKind) -> Option<f64> {
        if kind.is_rate() {
            self.rate(kind)
        } else {
            self.get(kind).map(|v| v as f64)
        }
    }

    /// One of the eight rates in percent, when the cache simulation's counts are there.
    pub fn rate(&self, kind: EventKind) -> Option<f64> {
        let pct = |part: u64, whole: u64| {
            if whole == 0 {
                0.0
            } else {
                part as f64 / whole as f64 * 100.0
            }
        };
        let g = |k| self.get(k);
        let (ir, dr, dw) = (g(EventKind::Ir)?, g(EventKind::Dr)?, g(EventKind::Dw)?);
        let data = dr.saturating_add(dw);
        let total = ir.saturating_add(data);
        Some(match kind {
            EventKind::I1MissRate => pct(g(EventKind::I1mr)?, ir),
            EventKind::LLiMissRate => pct(g(EventKind::ILmr)?, ir),
            EventKind::D1MissRate => pct(
                g(EventKind::D1mr)?.saturating_add(g(EventKind::D1mw)?),
                data,
            ),
            EventKind::LLdMissRate => pct(
                g(EventKind::DLmr)?.saturating_add(g(EventKind::DLmw)?),
                data,
            ),
            EventKind::LLMissRate => {
                let ll = [EventKind::ILmr, EventKind::DLmr, EventKind::DLmw];
                let mut misses = 0u64;
                for k in ll {
                    misses = misses.saturating_add(g(k)?);
                }
                pct(misses, total)
            }
            EventKind::L1HitRate => pct(g(EventKind::L1hits)?, g(EventKind::TotalRW)?),
            EventKind::LLHitRate => pct(g(EventKind::LLhits)?, g(EventKind::TotalRW)?),
            EventKind::RamHitRate => pct(g(EventKind::RamHits)?, g(EventKind::TotalRW)?),
            _ => return None,
        })
    }

    /// The rates this run has (all eight with the cache simulation, else none), in order.
    pub fn rates(&self) -> Vec<(EventKind, f64)> {
        EventKind::RATES
            .into_iter()
            .filter_map(|k| Some((k, self.rate(k)?)))
            .collect()
    }

    /// The metrics the report shows unless told otherwise: all but the cache simulation's own
    /// counts (`Dr`, `Dw` and the misses), which are there for the rates and for a format or a
    /// limit that names them.
    pub fn shown_by_default(&self) -> impl Iterator<Item = (EventKind, u64)> + '_ {
        self.values
            .iter()
            .copied()
            .filter(|(k, _)| *k == EventKind::Ir || !CACHE_EVENTS.contains(&k.name()))
    }

    /// Derives the report metrics from a profile: with the cache simulation, instructions, the
    /// hits per level, their total and the cycle estimate; without it, the counted events. Other
    /// counted events (branches, system calls) follow.
    pub fn from_profile(profile: &Profile) -> Metrics {
        Metrics::from_costs(&profile.events, &profile.totals())
    }

    /// [`Self::from_profile`] of one cost vector, in the order of `events`.
    ///
    /// The derived metrics come from `derived`, also used where the attribution reads them
    /// off each function's costs.
    pub fn from_costs(events: &[String], costs: &[u64]) -> Metrics {
        let get = |name: &str| {
            let i = events.iter().position(|e| e == name)?;
            Some(costs.get(i).copied().unwrap_or(0))
        };
        let mut values = Vec::new();
        let cache = CACHE_EVENTS.map(get);
        if let [Some(ir), Some(dr), Some(dw), Some(i1), Some(d1r), Some(d1w), Some(il), Some(dlr), Some(dlw)] =
            cache
        {
            let counts = [ir, dr, dw, i1, d1r, d1w, il, dlr, dlw];
            values.push((EventKind::Ir, ir));
            values.extend(
                DERIVED
                    .iter()
                    .map(|&k| (k, derived(k, counts).unwrap_or(0))),
            );
            // The counts, for the rates and for formats and limits that name them.
            values.extend(
                EventKind::ALL[6..14]
                    .iter()
                    .zip(&cache[1..])
                    .filter_map(|(k, v)| Some((*k, (*v)?))),
            );
        } else if let Some(ir) = get("Ir") {
            values.push((EventKind::Ir, ir));
        }
        for (name, total) in events.iter().zip(costs) {
            if CACHE_EVENTS.contains(&name.as_str()) {
                continue;
            }
            if let Some(kind) = EventKind::from_callgrind(name) {
                values.push((kind, *total));
            }
        }
        Metrics { values }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(events: &str, totals: &[u64]) -> Profile {
        let counts: Vec<String> = totals.iter().map(u64::to_string).collect();
        let text = format!("events: {events}\ntotals: {}\n", counts.join(" "));
        crate::parse::profile::parse(
            std::path::Path::new("t.out"),
            text.as_bytes(),
            crate::parse::profile::Read::Totals,
        )
        .unwrap()
    }

    #[test]
    fn derives_hits_and_cycles_from_misses() {
        // The fib(10) totals of a real run: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
        let m = Metrics::from_profile(&profile(
            "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw",
            &[1735, 270, 359, 2, 0, 6, 2, 0, 6],
        ));
        let ram = 8;
        let ll = 0;
        let l1 = 1735 + 270 + 359 - 8;
        assert_eq!(m.get(EventKind::Ir), Some(1735));
        assert_eq!(m.get(EventKind::L1hits), Some(l1));
        assert_eq!(m.get(EventKind::LLhits), Some(ll));
        assert_eq!(m.get(EventKind::RamHits), Some(ram));
        assert_eq!(m.get(EventKind::TotalRW), Some(l1 + ll + ram));
        assert_eq!(
            m.get(EventKind::EstimatedCycles),
            Some(l1 + 5 * ll + 35 * ram)
        );
    }

    #[test]
    fn rates_in_percent_from_the_counts() {
        let m = Metrics::from_profile(&profile(
            "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw",
            &[1000, 300, 100, 10, 20, 4, 5, 2, 1],
        ));
        let r = |k| m.rate(k).unwrap();
        assert_eq!(r(EventKind::I1MissRate), 1.0);
        assert_eq!(r(EventKind::LLiMissRate), 0.5);
        assert_eq!(r(EventKind::D1MissRate), 6.0);
        assert_eq!(r(EventKind::LLdMissRate), 0.75);
        assert_eq!(r(EventKind::LLMissRate), 8.0 / 1400.0 * 100.0);
        let hits = r(EventKind::L1HitRate) + r(EventKind::LLHitRate) + r(EventKind::RamHitRate);
        assert!((hits - 100.0).abs() < 1e-9, "{hits}");
        assert_eq!(r(EventKind::RamHitRate), 8.0 / 1400.0 * 100.0);
        assert_eq!(m.rates().len(), 8);
        let shown: Vec<_> = m.shown_by_default().map(|(k, _)| k).collect();
        assert_eq!(shown, EventKind::ALL[..6]);
        assert_eq!(m.get(EventKind::D1mw), Some(4));
        let none = Metrics::from_profile(&profile("Ir", &[10]));
        assert!(none.rates().is_empty());
    }

    #[test]
    fn without_cache_simulation_only_counted_events_are_shown() {
        let m = Metrics::from_profile(&profile("Ir Bc Bcm", &[10, 3, 1]));
        let kinds: Vec<_> = m.values.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, [EventKind::Ir, EventKind::Bc, EventKind::Bcm]);
    }

    // Found by fuzzing (fuzz/fuzz_targets/callgrind_profile.rs): the derived metrics of counts
    // near 2^64 overflowed; a damaged profile's metrics saturate instead.
    #[test]
    fn counts_near_two_to_the_64_saturate() {
        let max = u64::MAX;
        let m = Metrics::from_profile(&profile(
            "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw",
            &[max, max, max, max, 1, 0, 0, 0, max],
        ));
        assert_eq!(m.get(EventKind::Ir), Some(max));
        assert_eq!(m.get(EventKind::RamHits), Some(max));
        assert_eq!(m.get(EventKind::TotalRW), Some(max));
        assert_eq!(m.get(EventKind::EstimatedCycles), Some(max));
    }
}
