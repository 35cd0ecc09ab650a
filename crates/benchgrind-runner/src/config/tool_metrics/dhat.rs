//! DHAT's metrics and groups: [`DhatMetric`], [`DhatMetrics`].

use crate::error::Problem;
use std::str::FromStr;

use super::super::metric::ToolMetric;
use super::sets::group_or_metric;

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
    type Err = Problem;

    fn from_str(text: &str) -> Result<DhatMetrics, Problem> {
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
