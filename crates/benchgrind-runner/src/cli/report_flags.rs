//! The flags of iai-callgrind 0.16+ and gungraun that choose what the report shows and which
//! limits apply by tool: `--callgrind-limits`, `--dhat-metrics`, `--tolerance`, `--show-grid`,
//! ... (syntax in [`crate::config::spec_text`]). Part of the table of flags ([`super::flags`]).

use super::flag::{yes_no, Flag, Given, Takes, UsageError};
use super::values::Cli;
use crate::config::spec_text;
use crate::config::{ToolMetric, ValgrindTool};

/// A spec's error, naming the flag or variable.
fn spec<T>(given: &Given, parsed: Result<T, String>) -> Result<T, UsageError> {
    parsed.map_err(|e| UsageError(format!("{}: {e}", given.source)))
}

/// Puts the metrics of one tool into the [`Cli`], replacing an earlier list of that tool.
fn tool_metrics(cli: &mut Cli, tool: ValgrindTool, metrics: Vec<ToolMetric>) {
    cli.tool_metrics.retain(|(t, _)| *t != tool);
    cli.tool_metrics.push((tool, metrics));
}

const LIMITS_HELP: &str = "comma-separated KEY=N% (soft, in percent of the old value), KEY=N \
                           (hard) or KEY=N%|M; KEY is a metric or a @group";

/// The flags of the report and of the limits by tool, in the order of the help.
pub(crate) const REPORT_FLAGS: &[Flag] = &[
    Flag {
        name: "--callgrind-limits",
        env: "BENCHGRIND_CALLGRIND_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "Callgrind's limits, replacing the code's (ir=5%,@hits=10000,l1hitrate=99.5): \
               see --regression for the older form",
        repeats: false,
        set: |cli, g| {
            cli.callgrind_limits = Some(spec(g, spec_text::callgrind_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--cachegrind-limits",
        env: "BENCHGRIND_CACHEGRIND_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "Cachegrind's limits, replacing the code's, as --callgrind-limits",
        repeats: false,
        set: |cli, g| {
            cli.cachegrind_limits = Some(spec(g, spec_text::cachegrind_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--dhat-limits",
        env: "BENCHGRIND_DHAT_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: LIMITS_HELP,
        repeats: false,
        set: |cli, g| {
            cli.dhat_limits = Some(spec(g, spec_text::dhat_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--callgrind-metrics",
        env: "BENCHGRIND_CALLGRIND_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "Callgrind's metrics the report shows, in order: names and groups \
               (@default, @all, @hits, @misses, @rates, @cachesim, ...), comma-separated",
        repeats: false,
        set: |cli, g| {
            cli.callgrind_metrics = Some(spec(g, spec_text::callgrind_metrics(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--cachegrind-metrics",
        env: "BENCHGRIND_CACHEGRIND_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "Cachegrind's metrics the report shows, in order",
        repeats: false,
        set: |cli, g| {
            cli.cachegrind_metrics = Some(spec(g, spec_text::cachegrind_metrics(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--dhat-metrics",
        env: "BENCHGRIND_DHAT_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "DHAT's metrics the report shows, in order (@default, @all, tb, gb, ...)",
        repeats: false,
        set: |cli, g| {
            let metrics = spec(g, spec_text::dhat_metrics(&g.value))?;
            tool_metrics(cli, ValgrindTool::DHAT, metrics);
            Ok(())
        },
    },
    Flag {
        name: "--memcheck-metrics",
        env: "BENCHGRIND_MEMCHECK_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "Memcheck's error counts the report shows, in order (errors, contexts, \
               suppressederrors, suppressedcontexts, @all)",
        repeats: false,
        set: |cli, g| {
            let metrics = spec(g, spec_text::error_metrics(&g.value))?;
            tool_metrics(cli, ValgrindTool::Memcheck, metrics);
            Ok(())
        },
    },
    Flag {
        name: "--helgrind-metrics",
        env: "BENCHGRIND_HELGRIND_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "Helgrind's error counts the report shows, in order",
        repeats: false,
        set: |cli, g| {
            let metrics = spec(g, spec_text::error_metrics(&g.value))?;
            tool_metrics(cli, ValgrindTool::Helgrind, metrics);
            Ok(())
        },
    },
    Flag {
        name: "--drd-metrics",
        env: "BENCHGRIND_DRD_METRICS",
        takes: Takes::Value,
        value: "=METRICS",
        help: "DRD's error counts the report shows, in order",
        repeats: false,
        set: |cli, g| {
            let metrics = spec(g, spec_text::error_metrics(&g.value))?;
            tool_metrics(cli, ValgrindTool::DRD, metrics);
            Ok(())
        },
    },
    Flag {
        name: "--tolerance",
        env: "BENCHGRIND_TOLERANCE",
        takes: Takes::Optional("0.00001"),
        value: "[=PERCENT]",
        help: "show changes within PERCENT either way as (Tolerance) [default PERCENT: 0.00001]",
        repeats: false,
        set: |cli, g| {
            let pct = g.value.trim().parse::<f64>().ok().filter(|p| p.is_finite());
            let pct = pct.ok_or_else(|| g.invalid("write a percentage such as 0.5"))?;
            cli.tolerance = Some(pct.abs());
            Ok(())
        },
    },
    Flag {
        name: "--show-grid",
        env: "BENCHGRIND_SHOW_GRID",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "mark the report's lines: |- before a metric, |= before a tool's title",
        repeats: false,
        set: |cli, g| {
            cli.show_grid = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--show-only-comparison",
        env: "BENCHGRIND_SHOW_ONLY_COMPARISON",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "of a benchmark compared with others (compare_by_id), show only the comparisons",
        repeats: false,
        set: |cli, g| {
            cli.show_only_comparison = Some(yes_no(g)?);
            Ok(())
        },
    },
];
