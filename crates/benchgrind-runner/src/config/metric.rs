//! The metrics users name: Callgrind's events and what is derived from them ([`EventKind`]),
//! and the values of the other tools ([`ToolMetric`]), with their names in JSON, regression
//! specs and the report. Computing them is [`crate::metrics`]'.

use crate::error::Problem;
use crate::problem;
use std::str::FromStr;

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
    /// L1 instruction cache misses in percent of instructions: `I1mr / Ir` (derived).
    I1MissRate,
    /// Last-level misses of instruction fetches in percent of instructions: `ILmr / Ir`
    /// (derived).
    LLiMissRate,
    /// L1 data cache misses in percent of data accesses: `(D1mr + D1mw) / (Dr + Dw)` (derived).
    D1MissRate,
    /// Last-level misses of data accesses in percent of data accesses:
    /// `(DLmr + DLmw) / (Dr + Dw)` (derived).
    LLdMissRate,
    /// Last-level misses in percent of all accesses:
    /// `(ILmr + DLmr + DLmw) / (Ir + Dr + Dw)` (derived).
    LLMissRate,
    /// Accesses served by L1 in percent of all accesses: `L1hits / TotalRW` (derived).
    L1HitRate,
    /// Accesses served by the last-level cache in percent: `LLhits / TotalRW` (derived).
    LLHitRate,
    /// Accesses served by memory in percent: `RamHits / TotalRW` (derived).
    RamHitRate,
}

impl EventKind {
    /// Every metric, in report order (the rates last).
    pub const ALL: [EventKind; 37] = [
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
        EventKind::I1MissRate,
        EventKind::LLiMissRate,
        EventKind::D1MissRate,
        EventKind::LLdMissRate,
        EventKind::LLMissRate,
        EventKind::L1HitRate,
        EventKind::LLHitRate,
        EventKind::RamHitRate,
    ];

    /// The rates, in percent, derived from the cache simulation's counts.
    pub const RATES: [EventKind; 8] = [
        EventKind::I1MissRate,
        EventKind::LLiMissRate,
        EventKind::D1MissRate,
        EventKind::LLdMissRate,
        EventKind::LLMissRate,
        EventKind::L1HitRate,
        EventKind::LLHitRate,
        EventKind::RamHitRate,
    ];

    /// Whether the metric is a rate in percent (a float), not a count.
    pub fn is_rate(self) -> bool {
        Self::RATES.contains(&self)
    }

    /// Whether benchgrind computes the metric from Callgrind's events (hits, totals, cycles and
    /// the rates) rather than Callgrind counting it.
    pub fn is_derived(self) -> bool {
        self.is_rate()
            || matches!(
                self,
                EventKind::L1hits
                    | EventKind::LLhits
                    | EventKind::RamHits
                    | EventKind::TotalRW
                    | EventKind::EstimatedCycles
            )
    }

    /// Whether the metric follows where code and data sit as well as what the code executed:
    /// the simulated caches' misses and hits, the cycle estimate built on them, the branch
    /// predictor's mispredictions (indexed by address), the cache-use counts and every rate.
    /// `Ir`, `Dr`, `Dw`, `TotalRW`, the branches executed (`Bc`, `Bi`), the global bus events
    /// (`Ge`) and the system calls do not: they move with the executed code alone
    /// ([`crate::compare::layout`]).
    pub fn follows_layout(self) -> bool {
        !matches!(
            self,
            EventKind::Ir
                | EventKind::Dr
                | EventKind::Dw
                | EventKind::TotalRW
                | EventKind::Bc
                | EventKind::Bi
                | EventKind::Ge
                | EventKind::SysCount
                | EventKind::SysTime
                | EventKind::SysCpuTime
        )
    }

    /// [`name`](Self::name) as a `String` (iai-callgrind 0.15+ and gungraun's spelling).
    pub fn to_name(&self) -> String {
        self.name().to_owned()
    }

    /// The metric of a name without regard to case (iai-callgrind 0.15's spelling of
    /// [`from_name`](Self::from_name)).
    pub fn from_str_ignore_case(name: &str) -> Option<EventKind> {
        Self::from_name(name)
    }

    /// The metric's name in JSON, regression specs and `EventKind` (`Ir`, `L1hits`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EventKind::L1hits => "L1hits",
            EventKind::LLhits => "LLhits",
            EventKind::RamHits => "RamHits",
            EventKind::TotalRW => "TotalRW",
            EventKind::EstimatedCycles => "EstimatedCycles",
            EventKind::I1MissRate => "I1MissRate",
            EventKind::LLiMissRate => "LLiMissRate",
            EventKind::D1MissRate => "D1MissRate",
            EventKind::LLdMissRate => "LLdMissRate",
            EventKind::LLMissRate => "LLMissRate",
            EventKind::L1HitRate => "L1HitRate",
            EventKind::LLHitRate => "LLHitRate",
            EventKind::RamHitRate => "RamHitRate",
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

    /// The metrics a user picks for Google Benchmark's time fields (`--benchmark_metric` of a
    /// bench binary, `--metric` of `benchgrind gbench` and `compare`): those Callgrind counts
    /// in every run benchgrind starts.
    /// (The first 14 of [`ALL`](Self::ALL): the derived metrics and the cache simulation's.)
    pub const CHOICES: &'static [EventKind] = Self::ALL.split_at(14).0;

    /// One of [`CHOICES`](Self::CHOICES) by name in any case, or `instructions` (Ir) or
    /// `cycles` (EstimatedCycles).
    pub fn from_choice(value: &str) -> Option<EventKind> {
        match value.trim().to_ascii_lowercase().as_str() {
            "instructions" => Some(EventKind::Ir),
            "cycles" => Some(EventKind::EstimatedCycles),
            name => Self::from_name(name).filter(|k| Self::CHOICES.contains(k)),
        }
    }

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
            EventKind::I1MissRate => "I1 Miss Rate",
            EventKind::LLiMissRate => "LLi Miss Rate",
            EventKind::D1MissRate => "D1 Miss Rate",
            EventKind::LLdMissRate => "LLd Miss Rate",
            EventKind::LLMissRate => "LL Miss Rate",
            EventKind::L1HitRate => "L1 Hit Rate",
            EventKind::LLHitRate => "LL Hit Rate",
            EventKind::RamHitRate => "RAM Hit Rate",
            other => Self::RAW
                .iter()
                .find(|(k, _)| *k == other)
                .map_or("?", |(_, n)| n),
        }
    }
}

/// The label, as gungraun prints it (`Instructions`, `LL Hits`, `I1 Miss Rate`).
impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.benchgrind_label())
    }
}

/// A value a tool reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ToolMetric {
    /// DHAT: bytes allocated by the benchmark.
    TotalBytes,
    /// DHAT: blocks allocated by the benchmark.
    TotalBlocks,
    /// DHAT: the most bytes the benchmark's blocks had live at once, exact: the bytes of the
    /// window's sites live at DHAT's global peak, which a ballast block held across the window
    /// puts inside it (a second DHAT run with a larger ballast when the first one's peak was
    /// outside). Limit: if the benchmark frees blocks allocated before its window, the global
    /// peak may miss the window's own and the figure is then below it. A binary benchmark with
    /// an `entry_point` gets the sum of each site's recorded maximum instead, a lower bound.
    PeakBytes,
    /// DHAT: the benchmark's blocks live at the moment of its byte peak ([`Self::PeakBytes`]).
    PeakBlocks,
    /// DHAT: bytes the benchmark allocated that were still live when the process ended.
    AtTEndBytes,
    /// DHAT: bytes read from blocks the benchmark allocated (during their whole lifetime).
    ReadsBytes,
    /// DHAT: bytes written to blocks the benchmark allocated (during their whole lifetime).
    WritesBytes,
    /// DHAT: blocks the benchmark allocated that were still live when the process ended.
    AtTEndBlocks,
    /// DHAT: the sum of the lifetimes of the benchmark's blocks, in instructions.
    TotalLifetimes,
    /// DHAT: the largest number of bytes any one of the benchmark's allocation sites had live.
    MaximumBytes,
    /// DHAT: the largest number of blocks any one of the benchmark's allocation sites had live.
    MaximumBlocks,
    /// DHAT in ad-hoc mode (`--mode=ad-hoc`): the units recorded by the program's requests.
    TotalUnits,
    /// DHAT in ad-hoc mode: the events recorded by the program's requests.
    TotalEvents,
    /// Massif: useful heap bytes at the peak snapshot of the measured process.
    PeakHeapBytes,
    /// Massif: allocator overhead (headers, alignment) at that snapshot.
    PeakHeapExtraBytes,
    /// Massif: stack bytes at that snapshot (with `--stacks=yes`).
    PeakStacksBytes,
    /// Memcheck, Helgrind, DRD: errors reported.
    Errors,
    /// Distinct error contexts.
    ErrorContexts,
    /// Errors suppressed.
    SuppressedErrors,
    /// Suppressed error contexts.
    SuppressedContexts,
}

impl ToolMetric {
    /// Every metric.
    pub const ALL: [ToolMetric; 20] = [
        ToolMetric::TotalBytes,
        ToolMetric::TotalBlocks,
        ToolMetric::PeakBytes,
        ToolMetric::PeakBlocks,
        ToolMetric::AtTEndBytes,
        ToolMetric::ReadsBytes,
        ToolMetric::WritesBytes,
        ToolMetric::AtTEndBlocks,
        ToolMetric::TotalLifetimes,
        ToolMetric::MaximumBytes,
        ToolMetric::MaximumBlocks,
        ToolMetric::TotalUnits,
        ToolMetric::TotalEvents,
        ToolMetric::PeakHeapBytes,
        ToolMetric::PeakHeapExtraBytes,
        ToolMetric::PeakStacksBytes,
        ToolMetric::Errors,
        ToolMetric::ErrorContexts,
        ToolMetric::SuppressedErrors,
        ToolMetric::SuppressedContexts,
    ];

    /// DHAT's metrics (the first 13 of [`ALL`](Self::ALL)).
    pub const DHAT: &'static [ToolMetric] = Self::ALL.split_at(13).0;

    /// The name in JSON and regression specs.
    pub fn name(self) -> &'static str {
        match self {
            ToolMetric::TotalBytes => "TotalBytes",
            ToolMetric::TotalBlocks => "TotalBlocks",
            ToolMetric::PeakBytes => "PeakBytes",
            ToolMetric::PeakBlocks => "PeakBlocks",
            ToolMetric::AtTEndBytes => "AtTEndBytes",
            ToolMetric::ReadsBytes => "ReadsBytes",
            ToolMetric::WritesBytes => "WritesBytes",
            ToolMetric::AtTEndBlocks => "AtTEndBlocks",
            ToolMetric::TotalLifetimes => "TotalLifetimes",
            ToolMetric::MaximumBytes => "MaximumBytes",
            ToolMetric::MaximumBlocks => "MaximumBlocks",
            ToolMetric::TotalUnits => "TotalUnits",
            ToolMetric::TotalEvents => "TotalEvents",
            ToolMetric::PeakHeapBytes => "PeakHeapBytes",
            ToolMetric::PeakHeapExtraBytes => "PeakHeapExtraBytes",
            ToolMetric::PeakStacksBytes => "PeakStacksBytes",
            ToolMetric::Errors => "Errors",
            ToolMetric::ErrorContexts => "ErrorContexts",
            ToolMetric::SuppressedErrors => "SuppressedErrors",
            ToolMetric::SuppressedContexts => "SuppressedContexts",
        }
    }

    /// The label in the terminal report.
    pub fn label(self) -> &'static str {
        match self {
            ToolMetric::TotalBytes => "Total bytes",
            ToolMetric::TotalBlocks => "Total blocks",
            ToolMetric::PeakBytes => "Peak bytes",
            ToolMetric::PeakBlocks => "Peak blocks",
            ToolMetric::AtTEndBytes => "At t-end bytes",
            ToolMetric::ReadsBytes => "Reads bytes",
            ToolMetric::WritesBytes => "Writes bytes",
            ToolMetric::AtTEndBlocks => "At t-end blocks",
            ToolMetric::TotalLifetimes => "Total lifetimes",
            ToolMetric::MaximumBytes => "Maximum bytes",
            ToolMetric::MaximumBlocks => "Maximum blocks",
            ToolMetric::TotalUnits => "Total units",
            ToolMetric::TotalEvents => "Total events",
            ToolMetric::PeakHeapBytes => "Peak heap bytes",
            ToolMetric::PeakHeapExtraBytes => "Peak extra bytes",
            ToolMetric::PeakStacksBytes => "Peak stacks bytes",
            ToolMetric::Errors => "Errors",
            ToolMetric::ErrorContexts => "Contexts",
            ToolMetric::SuppressedErrors => "Suppressed errors",
            ToolMetric::SuppressedContexts => "Suppr. contexts",
        }
    }

    /// The metric of a name, without regard to case.
    pub fn from_name(name: &str) -> Option<ToolMetric> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// A metric of any tool, as `--regression` names it: Callgrind's or another tool's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyMetric {
    /// A Callgrind metric.
    Event(EventKind),
    /// Another tool's.
    Tool(ToolMetric),
}

impl FromStr for AnyMetric {
    type Err = Problem;

    /// A metric of any tool by name, without regard to case.
    fn from_str(name: &str) -> Result<AnyMetric, Problem> {
        let name = name.trim();
        if let Some(event) = EventKind::from_name(name) {
            return Ok(AnyMetric::Event(event));
        }
        ToolMetric::from_name(name)
            .map(AnyMetric::Tool)
            .ok_or_else(|| {
                problem!(
                    "unknown metric `{name}`; use one of: {}, or of the other tools: {}",
                    EventKind::ALL.map(EventKind::name).join(", "),
                    ToolMetric::ALL.map(ToolMetric::name).join(", ")
                )
            })
    }
}
