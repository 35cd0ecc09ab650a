//! The metrics users name: Callgrind's events and what is derived from them ([`EventKind`]),
//! and the values of the other tools ([`ToolMetric`]), with their names in JSON, regression
//! specs and the report. Computing them is [`crate::metrics`]'.

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
            other => Self::RAW
                .iter()
                .find(|(k, _)| *k == other)
                .map_or("?", |(_, n)| n),
        }
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
    pub const ALL: [ToolMetric; 14] = [
        ToolMetric::TotalBytes,
        ToolMetric::TotalBlocks,
        ToolMetric::PeakBytes,
        ToolMetric::PeakBlocks,
        ToolMetric::AtTEndBytes,
        ToolMetric::ReadsBytes,
        ToolMetric::WritesBytes,
        ToolMetric::PeakHeapBytes,
        ToolMetric::PeakHeapExtraBytes,
        ToolMetric::PeakStacksBytes,
        ToolMetric::Errors,
        ToolMetric::ErrorContexts,
        ToolMetric::SuppressedErrors,
        ToolMetric::SuppressedContexts,
    ];

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
    type Err = String;

    /// A metric of any tool by name, without regard to case.
    fn from_str(name: &str) -> Result<AnyMetric, String> {
        let name = name.trim();
        if let Some(event) = EventKind::from_name(name) {
            return Ok(AnyMetric::Event(event));
        }
        ToolMetric::from_name(name)
            .map(AnyMetric::Tool)
            .ok_or_else(|| {
                format!(
                    "unknown metric `{name}`; use one of: {}, or of the other tools: {}",
                    EventKind::ALL.map(EventKind::name).join(", "),
                    ToolMetric::ALL.map(ToolMetric::name).join(", ")
                )
            })
    }
}
