//! The values of the other tools, read from their files: DHAT's and Massif's heap figures and
//! the error counts of Memcheck, Helgrind and DRD.

use std::path::Path;

use crate::config::{ToolMetric, ValgrindTool};
use crate::parse::{dhat, errors, massif, ParseError};

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

/// What to look for when reading a tool's files.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The benchmark function's full path (`crate::module::function`), as Valgrind prints it
    /// in stacks.
    pub function: &'a str,
}

/// Reads the metrics of a tool from its metrics file (`dhat.out`, `massif.out`, or the log of
/// an error-reporting tool). Tools without metrics have none.
pub fn read_metrics(
    tool: ValgrindTool,
    path: &Path,
    cx: Context<'_>,
) -> Result<ToolMetrics, ParseError> {
    let values = match tool {
        ValgrindTool::DHAT => {
            let totals = dhat::parse_file(path)?.restricted_to(cx.function);
            vec![
                (ToolMetric::TotalBytes, totals.total_bytes),
                (ToolMetric::TotalBlocks, totals.total_blocks),
                (ToolMetric::PeakBytes, totals.max_bytes),
                (ToolMetric::PeakBlocks, totals.max_blocks),
                (ToolMetric::AtTEndBytes, totals.end_bytes),
                (ToolMetric::ReadsBytes, totals.read_bytes),
                (ToolMetric::WritesBytes, totals.write_bytes),
            ]
        }
        ValgrindTool::Massif => {
            let peak = massif::parse_file(path)?.peak();
            let mut values = vec![
                (ToolMetric::PeakHeapBytes, peak.heap),
                (ToolMetric::PeakHeapExtraBytes, peak.heap_extra),
            ];
            if peak.stacks > 0 {
                values.push((ToolMetric::PeakStacksBytes, peak.stacks));
            }
            values
        }
        t if t.reports_errors() => {
            let s = errors::parse_file(path)?;
            vec![
                (ToolMetric::Errors, s.errors),
                (ToolMetric::ErrorContexts, s.contexts),
                (ToolMetric::SuppressedErrors, s.suppressed),
                (ToolMetric::SuppressedContexts, s.suppressed_contexts),
            ]
        }
        _ => Vec::new(),
    };
    Ok(ToolMetrics { values })
}

/// A one-line description of a failing tool run, from its error counts.
pub fn describe_errors(tool: ValgrindTool, metrics: &ToolMetrics, how: &str) -> String {
    let errors = metrics.get(ToolMetric::Errors).unwrap_or(0);
    let contexts = metrics.get(ToolMetric::ErrorContexts).unwrap_or(0);
    let plural = |n: u64, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{} found {} in {} ({how})",
        tool.title(),
        plural(errors, "error"),
        plural(contexts, "context")
    )
}
