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
            let profile = dhat::parse_file(path)?;
            let totals = profile.restricted_to(cx.function);
            let (peak_bytes, peak_blocks) = window_peak(&profile, &totals, cx.function);
            vec![
                (ToolMetric::TotalBytes, totals.total_bytes),
                (ToolMetric::TotalBlocks, totals.total_blocks),
                (ToolMetric::PeakBytes, peak_bytes),
                (ToolMetric::PeakBlocks, peak_blocks),
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

/// Adds to `metrics` what the processes the benchmark started found, from their files in
/// `children` (`<metrics_file>.<expansion>`, see [`crate::execute::children`]): their errors
/// (Memcheck, Helgrind, DRD) and, when the whole process is counted (a binary benchmark without
/// an entry point), their DHAT totals; peaks and Massif's figures stay the benchmark process's.
/// A child's file that cannot be read adds nothing.
pub fn add_children(
    tool: ValgrindTool,
    children: &Path,
    metrics_file: &str,
    cx: Context<'_>,
    metrics: &mut ToolMetrics,
) {
    let added: &[ToolMetric] = match tool {
        t if t.reports_errors() => &[
            ToolMetric::Errors,
            ToolMetric::ErrorContexts,
            ToolMetric::SuppressedErrors,
            ToolMetric::SuppressedContexts,
        ],
        ValgrindTool::DHAT if cx.function.is_empty() => &[
            ToolMetric::TotalBytes,
            ToolMetric::TotalBlocks,
            ToolMetric::AtTEndBytes,
            ToolMetric::ReadsBytes,
            ToolMetric::WritesBytes,
        ],
        _ => return,
    };
    let Ok(entries) = std::fs::read_dir(children) else {
        return;
    };
    let prefix = format!("{metrics_file}.");
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(|n| n.starts_with(&prefix)) {
            continue;
        }
        let Ok(child) = read_metrics(tool, &entry.path(), cx) else {
            continue;
        };
        for (metric, value) in &mut metrics.values {
            if added.contains(metric) {
                *value = value.saturating_add(child.get(*metric).unwrap_or(0));
            }
        }
    }
}

/// The window's peak: bytes and blocks live at DHAT's global peak (t-gmax) when that peak fell
/// inside the window, which the ballast block tells (see
/// [`DHAT_BALLAST_ENV`](crate::protocol::DHAT_BALLAST_ENV)), or when the whole process is the
/// window (a binary benchmark without an entry point). Otherwise (no ballast: a binary
/// benchmark's entry point) the sum of each point's maximum, a lower bound.
fn window_peak(profile: &dhat::Profile, totals: &dhat::Totals, function: &str) -> (u64, u64) {
    let exact = match profile.ballast_at_peak() {
        Some(bytes) => bytes > 0,
        None => function.is_empty(),
    };
    if exact {
        (totals.gmax_bytes, totals.gmax_blocks)
    } else {
        (totals.max_bytes, totals.max_blocks)
    }
}

/// Under DHAT, the ballast for a second run when the profile at `path` shows that the global
/// peak fell outside the window: one byte more than that peak, so that every moment inside the
/// window has more bytes live than any moment outside it. `None` when no second run is needed
/// (or the profile cannot be read, which the caller reports).
pub fn dhat_second_ballast(path: &Path) -> Option<u64> {
    let profile = dhat::parse_file(path).ok()?;
    (profile.ballast_at_peak()? == 0).then(|| profile.global_peak() + 1)
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
