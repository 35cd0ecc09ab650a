//! Stage 5 of the pipeline, derive: Callgrind event totals to the metrics users read.
//!
//! With the cache simulation on, hits per level follow from accesses and misses:
//! `L1 hits = Ir + Dr + Dw - (I1mr + D1mr + D1mw)`, `LL hits = L1 misses - LL misses`,
//! `RAM hits = LL misses`, and the estimate `cycles = L1 + 5 LL + 35 RAM`.

mod tools;

pub use tools::{
    add_children, describe_errors, dhat_second_ballast, read_metrics, Context, ToolMetrics,
};

use crate::config::EventKind;
use crate::parse::profile::Profile;

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

    /// Derives the report metrics from a profile: with the cache simulation, instructions, the
    /// hits per level, their total and the cycle estimate; without it, the counted events. Other
    /// counted events (branches, system calls) follow.
    pub fn from_profile(profile: &Profile) -> Metrics {
        Metrics::from_costs(&profile.events, &profile.totals())
    }

    /// [`Self::from_profile`] of one cost vector, in the order of `events`.
    pub fn from_costs(events: &[String], costs: &[u64]) -> Metrics {
        let get = |name: &str| {
            let i = events.iter().position(|e| e == name)?;
            Some(costs.get(i).copied().unwrap_or(0))
        };
        let mut values = Vec::new();
        let cache = [
            "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
        ]
        .map(get);
        if let [Some(ir), Some(dr), Some(dw), Some(i1), Some(d1r), Some(d1w), Some(il), Some(dlr), Some(dlw)] =
            cache
        {
            // Saturating: a damaged profile may hold any counts; a real one is far below 2^64.
            let sum = |a: u64, b: u64, c: u64| a.saturating_add(b).saturating_add(c);
            let accesses = sum(ir, dr, dw);
            let l1_misses = sum(i1, d1r, d1w);
            let ll_misses = sum(il, dlr, dlw);
            let l1 = accesses.saturating_sub(l1_misses);
            let ll = l1_misses.saturating_sub(ll_misses);
            let ram = ll_misses;
            values.extend([
                (EventKind::Ir, ir),
                (EventKind::L1hits, l1),
                (EventKind::LLhits, ll),
                (EventKind::RamHits, ram),
                (EventKind::TotalRW, sum(l1, ll, ram)),
                (
                    EventKind::EstimatedCycles,
                    sum(l1, ll.saturating_mul(5), ram.saturating_mul(35)),
                ),
            ]);
        } else if let Some(ir) = get("Ir") {
            values.push((EventKind::Ir, ir));
        }
        let cache_events = [
            "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
        ];
        for (name, total) in events.iter().zip(costs) {
            if cache_events.contains(&name.as_str()) {
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
