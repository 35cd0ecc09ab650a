//! The values the other tools report, and their regression limits (checked like Callgrind's:
//! relative to the old value, or an absolute cap).

use crate::regression::{Limit, RegressionConfig};

use super::ValgrindTool;

/// A value a tool reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ToolMetric {
    /// DHAT: bytes allocated by the benchmark.
    TotalBytes,
    /// DHAT: blocks allocated by the benchmark.
    TotalBlocks,
    /// DHAT: the sum over the benchmark's allocation sites of each site's maximum of live
    /// bytes. Exact when the benchmark allocates at one site or its sites peak together; an
    /// upper bound of its peak otherwise (DHAT keeps no time line per site).
    PeakBytes,
    /// DHAT: the same for blocks.
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

/// The values of one tool run, in report order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolMetrics {
    /// `(metric, value)`.
    pub values: Vec<(ToolMetric, u64)>,
}

impl ToolMetrics {
    /// One value, if the run has it.
    pub fn get(&self, metric: ToolMetric) -> Option<u64> {
        self.values
            .iter()
            .find(|(m, _)| *m == metric)
            .map(|(_, v)| *v)
    }
}

/// A tool's limit that a benchmark went past.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRegression {
    /// The metric.
    pub metric: ToolMetric,
    /// The new value.
    pub new: u64,
    /// The old value.
    pub old: Option<u64>,
    /// Which limit.
    pub limit: Limit,
}

impl ToolRegression {
    /// One line for the report.
    pub fn describe(&self, tool: ValgrindTool) -> String {
        let name = format!("{} {}", tool.title(), self.metric.label());
        self.limit.describe(&name, self.new, self.old)
    }
}

/// The tool limits of `config` that `new` passes compared with `old`.
pub fn check(
    config: &RegressionConfig,
    new: &ToolMetrics,
    old: Option<&ToolMetrics>,
) -> Vec<ToolRegression> {
    crate::regression::passed(
        &config.tool_limits,
        &config.tool_hard_limits,
        |m| new.get(m),
        |m| old.and_then(|o| o.get(m)),
    )
    .into_iter()
    .map(|(metric, new, old, limit)| ToolRegression {
        metric,
        new,
        old,
        limit,
    })
    .collect()
}
