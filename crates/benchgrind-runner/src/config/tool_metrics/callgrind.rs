//! Callgrind's metrics and groups: [`CallgrindMetrics`].

use crate::error::Problem;
use std::str::FromStr;

use super::super::metric::EventKind;
use super::sets::*;

/// Callgrind's metrics, one or a group of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CallgrindMetrics {
    /// What the report shows unless told otherwise: instructions, hits per level, their total,
    /// the cycle estimate, then what other options collect (system calls, bus events, branches,
    /// write-backs, cache use).
    #[default]
    Default,
    /// The cache simulation's misses: `I1mr, D1mr, D1mw, ILmr, DLmr, DLmw`.
    CacheMisses,
    /// The miss rates.
    CacheMissRates,
    /// `L1hits, LLhits, RamHits`.
    CacheHits,
    /// The hit rates.
    CacheHitRates,
    /// Everything of the cache simulation: reads, writes, misses, rates, hits, totals, cycles.
    CacheSim,
    /// Cache use (`--cacheuse=yes`): `AcCost1, AcCost2, SpLoss1, SpLoss2`.
    CacheUse,
    /// System calls (`--collect-systime`): `SysCount, SysTime, SysCpuTime`.
    SystemCalls,
    /// Branch simulation (`--branch-sim=yes`): `Bc, Bcm, Bi, Bim`.
    BranchSim,
    /// Write-back simulation (`--simulate-wb=yes`): `ILdmr, DLdmr, DLdmw`.
    WriteBackBehaviour,
    /// Every metric.
    All,
    /// None.
    None,
    /// One metric.
    SingleEvent(EventKind),
}

impl From<EventKind> for CallgrindMetrics {
    fn from(event: EventKind) -> CallgrindMetrics {
        CallgrindMetrics::SingleEvent(event)
    }
}

impl CallgrindMetrics {
    /// The members, in report order.
    pub fn expand(self) -> Vec<EventKind> {
        match self {
            CallgrindMetrics::Default => {
                let mut all = vec![EventKind::Ir];
                all.extend(CACHE_HITS);
                all.extend([EventKind::TotalRW, EventKind::EstimatedCycles]);
                all.extend(SYSTEM_CALLS);
                all.push(EventKind::Ge);
                all.extend(BRANCH_SIM);
                all.extend(WRITE_BACK);
                all.extend(CACHE_USE);
                all
            }
            CallgrindMetrics::CacheMisses => CACHE_MISSES.to_vec(),
            CallgrindMetrics::CacheMissRates => CACHE_MISS_RATES.to_vec(),
            CallgrindMetrics::CacheHits => CACHE_HITS.to_vec(),
            CallgrindMetrics::CacheHitRates => CACHE_HIT_RATES.to_vec(),
            CallgrindMetrics::CacheSim => cache_sim(),
            CallgrindMetrics::CacheUse => CACHE_USE.to_vec(),
            CallgrindMetrics::SystemCalls => SYSTEM_CALLS.to_vec(),
            CallgrindMetrics::BranchSim => BRANCH_SIM.to_vec(),
            CallgrindMetrics::WriteBackBehaviour => WRITE_BACK.to_vec(),
            CallgrindMetrics::All => EventKind::ALL.to_vec(),
            CallgrindMetrics::None => Vec::new(),
            CallgrindMetrics::SingleEvent(event) => vec![event],
        }
    }

    /// The group names `@name` takes, and their short forms.
    const NAMES: [(&'static str, CallgrindMetrics); 27] = [
        ("default", CallgrindMetrics::Default),
        ("def", CallgrindMetrics::Default),
        ("cachemisses", CallgrindMetrics::CacheMisses),
        ("misses", CallgrindMetrics::CacheMisses),
        ("ms", CallgrindMetrics::CacheMisses),
        ("cachemissrates", CallgrindMetrics::CacheMissRates),
        ("missrates", CallgrindMetrics::CacheMissRates),
        ("mr", CallgrindMetrics::CacheMissRates),
        ("cachehits", CallgrindMetrics::CacheHits),
        ("hits", CallgrindMetrics::CacheHits),
        ("hs", CallgrindMetrics::CacheHits),
        ("cachehitrates", CallgrindMetrics::CacheHitRates),
        ("hitrates", CallgrindMetrics::CacheHitRates),
        ("hr", CallgrindMetrics::CacheHitRates),
        ("cachesim", CallgrindMetrics::CacheSim),
        ("cs", CallgrindMetrics::CacheSim),
        ("cacheuse", CallgrindMetrics::CacheUse),
        ("cu", CallgrindMetrics::CacheUse),
        ("systemcalls", CallgrindMetrics::SystemCalls),
        ("syscalls", CallgrindMetrics::SystemCalls),
        ("sc", CallgrindMetrics::SystemCalls),
        ("branchsim", CallgrindMetrics::BranchSim),
        ("bs", CallgrindMetrics::BranchSim),
        ("writebackbehaviour", CallgrindMetrics::WriteBackBehaviour),
        ("writeback", CallgrindMetrics::WriteBackBehaviour),
        ("wb", CallgrindMetrics::WriteBackBehaviour),
        ("all", CallgrindMetrics::All),
    ];
}

impl FromStr for CallgrindMetrics {
    type Err = Problem;

    fn from_str(text: &str) -> Result<CallgrindMetrics, Problem> {
        group_or_metric(
            text,
            &Self::NAMES,
            |name| {
                if name.eq_ignore_ascii_case("instructions") {
                    return Some(EventKind::Ir.into());
                }
                EventKind::from_name(name).map(CallgrindMetrics::SingleEvent)
            },
            "Callgrind",
        )
    }
}
