//! The terminal report: a header line per benchmark, then one line per metric as
//! `new|old (+x%) [+yx]`, in fixed columns so that runs line up when diffed.

use std::io::{self, IsTerminal, Write};

use crate::cli::{Color, Labels};

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use crate::compare::{change, change_f64, within_tolerance, Change};
use crate::config::{EventKind, ToolMetric};
use crate::metrics::Metrics;
use crate::result::{BenchResult, Outcome, Source};
use crate::result::{ToolOutcome, ToolResult, View};

/// Functions of an explanation (`--explain`) under the metrics, and source lines under each.
const EXPLAIN_FUNCTIONS: usize = 5;
const EXPLAIN_LINES: usize = 2;

/// The default output format.
pub struct Terminal {
    /// Colors on or off.
    pub style: Style,
}

impl Reporter for Terminal {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        let view = &result.view;
        let style = Style {
            grid: view.grid,
            tolerance: view.tolerance,
            ..self.style
        };
        let format = view.callgrind.as_deref();
        header(out, style, &result.id.path(), &result.id.id_and_args())?;
        write_output(out, &result.output, false)?;
        if let Some(at) = result.reuse.reused() {
            let line = format!("measured {at}; no input changed since (--fresh measures again)");
            writeln!(out, "  {:<18}{line}", "Reused:")?;
        }
        let baselines = [&result.new_source, &result.old_source]
            .iter()
            .any(|s| matches!(s, Source::Baseline(_)));
        if baselines {
            let name = |s: &Source| match s {
                Source::Baseline(n) => n.clone(),
                Source::Run => "run".to_owned(),
                Source::PreviousRun => "previous".to_owned(),
            };
            let pair = format!("{}|{}", name(&result.new_source), name(&result.old_source));
            writeln!(out, "  {:<18}{pair:>15}", "Baselines:")?;
        }
        match &result.outcome {
            Outcome::Failed { reason } => {
                writeln!(out, "  {} {reason}", style.paint("1;31", "FAILED:"))?;
                if let Some(log) = &result.log {
                    writeln!(out, "  log: {}", log.display())?;
                }
            }
            Outcome::Measured { new, old } => {
                if !view.only_comparison || result.comparisons.is_empty() {
                    metrics(out, style, format, new, old.as_ref())?;
                    layout(out, style, result, new, old.as_ref())?;
                    parts(out, style, result)?;
                }
                for c in &result.comparisons {
                    writeln!(out, "  Comparison with {} {}", c.function, c.id_and_args)?;
                    metrics(out, style, format, &c.metrics, Some(new))?;
                }
                for r in &result.regressions {
                    let line = format!("Performance has regressed: {}", r.describe());
                    writeln!(out, "  {}", style.paint("1;31", &line))?;
                }
                if let Some(explained) = result.explained.as_ref().filter(|x| x.shown) {
                    let e = &explained.explanation;
                    e.write_terminal(out, EXPLAIN_FUNCTIONS, EXPLAIN_LINES)?;
                }
                for tool in &result.tools {
                    tool_section(out, style, view, tool)?;
                }
                if let Some(perf) = &result.perf {
                    perf_section(out, style, perf)?;
                }
                notes(out, style, result)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        write_tally(out, summary)
    }
}

/// What layout alone did (under the metrics): a change of layout only, the limits it held
/// back, and the spread of layouts with the metrics' ranges (those shown by default), each with
/// whether the old value lies within.
fn layout(
    out: &mut dyn Write,
    style: Style,
    result: &BenchResult,
    new: &Metrics,
    old: Option<&Metrics>,
) -> io::Result<()> {
    if let Some(only) = &result.layout_only {
        let moved: Vec<&str> = only.moved.iter().map(|&k| style.label(k)).collect();
        let line = format!(
            "the same {} functions executed the same counts; only addresses moved ({})",
            only.functions,
            moved.join(", ")
        );
        let title = style.paint("1;36", &format!("{:<18}", "Layout only:"));
        writeln!(out, "  {title}{line}")?;
        for r in &only.held {
            let line = format!("not failed (--limit-layout fails it): {}", r.describe());
            writeln!(out, "  {:<18}{line}", "Layout only:")?;
        }
    }
    let Some(spread) = &result.spread else {
        return Ok(());
    };
    let shifted = spread.layouts.saturating_sub(1);
    writeln!(
        out,
        "  {:<18}over {} layouts (this run's and {shifted} with the stack and heap shifted), \
         measured in {:.2}s",
        "Layout spread:", spread.layouts, spread.seconds
    )?;
    if !spread.stack_only.is_empty() {
        let shifts: Vec<String> = spread.stack_only.iter().map(usize::to_string).collect();
        let line = format!(
            "shift {} moved the stack alone: with the heap moved too it executed other code",
            shifts.join(", ")
        );
        writeln!(out, "  {:<18}{line}", "Layout spread:")?;
    }
    for why in &spread.left_out {
        writeln!(out, "  {:<18}left out: {why}", "Layout spread:")?;
    }
    if spread.ranges.is_empty() {
        let line = "no metric that follows layout was collected (the cache simulation is off)";
        writeln!(out, "  {:<18}{line}", "Layout spread:")?;
    }
    for (kind, _) in new.shown_by_default() {
        let Some((min, max)) = spread.range(kind) else {
            continue;
        };
        let mut line = format!(
            "Spread of {}: {min}..{max} ({})",
            style.label(kind),
            max - min
        );
        if let Some(o) = old.and_then(|o| o.get(kind)) {
            let verdict = if spread.within(kind, o) {
                "within layout spread"
            } else {
                "outside layout spread"
            };
            line.push_str(&format!("; the old {o} is {verdict}"));
        }
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// Each thread's and process's counts (`separate_threads`), under the total: a line naming the
/// part, then its metrics compared with the same part of the old run.
fn parts(out: &mut dyn Write, style: Style, result: &BenchResult) -> io::Result<()> {
    let processes = result.parts.iter().map(|p| p.process).max().unwrap_or(0);
    for part in &result.parts {
        let mut name = format!("## thread {}", part.thread);
        if processes > 1 || part.process > 1 {
            name = format!(
                "## process {} (pid {}) thread {}",
                part.process, part.pid, part.thread
            );
        }
        if part.thread == 1 && !part.command.is_empty() && (processes > 1 || part.process > 1) {
            name.push_str(&format!(": {}", part.command));
        }
        writeln!(out, "  {}", style.paint("2", &name))?;
        let format = result.view.callgrind.as_deref();
        metrics(out, style, format, &part.new, part.old.as_ref())?;
    }
    Ok(())
}

/// The warnings of a benchmark and the fields in which the machine of its old values differs.
fn notes(out: &mut dyn Write, style: Style, result: &BenchResult) -> io::Result<()> {
    for warning in &result.warnings {
        writeln!(out, "  {} {warning}", style.paint("1;33", "Warning:"))?;
    }
    if let Some(why) = &result.uncompared {
        writeln!(out, "  {} {why}", style.paint("1;33", "Uncompared:"))?;
    }
    let compared_with = result.old_source.describe();
    if let Some(text) = crate::fingerprint::describe(&result.machine, &compared_with) {
        writeln!(out, "  {} {text}", style.paint("1;33", "Machine:"))?;
    }
    Ok(())
}

/// How the report looks: colors, the names of the metric lines, a benchmark's grid and
/// tolerance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// ANSI colors on.
    pub color: bool,
    /// iai-callgrind's metric names (`L2 Hits`) or benchgrind's (`LL Hits`).
    pub labels: Labels,
    /// Grid marks: `|-` before a metric line, `|=` before a tool's title.
    pub grid: bool,
    /// Changes within this many percent either way show as `(Tolerance)`.
    pub tolerance: Option<f64>,
}

impl Style {
    /// Colors as asked (always, never, or when stdout is a terminal), with these labels.
    pub fn new(color: Color, labels: Labels) -> Style {
        let color = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => std::io::stdout().is_terminal(),
        };
        Style {
            color,
            labels,
            grid: false,
            tolerance: None,
        }
    }

    /// The start of a metric line.
    fn indent(self) -> &'static str {
        if self.grid {
            "|-"
        } else {
            "  "
        }
    }

    /// The name of a metric's line.
    fn label(self, kind: EventKind) -> &'static str {
        match self.labels {
            Labels::IaiCallgrind => kind.label(),
            Labels::Benchgrind => kind.benchgrind_label(),
        }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// Writes the header line `<file>::<group>::<function> <id>:<args>`.
pub fn header(out: &mut dyn Write, style: Style, path: &str, id_and_args: &str) -> io::Result<()> {
    let path = style.paint("1;32", path);
    if id_and_args.is_empty() {
        writeln!(out, "{path}")
    } else {
        writeln!(out, "{path} {}", style.paint("36", id_and_args))
    }
}

/// Writes one line per metric of `new`, each compared with the same metric of `old`: those of
/// `format` in its order (a metric the run lacks is left out; rates in percent), or without
/// one the metrics shown by default.
pub fn metrics(
    out: &mut dyn Write,
    style: Style,
    format: Option<&[EventKind]>,
    new: &Metrics,
    old: Option<&Metrics>,
) -> io::Result<()> {
    let Some(format) = format else {
        for (kind, value) in new.shown_by_default() {
            let old_value = old.and_then(|o| o.get(kind));
            metric_line(
                out,
                style,
                style.label(kind),
                Value::Count(value, old_value),
            )?;
        }
        return Ok(());
    };
    for &kind in format {
        let value = if kind.is_rate() {
            new.rate(kind)
                .map(|v| Value::Rate(v, old.and_then(|o| o.rate(kind))))
        } else {
            new.get(kind)
                .map(|v| Value::Count(v, old.and_then(|o| o.get(kind))))
        };
        if let Some(value) = value {
            metric_line(out, style, style.label(kind), value)?;
        }
    }
    Ok(())
}

/// A metric's new and old value: a count, or a rate in percent.
#[derive(Debug, Clone, Copy)]
enum Value {
    Count(u64, Option<u64>),
    Rate(f64, Option<f64>),
}

/// One `label: new|old (change)` line; a rate has five decimals and a `%`.
fn metric_line(out: &mut dyn Write, style: Style, label: &str, value: Value) -> io::Result<()> {
    let label = format!("{label}:");
    let (new_text, old_text, change) = match value {
        Value::Count(new, old) => (
            new.to_string(),
            old.map(|v| v.to_string()),
            change(new, old),
        ),
        Value::Rate(new, old) => (
            format!("{new:.5}%"),
            old.map(|v| format!("{v:.5}%")),
            change_f64(new, old),
        ),
    };
    let old_text = old_text.unwrap_or_else(|| "N/A".to_owned());
    let change = if within_tolerance(change, style.tolerance) {
        style.paint("90", "(Tolerance)")
    } else {
        change_text(style, change)
    };
    let value = style.paint("1", &format!("{new_text:>15}"));
    let indent = style.indent();
    writeln!(out, "{indent}{label:<18}{value}|{old_text:<16}{change}")
}

/// Another tool's part: a rule with its name, its metrics (those of `format` in its order, if
/// given), and its failure or limits.
fn tool_section(
    out: &mut dyn Write,
    style: Style,
    view: &View,
    tool: &ToolResult,
) -> io::Result<()> {
    let format = view.tools.iter().find(|(k, _)| *k == tool.tool);
    let format = format.map(|(_, f)| &f[..]);
    let title = format!("======= {} ", tool.tool.title().to_uppercase());
    let line = format!("  {title:=<50}");
    if style.grid {
        // `|=` takes the place of the indent and the first `=`.
        writeln!(out, "|={}", &line[3..])?;
    } else {
        writeln!(out, "{line}")?;
    }
    let (new, old) = match &tool.outcome {
        ToolOutcome::Ran { new, old } => (Some(new), old.as_ref()),
        ToolOutcome::Failed { new, .. } => (new.as_ref(), None),
    };
    if let Some(events) = &tool.events {
        metrics(
            out,
            style,
            view.cachegrind.as_deref(),
            &events.new,
            events.old.as_ref(),
        )?;
    }
    let all: Vec<ToolMetric> = new
        .iter()
        .flat_map(|n| &n.values)
        .map(|(m, _)| *m)
        .collect();
    for &metric in format.unwrap_or(&all) {
        let Some(value) = new.and_then(|n| n.get(metric)) else {
            continue;
        };
        let old_value = old.and_then(|o| o.get(metric));
        metric_line(out, style, metric.label(), Value::Count(value, old_value))?;
    }
    match &tool.outcome {
        ToolOutcome::Failed { reason, .. } => {
            writeln!(out, "  {} {reason}", style.paint("1;31", "FAILED:"))?;
            writeln!(out, "  log: {}", tool.log.display())?;
        }
        ToolOutcome::Ran { .. } => {
            if let Some(file) = &tool.out {
                writeln!(out, "  out: {}", file.display())?;
            }
        }
    }
    for line in tool.regression_lines() {
        let line = format!("Performance has regressed: {line}");
        writeln!(out, "  {}", style.paint("1;31", &line))?;
    }
    Ok(())
}

/// Linux perf's statistics: per metric the new mean, its spread and samples, those compared
/// with, and the change with its significance.
fn perf_section(
    out: &mut dyn Write,
    style: Style,
    perf: &crate::result::PerfResult,
) -> io::Result<()> {
    let line = format!("  {:=<50}", "======= PERF ");
    if style.grid {
        writeln!(out, "|={}", &line[3..])?;
    } else {
        writeln!(out, "{line}")?;
    }
    if let Some(rounds) = perf.paired_rounds {
        writeln!(
            out,
            "  perf: base and head sampled in turns, {rounds} rounds, compared round by round \
             (the old side is the base)"
        )?;
    }
    for m in &perf.metrics {
        let side = |s: &crate::perf::stats::Summary| m.describe(s);
        let old = m.old.as_ref().map_or("N/A".to_owned(), side);
        let change = match (m.change_pct(), m.p_value) {
            (None, _) => style.paint("90", "(*********)"),
            (Some(pct), Some(p)) if m.significant => {
                style.paint("1;33", &format!("({pct:+.2}%, p={p:.4}: significant)"))
            }
            (Some(pct), Some(p)) => {
                style.paint("90", &format!("({pct:+.2}%, p={p:.4}: not significant)"))
            }
            (Some(_), None) if m.interval.is_some() => {
                let pct = m.interval.map_or(0.0, |i| i.pct);
                style.paint("90", &format!("({pct:+.2}%, in turns)"))
            }
            (Some(pct), None) => style.paint("90", &format!("({pct:+.2}%, too few samples)")),
        };
        let label = format!("{}:", m.name);
        writeln!(
            out,
            "{}{label:<18}{:>32}|{old:<32} {change}{}",
            style.indent(),
            side(&m.new),
            verdict_text(style, m)
        )?;
    }
    if let Some(reason) = &perf.failed {
        writeln!(out, "  {} perf: {reason}", style.paint("1;31", "FAILED:"))?;
    }
    for note in &perf.notes {
        writeln!(out, "  perf: {note}")?;
    }
    for line in &perf.regressions {
        let line = format!("Performance has regressed: perf {line}");
        writeln!(out, "  {}", style.paint("1;31", &line))?;
    }
    Ok(())
}

/// A perf metric's verdict and the interval it rests on, after its change: ` slower
/// [+3.10%, +13.20%] ±5%`; empty where nothing was compared.
fn verdict_text(style: Style, m: &crate::result::PerfMetricResult) -> String {
    use crate::compare::perf::Verdict;
    let (Some(verdict), Some(i)) = (m.verdict, m.interval) else {
        return String::new();
    };
    let colour = match verdict {
        Verdict::Slower => "1;31",
        Verdict::Faster => "1;32",
        Verdict::Unchanged => "90",
        Verdict::Inconclusive => "1;33",
    };
    let bounds = if i.low.is_finite() && i.high.is_finite() {
        format!("[{:+.2}%, {:+.2}%]", i.low, i.high)
    } else {
        "[unbounded]".to_owned()
    };
    format!(
        " {} {bounds} ±{}%",
        style.paint(colour, verdict.name()),
        m.margin_pct
    )
}

fn change_text(style: Style, change: Change) -> String {
    match change {
        Change::NoOld => style.paint("90", "(*********)"),
        Change::Same => style.paint("90", "(No change)"),
        Change::Diff { pct, factor } => {
            let code = if pct > 0.0 { "31" } else { "32" };
            let pct = if pct.is_infinite() {
                "+++inf+++".to_owned()
            } else {
                format!("{}%", signed_sig6(pct))
            };
            let factor = if factor.is_infinite() {
                if factor > 0.0 {
                    "+++inf+++".to_owned()
                } else {
                    "---inf---".to_owned()
                }
            } else {
                format!("{}x", signed_sig6(factor))
            };
            format!(
                "{} {}",
                style.paint(code, &format!("({pct})")),
                style.paint(code, &format!("[{factor}]"))
            )
        }
    }
}

/// A signed number with six significant digits, trailing zeros kept: `+61.8003`, `-1.09574`.
fn signed_sig6(value: f64) -> String {
    let magnitude = value.abs();
    let int_digits = if magnitude < 1.0 {
        1
    } else {
        magnitude.log10().floor() as i32 + 1
    };
    let decimals = (6 - int_digits).max(0) as usize;
    let sign = if value < 0.0 { '-' } else { '+' };
    format!("{sign}{magnitude:.decimals$}")
}

#[cfg(test)]
#[path = "terminal_tests.rs"]
mod tests;
