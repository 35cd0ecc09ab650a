//! The flags of what the report shows and where it goes: formats and files
//! (`--output-format`, `--output-file`, `--save-summary`, `--history`), the benchmark's own
//! output (`--nocapture`), the metrics shown by tool (`--*-metrics`), `--explain`, `--labels`,
//! `--tolerance`, `--show-grid`, ...

use std::path::PathBuf;

use super::flag::{nocapture, nosummary, spec, yes_no, Category, Flag, Takes};
use crate::cli::values::{Cli, JsonStyle, Labels, ReportFormat};
use crate::config::tool_metrics::text as spec_text;
use crate::config::DEFAULT_TRUNCATE;
use crate::config::{ExplainPolicy, ToolMetric, ValgrindTool};

/// Puts the metrics of one tool into the [`Cli`], replacing an earlier list of that tool.
fn tool_metrics(cli: &mut Cli, tool: ValgrindTool, metrics: Vec<ToolMetric>) {
    cli.tool_metrics.retain(|(t, _)| *t != tool);
    cli.tool_metrics.push((tool, metrics));
}

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--output-format",
        env: "BENCHGRIND_OUTPUT_FORMAT",
        takes: Takes::Value,
        value: "=FORMAT",
        help: "default, json (a summary per line), pretty-json, markdown, bmf (Bencher's \
               format) or gungraun-json (gungraun 0.20's summaries, a line each)",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.output_format = ReportFormat::from_name(&g.lowercase())
                .ok_or_else(|| g.invalid_lowercase(&format!("use {}", ReportFormat::NAMES)))?;
            Ok(())
        },
    },
    Flag {
        name: "--output-file",
        env: "BENCHGRIND_OUTPUT_FILE",
        takes: Takes::Value,
        value: "=PATH",
        help: "write the report of --output-format into PATH instead of stdout, replaced at the \
               end of the run (relative to the package's directory under cargo bench)",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            if g.value.is_empty() {
                return Err(g.invalid("give the file to write: --output-file=bmf.json"));
            }
            cli.output_file = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--explain",
        env: "BENCHGRIND_EXPLAIN",
        takes: Takes::Value,
        value: "=N|always|never",
        help: "show which functions changed the counts (top 5) when Ir changed by more than N% \
               or a limit was passed; JSON and Markdown get every changed benchmark [default: 1]",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.explain = ExplainPolicy::parse(&g.lowercase())
                .map_err(|_| g.invalid("use a percentage (e.g. 1 or 0.5), always or never"))?;
            Ok(())
        },
    },
    Flag {
        name: "--labels",
        env: "BENCHGRIND_LABELS",
        takes: Takes::Value,
        value: "=NAMES",
        help: "the metric lines' names: iai-callgrind (L2 Hits, the default) or benchgrind \
               (LL Hits)",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.labels = match g.lowercase().as_str() {
                "iai-callgrind" => Labels::IaiCallgrind,
                "benchgrind" => Labels::Benchgrind,
                _ => return Err(g.invalid_lowercase("use iai-callgrind or benchgrind")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--save-summary",
        env: "BENCHGRIND_SAVE_SUMMARY",
        takes: Takes::Optional("json"),
        value: "[=json|pretty-json]",
        help: "write summary.json next to each benchmark's files",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.save_summary = match g.lowercase().as_str() {
                "json" | "yes" | "true" => Some(JsonStyle::Compact),
                "pretty-json" => Some(JsonStyle::Pretty),
                "no" | "false" => None,
                _ => return Err(g.invalid_lowercase("use json or pretty-json")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--history",
        env: "BENCHGRIND_HISTORY",
        takes: Takes::Optional("on"),
        value: "[=on|off]",
        help: "append this run's values to <home>/history/ for `benchgrind report` [default: on]",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.no_history = match g.lowercase().as_str() {
                "on" | "yes" | "true" => false,
                "off" | "no" | "false" => true,
                _ => return Err(g.invalid_lowercase("use on or off")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--nocapture",
        env: "BENCHGRIND_NOCAPTURE",
        takes: Takes::Optional("true"),
        value: "[=true|false|stdout|stderr]",
        help: "show the benchmark's output",
        repeats: false,
        category: Category::Output,
        set: nocapture,
    },
    Flag {
        name: "--nosummary",
        env: "BENCHGRIND_NOSUMMARY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "leave out the line that sums up the run at its end",
        repeats: false,
        category: Category::Output,
        set: nosummary,
    },
    Flag {
        name: "--show-intermediate",
        env: "BENCHGRIND_SHOW_INTERMEDIATE",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "the same as --separate-threads (its name in iai-callgrind and gungraun)",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.separate_threads = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--truncate-description",
        env: "BENCHGRIND_TRUNCATE_DESCRIPTION",
        takes: Takes::Optional("yes"),
        value: "[=N|yes|no]",
        help: "cut the arguments in the header after N characters (yes: 50; no: never); \
               overrides the code's `truncate_description`",
        repeats: false,
        category: Category::Output,
        set: |cli, g| {
            cli.truncate_description = Some(match g.lowercase().trim() {
                "yes" | "true" | "on" | "y" | "t" => Some(DEFAULT_TRUNCATE),
                "no" | "false" | "off" | "none" | "n" | "f" => None,
                n => Some(n.parse::<usize>().map_err(|_| {
                    g.invalid_lowercase("use a number of characters, yes (50) or no (never cut)")
                })?),
            });
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
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
        category: Category::Output,
        set: |cli, g| {
            cli.show_only_comparison = Some(yes_no(g)?);
            Ok(())
        },
    },
];
