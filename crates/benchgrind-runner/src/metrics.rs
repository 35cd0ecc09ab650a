//! Stage 5 of the pipeline, derive: Callgrind event totals to the metrics users read.
//!
//! With the cache simulation on, hits per level follow from accesses and misses:
//! `L1 hits = Ir + Dr + Dw - (I1mr + D1mr + D1mw)`, `LL hits = L1 misses - LL misses`,
//! `RAM hits = LL misses`, and the estimate `cycles = L1 + 5 LL + 35 RAM`.

use crate::parse::callgrind::Profile;

/// A metric: a Callgrind event or a value derived from events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EventKind {
    /// Instructions executed.
    Ir,
    /// Data reads.
    Dr,
    /// Data writes.
    Dw,
    /// L1 instruction cache misses.
    I1mr,
    /// L1 data cache read misses.
    D1mr,
    /// L1 data cache write misses.
    D1mw,
    /// Last-level instruction cache misses.
    ILmr,
    /// Last-level data cache read misses.
    DLmr,
    /// Last-level data cache write misses.
    DLmw,
    /// Accesses served by L1 (derived).
    L1hits,
    /// Accesses served by the last-level cache (derived).
    LLhits,
    /// Accesses served by memory (derived).
    RamHits,
    /// All accesses: `L1hits + LLhits + RamHits` (derived).
    TotalRW,
    /// `L1hits + 5 LLhits + 35 RamHits` (derived).
    EstimatedCycles,
    /// System calls (`--collect-systime`).
    SysCount,
    /// Time in system calls (`--collect-systime`).
    SysTime,
    /// CPU time in system calls (`--collect-systime=cputime`).
    SysCpuTime,
    /// Global bus events (`--collect-bus`).
    Ge,
    /// Conditional branches executed (`--branch-sim`).
    Bc,
    /// Conditional branches mispredicted.
    Bcm,
    /// Indirect branches executed.
    Bi,
    /// Indirect branches mispredicted.
    Bim,
    /// Last-level instruction cache misses of dirty lines (`--simulate-wb=yes`).
    ILdmr,
    /// Last-level data cache read misses of dirty lines (`--simulate-wb=yes`).
    DLdmr,
    /// Last-level data cache write misses of dirty lines (`--simulate-wb=yes`).
    DLdmw,
    /// L1 cache-use access cost (`--cacheuse=yes`).
    AcCost1,
    /// L1 cache-use spatial loss (`--cacheuse=yes`).
    SpLoss1,
    /// Last-level cache-use access cost (`--cacheuse=yes`).
    AcCost2,
    /// Last-level cache-use spatial loss (`--cacheuse=yes`).
    SpLoss2,
}

impl EventKind {
    /// Every metric, in report order.
    pub const ALL: [EventKind; 29] = [
        EventKind::Ir,
        EventKind::L1hits,
        EventKind::LLhits,
        EventKind::RamHits,
        EventKind::TotalRW,
        EventKind::EstimatedCycles,
        EventKind::Dr,
        EventKind::Dw,
        EventKind::I1mr,
        EventKind::D1mr,
        EventKind::D1mw,
        EventKind::ILmr,
        EventKind::DLmr,
        EventKind::DLmw,
        EventKind::SysCount,
        EventKind::SysTime,
        EventKind::SysCpuTime,
        EventKind::Ge,
        EventKind::Bc,
        EventKind::Bcm,
        EventKind::Bi,
        EventKind::Bim,
        EventKind::ILdmr,
        EventKind::DLdmr,
        EventKind::DLdmw,
        EventKind::AcCost1,
        EventKind::SpLoss1,
        EventKind::AcCost2,
        EventKind::SpLoss2,
    ];

    /// The metric's name in JSON, regression specs and `EventKind` (`Ir`, `L1hits`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EventKind::L1hits => "L1hits",
            EventKind::LLhits => "LLhits",
            EventKind::RamHits => "RamHits",
            EventKind::TotalRW => "TotalRW",
            EventKind::EstimatedCycles => "EstimatedCycles",
            other => Self::RAW
                .iter()
                .find(|(k, _)| *k == other)
                .map_or("?", |(_, n)| n),
        }
    }

    /// The metric of a name, without regard to case (`ir`, `Ir`, `estimatedcycles`).
    pub fn from_name(name: &str) -> Option<EventKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// Every Callgrind event this crate knows by name, in Callgrind's spelling.
    const RAW: [(EventKind, &'static str); 24] = [
        (EventKind::Ir, "Ir"),
        (EventKind::Dr, "Dr"),
        (EventKind::Dw, "Dw"),
        (EventKind::I1mr, "I1mr"),
        (EventKind::D1mr, "D1mr"),
        (EventKind::D1mw, "D1mw"),
        (EventKind::ILmr, "ILmr"),
        (EventKind::DLmr, "DLmr"),
        (EventKind::DLmw, "DLmw"),
        (EventKind::SysCount, "sysCount"),
        (EventKind::SysTime, "sysTime"),
        (EventKind::SysCpuTime, "sysCpuTime"),
        (EventKind::Ge, "Ge"),
        (EventKind::Bc, "Bc"),
        (EventKind::Bcm, "Bcm"),
        (EventKind::Bi, "Bi"),
        (EventKind::Bim, "Bim"),
        (EventKind::ILdmr, "ILdmr"),
        (EventKind::DLdmr, "DLdmr"),
        (EventKind::DLdmw, "DLdmw"),
        (EventKind::AcCost1, "AcCost1"),
        (EventKind::SpLoss1, "SpLoss1"),
        (EventKind::AcCost2, "AcCost2"),
        (EventKind::SpLoss2, "SpLoss2"),
    ];

    /// The event of a Callgrind event name.
    pub fn from_callgrind(name: &str) -> Option<EventKind> {
        Self::RAW.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
    }

    /// The label in the terminal report: iai-callgrind 0.13's, which tools that parse its
    /// output (Bencher's adapter, scripts) expect; `L2 Hits` for the last-level cache.
    pub fn label(self) -> &'static str {
        match self {
            EventKind::LLhits => "L2 Hits",
            other => other.benchgrind_label(),
        }
    }

    /// The label with benchgrind's own names (`--labels=benchgrind`): `LL Hits`, since the
    /// simulated last-level cache is not always a machine's L2.
    pub fn benchgrind_label(self) -> &'static str {
        match self {
            EventKind::Ir => "Instructions",
            EventKind::L1hits => "L1 Hits",
            EventKind::LLhits => "LL Hits",
            EventKind::RamHits => "RAM Hits",
            EventKind::TotalRW => "Total read+write",
            EventKind::EstimatedCycles => "Estimated Cycles",
            other => Self::RAW
                .iter()
                .find(|(k, _)| *k == other)
                .map_or("?", |(_, n)| n),
        }
    }
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

    /// Derives the report metrics from a profile: with the cache simulation, instructions, the
    /// hits per level, their total and the cycle estimate; without it, the counted events. Other
    /// counted events (branches, system calls) follow.
    pub fn from_profile(profile: &Profile) -> Metrics {
        let get = |name| profile.total(name);
        let mut values = Vec::new();
        let cache = [
            "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
        ]
        .map(get);
        if let [Some(ir), Some(dr), Some(dw), Some(i1), Some(d1r), Some(d1w), Some(il), Some(dlr), Some(dlw)] =
            cache
        {
            let accesses = ir + dr + dw;
            let l1_misses = i1 + d1r + d1w;
            let ll_misses = il + dlr + dlw;
            let l1 = accesses.saturating_sub(l1_misses);
            let ll = l1_misses.saturating_sub(ll_misses);
            let ram = ll_misses;
            values.extend([
                (EventKind::Ir, ir),
                (EventKind::L1hits, l1),
                (EventKind::LLhits, ll),
                (EventKind::RamHits, ram),
                (EventKind::TotalRW, l1 + ll + ram),
                (EventKind::EstimatedCycles, l1 + 5 * ll + 35 * ram),
            ]);
        } else if let Some(ir) = get("Ir") {
            values.push((EventKind::Ir, ir));
        }
        let cache_events = [
            "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
        ];
        for (name, total) in profile.events.iter().zip(&profile.totals) {
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
        Profile {
            events: events.split_whitespace().map(str::to_owned).collect(),
            totals: totals.to_vec(),
            cmd: None,
            pid: None,
        }
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
}
