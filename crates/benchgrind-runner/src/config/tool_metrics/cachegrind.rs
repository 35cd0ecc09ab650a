//! Cachegrind's metrics and groups: [`CachegrindMetric`], [`CachegrindMetrics`].

use crate::error::Problem;
use std::str::FromStr;

use super::super::metric::EventKind;
use super::sets::*;

/// Cachegrind's metrics: the events of its cache and branch simulation and what is derived from
/// them, as for Callgrind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CachegrindMetric {
    Ir,
    Dr,
    Dw,
    I1mr,
    D1mr,
    D1mw,
    ILmr,
    DLmr,
    DLmw,
    I1MissRate,
    LLiMissRate,
    D1MissRate,
    LLdMissRate,
    LLMissRate,
    L1hits,
    LLhits,
    RamHits,
    L1HitRate,
    LLHitRate,
    RamHitRate,
    TotalRW,
    EstimatedCycles,
    Bc,
    Bcm,
    Bi,
    Bim,
}

impl CachegrindMetric {
    /// Every metric, in declaration order.
    pub const ALL: [CachegrindMetric; 26] = [
        CachegrindMetric::Ir,
        CachegrindMetric::Dr,
        CachegrindMetric::Dw,
        CachegrindMetric::I1mr,
        CachegrindMetric::D1mr,
        CachegrindMetric::D1mw,
        CachegrindMetric::ILmr,
        CachegrindMetric::DLmr,
        CachegrindMetric::DLmw,
        CachegrindMetric::I1MissRate,
        CachegrindMetric::LLiMissRate,
        CachegrindMetric::D1MissRate,
        CachegrindMetric::LLdMissRate,
        CachegrindMetric::LLMissRate,
        CachegrindMetric::L1hits,
        CachegrindMetric::LLhits,
        CachegrindMetric::RamHits,
        CachegrindMetric::L1HitRate,
        CachegrindMetric::LLHitRate,
        CachegrindMetric::RamHitRate,
        CachegrindMetric::TotalRW,
        CachegrindMetric::EstimatedCycles,
        CachegrindMetric::Bc,
        CachegrindMetric::Bcm,
        CachegrindMetric::Bi,
        CachegrindMetric::Bim,
    ];

    /// The same metric as Callgrind names it.
    pub fn event(self) -> EventKind {
        match self {
            CachegrindMetric::Ir => EventKind::Ir,
            CachegrindMetric::Dr => EventKind::Dr,
            CachegrindMetric::Dw => EventKind::Dw,
            CachegrindMetric::I1mr => EventKind::I1mr,
            CachegrindMetric::D1mr => EventKind::D1mr,
            CachegrindMetric::D1mw => EventKind::D1mw,
            CachegrindMetric::ILmr => EventKind::ILmr,
            CachegrindMetric::DLmr => EventKind::DLmr,
            CachegrindMetric::DLmw => EventKind::DLmw,
            CachegrindMetric::I1MissRate => EventKind::I1MissRate,
            CachegrindMetric::LLiMissRate => EventKind::LLiMissRate,
            CachegrindMetric::D1MissRate => EventKind::D1MissRate,
            CachegrindMetric::LLdMissRate => EventKind::LLdMissRate,
            CachegrindMetric::LLMissRate => EventKind::LLMissRate,
            CachegrindMetric::L1hits => EventKind::L1hits,
            CachegrindMetric::LLhits => EventKind::LLhits,
            CachegrindMetric::RamHits => EventKind::RamHits,
            CachegrindMetric::L1HitRate => EventKind::L1HitRate,
            CachegrindMetric::LLHitRate => EventKind::LLHitRate,
            CachegrindMetric::RamHitRate => EventKind::RamHitRate,
            CachegrindMetric::TotalRW => EventKind::TotalRW,
            CachegrindMetric::EstimatedCycles => EventKind::EstimatedCycles,
            CachegrindMetric::Bc => EventKind::Bc,
            CachegrindMetric::Bcm => EventKind::Bcm,
            CachegrindMetric::Bi => EventKind::Bi,
            CachegrindMetric::Bim => EventKind::Bim,
        }
    }

    /// Whether benchgrind computes it from the counted events.
    pub fn is_derived(self) -> bool {
        self.event().is_derived()
    }

    /// The name (`Ir`, `L1hits`, ...).
    pub fn to_name(&self) -> String {
        self.event().to_name()
    }

    /// The metric of a name without regard to case.
    pub fn from_str_ignore_case(name: &str) -> Option<CachegrindMetric> {
        let event = EventKind::from_name(name)?;
        Self::ALL.into_iter().find(|m| m.event() == event)
    }
}

impl From<CachegrindMetric> for EventKind {
    fn from(metric: CachegrindMetric) -> EventKind {
        metric.event()
    }
}

impl std::fmt::Display for CachegrindMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.event().fmt(f)
    }
}

/// Cachegrind's metrics, one or a group of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CachegrindMetrics {
    /// Instructions, hits per level, their total, the cycle estimate, then the branch
    /// simulation's counts when it ran.
    #[default]
    Default,
    /// The misses.
    CacheMisses,
    /// The miss rates.
    CacheMissRates,
    /// The hits per level.
    CacheHits,
    /// The hit rates.
    CacheHitRates,
    /// Everything of the cache simulation.
    CacheSim,
    /// The branch simulation (`--branch-sim=yes`).
    BranchSim,
    /// Every metric.
    All,
    /// None.
    None,
    /// One metric.
    SingleEvent(CachegrindMetric),
}

impl From<CachegrindMetric> for CachegrindMetrics {
    fn from(metric: CachegrindMetric) -> CachegrindMetrics {
        CachegrindMetrics::SingleEvent(metric)
    }
}

impl CachegrindMetrics {
    /// The members, in report order, as Callgrind's events.
    pub fn expand(self) -> Vec<EventKind> {
        match self {
            CachegrindMetrics::Default => {
                let mut all = vec![EventKind::Ir];
                all.extend(CACHE_HITS);
                all.extend([EventKind::TotalRW, EventKind::EstimatedCycles]);
                all.extend(BRANCH_SIM);
                all
            }
            CachegrindMetrics::CacheMisses => CACHE_MISSES.to_vec(),
            CachegrindMetrics::CacheMissRates => CACHE_MISS_RATES.to_vec(),
            CachegrindMetrics::CacheHits => CACHE_HITS.to_vec(),
            CachegrindMetrics::CacheHitRates => CACHE_HIT_RATES.to_vec(),
            CachegrindMetrics::CacheSim => cache_sim(),
            CachegrindMetrics::BranchSim => BRANCH_SIM.to_vec(),
            CachegrindMetrics::All => CachegrindMetric::ALL.map(CachegrindMetric::event).to_vec(),
            CachegrindMetrics::None => Vec::new(),
            CachegrindMetrics::SingleEvent(metric) => vec![metric.event()],
        }
    }
}

impl FromStr for CachegrindMetrics {
    type Err = Problem;

    fn from_str(text: &str) -> Result<CachegrindMetrics, Problem> {
        let groups = [
            ("default", CachegrindMetrics::Default),
            ("def", CachegrindMetrics::Default),
            ("cachemisses", CachegrindMetrics::CacheMisses),
            ("misses", CachegrindMetrics::CacheMisses),
            ("ms", CachegrindMetrics::CacheMisses),
            ("cachemissrates", CachegrindMetrics::CacheMissRates),
            ("missrates", CachegrindMetrics::CacheMissRates),
            ("mr", CachegrindMetrics::CacheMissRates),
            ("cachehits", CachegrindMetrics::CacheHits),
            ("hits", CachegrindMetrics::CacheHits),
            ("hs", CachegrindMetrics::CacheHits),
            ("cachehitrates", CachegrindMetrics::CacheHitRates),
            ("hitrates", CachegrindMetrics::CacheHitRates),
            ("hr", CachegrindMetrics::CacheHitRates),
            ("cachesim", CachegrindMetrics::CacheSim),
            ("cs", CachegrindMetrics::CacheSim),
            ("branchsim", CachegrindMetrics::BranchSim),
            ("bs", CachegrindMetrics::BranchSim),
            ("all", CachegrindMetrics::All),
        ];
        group_or_metric(
            text,
            &groups,
            |name| {
                let name = if name.eq_ignore_ascii_case("instructions") {
                    "ir"
                } else {
                    name
                };
                CachegrindMetric::from_str_ignore_case(name).map(CachegrindMetrics::SingleEvent)
            },
            "Cachegrind",
        )
    }
}
