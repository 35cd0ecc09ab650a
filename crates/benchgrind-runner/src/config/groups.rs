//! The metrics of iai-callgrind 0.15+ and gungraun by tool, and their groups: which metrics a
//! tool's report shows and in which order (`Callgrind::format`, `--callgrind-metrics`), and what
//! a limit names (`soft_limits`, `--callgrind-limits`). A group (`@default`, `@all`, `@hits`,
//! ...) stands for its members in order; a single metric converts into a group of one.
//!
//! Each maps onto benchgrind's own [`EventKind`] (Callgrind and Cachegrind count the same events)
//! and [`ToolMetric`] (DHAT, Memcheck, Helgrind, DRD).

use std::str::FromStr;

use super::metric::{EventKind, ToolMetric};

/// A limit on a new value: a count, or a rate in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A whole number (counts).
    Int(u64),
    /// A number with a fraction (rates, in percent).
    Float(f64),
}

impl Limit {
    /// The limit as a float, for comparison with any value.
    pub fn as_f64(self) -> f64 {
        match self {
            Limit::Int(n) => n as f64,
            Limit::Float(x) => x,
        }
    }
}

impl From<u64> for Limit {
    fn from(value: u64) -> Limit {
        Limit::Int(value)
    }
}

impl From<f64> for Limit {
    fn from(value: f64) -> Limit {
        Limit::Float(value)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Int(n) => write!(f, "{n}"),
            Limit::Float(x) => write!(f, "{x}"),
        }
    }
}

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

const CACHE_MISSES: [EventKind; 6] = [
    EventKind::I1mr,
    EventKind::D1mr,
    EventKind::D1mw,
    EventKind::ILmr,
    EventKind::DLmr,
    EventKind::DLmw,
];
const CACHE_MISS_RATES: [EventKind; 5] = [
    EventKind::I1MissRate,
    EventKind::LLiMissRate,
    EventKind::D1MissRate,
    EventKind::LLdMissRate,
    EventKind::LLMissRate,
];
const CACHE_HITS: [EventKind; 3] = [EventKind::L1hits, EventKind::LLhits, EventKind::RamHits];
const CACHE_HIT_RATES: [EventKind; 3] = [
    EventKind::L1HitRate,
    EventKind::LLHitRate,
    EventKind::RamHitRate,
];
const CACHE_USE: [EventKind; 4] = [
    EventKind::AcCost1,
    EventKind::AcCost2,
    EventKind::SpLoss1,
    EventKind::SpLoss2,
];
const SYSTEM_CALLS: [EventKind; 3] = [
    EventKind::SysCount,
    EventKind::SysTime,
    EventKind::SysCpuTime,
];
const BRANCH_SIM: [EventKind; 4] = [EventKind::Bc, EventKind::Bcm, EventKind::Bi, EventKind::Bim];
const WRITE_BACK: [EventKind; 3] = [EventKind::ILdmr, EventKind::DLdmr, EventKind::DLdmw];

/// Reads, writes and every figure of the cache simulation, in report order.
fn cache_sim() -> Vec<EventKind> {
    let mut all = vec![EventKind::Dr, EventKind::Dw];
    all.extend(CACHE_MISSES);
    all.extend(CACHE_MISS_RATES);
    all.extend(CACHE_HITS);
    all.extend(CACHE_HIT_RATES);
    all.extend([EventKind::TotalRW, EventKind::EstimatedCycles]);
    all
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

/// `@group` or a metric's name, without regard to case (`@hits`, `ir`, `Instructions`).
fn group_or_metric<G: Copy>(
    text: &str,
    groups: &[(&str, G)],
    single: impl Fn(&str) -> Option<G>,
    what: &str,
) -> Result<G, String> {
    let text = text.trim();
    match text.strip_prefix('@') {
        Some(name) => groups
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, g)| *g)
            .ok_or_else(|| {
                let names: Vec<String> = groups.iter().map(|(n, _)| format!("@{n}")).collect();
                format!(
                    "unknown {what} group `{text}`; use one of {}",
                    names.join(", ")
                )
            }),
        None => single(text).ok_or_else(|| format!("unknown {what} metric `{text}`")),
    }
}

impl FromStr for CallgrindMetrics {
    type Err = String;

    fn from_str(text: &str) -> Result<CallgrindMetrics, String> {
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
    type Err = String;

    fn from_str(text: &str) -> Result<CachegrindMetrics, String> {
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

/// DHAT's metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DhatMetric {
    /// Ad-hoc mode: units recorded.
    TotalUnits,
    /// Ad-hoc mode: events recorded.
    TotalEvents,
    /// Bytes allocated.
    TotalBytes,
    /// Blocks allocated.
    TotalBlocks,
    /// Bytes live at the global peak (t-gmax).
    AtTGmaxBytes,
    /// Blocks live at the global peak.
    AtTGmaxBlocks,
    /// Bytes live when the process ended.
    AtTEndBytes,
    /// Blocks live when the process ended.
    AtTEndBlocks,
    /// Bytes read from the blocks.
    ReadsBytes,
    /// Bytes written to the blocks.
    WritesBytes,
    /// The sum of the blocks' lifetimes, in instructions.
    TotalLifetimes,
    /// The most bytes any one allocation site had live.
    MaximumBytes,
    /// The most blocks any one allocation site had live.
    MaximumBlocks,
}

impl DhatMetric {
    /// Every metric, in report order.
    pub const ALL: [DhatMetric; 13] = [
        DhatMetric::TotalUnits,
        DhatMetric::TotalEvents,
        DhatMetric::TotalBytes,
        DhatMetric::TotalBlocks,
        DhatMetric::AtTGmaxBytes,
        DhatMetric::AtTGmaxBlocks,
        DhatMetric::AtTEndBytes,
        DhatMetric::AtTEndBlocks,
        DhatMetric::ReadsBytes,
        DhatMetric::WritesBytes,
        DhatMetric::TotalLifetimes,
        DhatMetric::MaximumBytes,
        DhatMetric::MaximumBlocks,
    ];

    /// benchgrind's metric of the same value.
    pub fn tool_metric(self) -> ToolMetric {
        match self {
            DhatMetric::TotalUnits => ToolMetric::TotalUnits,
            DhatMetric::TotalEvents => ToolMetric::TotalEvents,
            DhatMetric::TotalBytes => ToolMetric::TotalBytes,
            DhatMetric::TotalBlocks => ToolMetric::TotalBlocks,
            DhatMetric::AtTGmaxBytes => ToolMetric::PeakBytes,
            DhatMetric::AtTGmaxBlocks => ToolMetric::PeakBlocks,
            DhatMetric::AtTEndBytes => ToolMetric::AtTEndBytes,
            DhatMetric::AtTEndBlocks => ToolMetric::AtTEndBlocks,
            DhatMetric::ReadsBytes => ToolMetric::ReadsBytes,
            DhatMetric::WritesBytes => ToolMetric::WritesBytes,
            DhatMetric::TotalLifetimes => ToolMetric::TotalLifetimes,
            DhatMetric::MaximumBytes => ToolMetric::MaximumBytes,
            DhatMetric::MaximumBlocks => ToolMetric::MaximumBlocks,
        }
    }

    /// The short names the command line also takes (`tb`, `gb`, ...).
    const SHORT: [(&'static str, DhatMetric); 13] = [
        ("tun", DhatMetric::TotalUnits),
        ("tev", DhatMetric::TotalEvents),
        ("tb", DhatMetric::TotalBytes),
        ("tbk", DhatMetric::TotalBlocks),
        ("gb", DhatMetric::AtTGmaxBytes),
        ("gbk", DhatMetric::AtTGmaxBlocks),
        ("eb", DhatMetric::AtTEndBytes),
        ("ebk", DhatMetric::AtTEndBlocks),
        ("rb", DhatMetric::ReadsBytes),
        ("wb", DhatMetric::WritesBytes),
        ("tl", DhatMetric::TotalLifetimes),
        ("mb", DhatMetric::MaximumBytes),
        ("mbk", DhatMetric::MaximumBlocks),
    ];

    /// The name (`TotalBytes`, `AtTGmaxBytes`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DhatMetric::TotalUnits => "TotalUnits",
            DhatMetric::TotalEvents => "TotalEvents",
            DhatMetric::TotalBytes => "TotalBytes",
            DhatMetric::TotalBlocks => "TotalBlocks",
            DhatMetric::AtTGmaxBytes => "AtTGmaxBytes",
            DhatMetric::AtTGmaxBlocks => "AtTGmaxBlocks",
            DhatMetric::AtTEndBytes => "AtTEndBytes",
            DhatMetric::AtTEndBlocks => "AtTEndBlocks",
            DhatMetric::ReadsBytes => "ReadsBytes",
            DhatMetric::WritesBytes => "WritesBytes",
            DhatMetric::TotalLifetimes => "TotalLifetimes",
            DhatMetric::MaximumBytes => "MaximumBytes",
            DhatMetric::MaximumBlocks => "MaximumBlocks",
        }
    }

    /// The metric of a name or short name, without regard to case.
    pub fn from_name(name: &str) -> Option<DhatMetric> {
        let name = name.trim();
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
            .or_else(|| {
                Self::SHORT
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map(|(_, m)| *m)
            })
    }
}

impl std::fmt::Display for DhatMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DhatMetric::AtTGmaxBytes => "At t-gmax bytes",
            DhatMetric::AtTGmaxBlocks => "At t-gmax blocks",
            other => other.tool_metric().label(),
        })
    }
}

/// DHAT's metrics, one or a group of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DhatMetrics {
    /// Units and events (ad-hoc mode), bytes and blocks in total, at the global peak and at the
    /// end, reads and writes.
    #[default]
    Default,
    /// Also the lifetimes and the maxima per site.
    All,
    /// One metric.
    SingleMetric(DhatMetric),
}

impl From<DhatMetric> for DhatMetrics {
    fn from(metric: DhatMetric) -> DhatMetrics {
        DhatMetrics::SingleMetric(metric)
    }
}

impl DhatMetrics {
    /// The members, in report order.
    pub fn expand(self) -> Vec<DhatMetric> {
        match self {
            DhatMetrics::Default => DhatMetric::ALL[..10].to_vec(),
            DhatMetrics::All => DhatMetric::ALL.to_vec(),
            DhatMetrics::SingleMetric(metric) => vec![metric],
        }
    }
}

impl FromStr for DhatMetrics {
    type Err = String;

    fn from_str(text: &str) -> Result<DhatMetrics, String> {
        let groups = [
            ("default", DhatMetrics::Default),
            ("def", DhatMetrics::Default),
            ("all", DhatMetrics::All),
        ];
        group_or_metric(
            text,
            &groups,
            |name| DhatMetric::from_name(name).map(DhatMetrics::SingleMetric),
            "DHAT",
        )
    }
}

/// The error counts of Memcheck, Helgrind and DRD.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorMetric {
    /// Errors reported.
    Errors,
    /// Distinct error contexts.
    Contexts,
    /// Errors suppressed.
    SuppressedErrors,
    /// Suppressed contexts.
    SuppressedContexts,
}

impl ErrorMetric {
    /// Every metric, in report order.
    pub const ALL: [ErrorMetric; 4] = [
        ErrorMetric::Errors,
        ErrorMetric::Contexts,
        ErrorMetric::SuppressedErrors,
        ErrorMetric::SuppressedContexts,
    ];

    /// benchgrind's metric of the same value.
    pub fn tool_metric(self) -> ToolMetric {
        match self {
            ErrorMetric::Errors => ToolMetric::Errors,
            ErrorMetric::Contexts => ToolMetric::ErrorContexts,
            ErrorMetric::SuppressedErrors => ToolMetric::SuppressedErrors,
            ErrorMetric::SuppressedContexts => ToolMetric::SuppressedContexts,
        }
    }
}

impl FromStr for ErrorMetric {
    type Err = String;

    /// A name or short name without regard to case (`errors`/`err`, `contexts`/`ctx`,
    /// `suppressederrors`/`serr`, `suppressedcontexts`/`sctx`).
    fn from_str(text: &str) -> Result<ErrorMetric, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "errors" | "err" => Ok(ErrorMetric::Errors),
            "contexts" | "ctx" => Ok(ErrorMetric::Contexts),
            "suppressederrors" | "serr" => Ok(ErrorMetric::SuppressedErrors),
            "suppressedcontexts" | "sctx" => Ok(ErrorMetric::SuppressedContexts),
            _ => Err(format!(
                "unknown error metric `{}`; use errors, contexts, suppressederrors or \
                 suppressedcontexts",
                text.trim()
            )),
        }
    }
}

impl std::fmt::Display for ErrorMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ErrorMetric::Errors => "Errors",
            ErrorMetric::Contexts => "Contexts",
            ErrorMetric::SuppressedErrors => "Suppressed Errors",
            ErrorMetric::SuppressedContexts => "Suppressed Contexts",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_expand_in_report_order() {
        let default = CallgrindMetrics::Default.expand();
        assert_eq!(
            default[..6],
            [
                EventKind::Ir,
                EventKind::L1hits,
                EventKind::LLhits,
                EventKind::RamHits,
                EventKind::TotalRW,
                EventKind::EstimatedCycles
            ]
        );
        let all = CallgrindMetrics::All.expand();
        assert_eq!(all.len(), EventKind::ALL.len());
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert_eq!(
            CallgrindMetrics::CacheSim.expand().len(),
            2 + 6 + 5 + 3 + 3 + 2
        );
        assert_eq!(CachegrindMetrics::All.expand().len(), 26);
        assert_eq!(DhatMetrics::Default.expand().len(), 10);
        assert_eq!(DhatMetrics::All.expand().len(), 13);
    }

    #[test]
    fn names_and_groups_parse_without_case() {
        assert_eq!("@Hits".parse(), Ok(CallgrindMetrics::CacheHits));
        assert_eq!("@wb".parse(), Ok(CallgrindMetrics::WriteBackBehaviour));
        assert_eq!("@all".parse(), Ok(CallgrindMetrics::All));
        assert_eq!(
            "instructions".parse(),
            Ok(CallgrindMetrics::SingleEvent(EventKind::Ir))
        );
        assert_eq!(
            "i1missrate".parse(),
            Ok(CallgrindMetrics::SingleEvent(EventKind::I1MissRate))
        );
        assert!("@nope"
            .parse::<CallgrindMetrics>()
            .unwrap_err()
            .contains("@default"));
        assert_eq!("@ms".parse(), Ok(CachegrindMetrics::CacheMisses));
        assert_eq!(
            "gb".parse(),
            Ok(DhatMetrics::SingleMetric(DhatMetric::AtTGmaxBytes))
        );
        assert_eq!("SCTX".parse(), Ok(ErrorMetric::SuppressedContexts));
        assert_eq!(DhatMetric::AtTGmaxBytes.to_string(), "At t-gmax bytes");
        assert_eq!(EventKind::LLHitRate.to_string(), "LL Hit Rate");
    }

    #[test]
    fn limits_convert_from_counts_and_rates() {
        assert_eq!(Limit::from(10_000u64), Limit::Int(10_000));
        assert_eq!(Limit::from(1.5), Limit::Float(1.5));
        assert_eq!(Limit::Int(3).as_f64(), 3.0);
    }
}
