//! Writing a [`Comparison`]: one [`Reporter`] per output format, each in its own file and
//! writing into a `&mut dyn Write`; here, what they share (the trait, rows, number formatting,
//! notes). The caller picks the reporter for the `--format` given.

pub mod csv;
pub mod json;
pub mod markdown;
pub mod terminal;

use std::io::{self, Write};

use super::compare_py::{Difference, Row as PyRow};
use super::diff::{Change, Comparison, MetricDiff, SummaryOf, UTest, GEOMEAN_NAME};
use super::model::{Better, Unit};
use super::threshold::Violation;

/// An output format.
pub trait Reporter {
    /// Writes the comparison and the threshold outcome into `out`.
    fn write(
        &self,
        cmp: &Comparison,
        violations: &[Violation],
        out: &mut dyn Write,
    ) -> io::Result<()>;
}

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned table for people, optionally colored.
    Terminal,
    /// Versioned JSON with every number (schema: `schemas/compare.v1.schema.json`).
    Json,
    /// A GitHub-flavoured Markdown table, for pull-request comments.
    Markdown,
    /// One row per benchmark, row and metric, raw numbers.
    Csv,
}

impl Format {
    /// Parses a `--format` value.
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "terminal" | "table" => Format::Terminal,
            "json" => Format::Json,
            "markdown" | "md" => Format::Markdown,
            "csv" => Format::Csv,
            _ => return None,
        })
    }
}

/// How the text formats show rows.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colors (terminal only).
    pub color: bool,
    /// Show each repetition pair, not just the summary rows.
    pub repetitions: bool,
}

/// What a row of the text formats stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// One repetition pair (index).
    Repetition(usize),
    /// A benchmark's summary (its only pair, or the medians).
    Summary,
    /// The overall geometric mean.
    Geomean,
}

/// One line of a table: a benchmark label, a metric, a change and maybe a p-value.
pub struct Row<'a> {
    /// The benchmark's name as matched.
    pub benchmark: &'a str,
    /// What the row stands for.
    pub kind: RowKind,
    /// The metric.
    pub metric: &'a MetricDiff,
    /// The values and change shown.
    pub change: Change,
    /// The U test, on summary rows that have one.
    pub utest: Option<UTest>,
}

impl Row<'_> {
    /// The text of the benchmark column: `name`, `name #3`, `name median`.
    pub fn label(&self) -> String {
        match (self.kind, self.metric.summary_of) {
            (RowKind::Repetition(i), _) => format!("{} #{i}", self.benchmark),
            (RowKind::Summary, SummaryOf::Median) => format!("{} median", self.benchmark),
            _ => self.benchmark.to_string(),
        }
    }
}

/// The rows of the text formats: per benchmark, its repetition pairs (if shown) and then its
/// summary, metric by metric; the geomean lines last.
pub fn rows(cmp: &Comparison, repetitions: bool) -> Vec<Row<'_>> {
    let mut out = Vec::new();
    for bench in &cmp.benchmarks {
        let has_reps = bench.metrics.iter().any(|m| !m.repetitions.is_empty());
        if repetitions && has_reps {
            let count = bench.metrics.iter().map(|m| m.repetitions.len()).max();
            for i in 0..count.unwrap_or(0) {
                for metric in &bench.metrics {
                    if let Some(change) = metric.repetitions.get(i) {
                        out.push(Row {
                            benchmark: &bench.label,
                            kind: RowKind::Repetition(i),
                            metric,
                            change: *change,
                            utest: None,
                        });
                    }
                }
            }
        }
        for metric in &bench.metrics {
            out.push(Row {
                benchmark: &bench.label,
                kind: RowKind::Summary,
                metric,
                change: metric.summary,
                utest: metric.utest,
            });
        }
    }
    for metric in &cmp.geomean {
        out.push(Row {
            benchmark: GEOMEAN_NAME,
            kind: RowKind::Geomean,
            metric,
            change: metric.summary,
            utest: None,
        });
    }
    out
}

/// A value with its unit, to four significant digits: `12.35 ns`, `1.502 us`, `6.631 G/s`.
pub fn format_value(unit: Unit, v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    match unit {
        Unit::Nanoseconds => scaled(v, &[(1e9, "s"), (1e6, "ms"), (1e3, "us"), (1.0, "ns")]),
        Unit::PerSecond => scaled(
            v,
            &[
                (1e12, "T/s"),
                (1e9, "G/s"),
                (1e6, "M/s"),
                (1e3, "k/s"),
                (1.0, "/s"),
            ],
        ),
        Unit::Fraction => format!("{}%", four_digits(v * 100.0)),
        Unit::Count if v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Unit::Count => four_digits(v),
    }
}

/// `v` in the largest unit of `steps` (divisor, suffix) it reaches, to four digits.
fn scaled(v: f64, steps: &[(f64, &str)]) -> String {
    let (div, suffix) = steps
        .iter()
        .find(|(div, _)| v.abs() >= *div)
        .unwrap_or(&steps[steps.len() - 1]);
    format!("{} {suffix}", four_digits(v / div))
}

/// `v` with four significant digits (fewer decimals as it grows).
fn four_digits(v: f64) -> String {
    let a = v.abs();
    let decimals = match a {
        _ if a == 0.0 || a >= 1000.0 => 0,
        _ if a >= 100.0 => 1,
        _ if a >= 10.0 => 2,
        _ if a >= 1.0 => 3,
        _ => return format!("{v:.4}"),
    };
    format!("{v:.decimals$}")
}

/// A change as a signed percentage: `+10.00%`, `-3.25%`, `n/a`.
pub fn format_change(change: Option<f64>) -> String {
    match change {
        Some(c) => format!("{:+.2}%", c * 100.0),
        None => "n/a".into(),
    }
}

/// A p-value to four decimals, as compare.py shows it.
pub fn format_p(utest: Option<UTest>) -> String {
    utest.map_or(String::new(), |u| format!("{:.4}", u.p_value))
}

/// How a change looks next to the metric's better direction, for colors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the band: no color.
    Same,
    /// Better by more than the band.
    Better,
    /// Worse by more than the band.
    Worse,
    /// Changed by more than the band, direction unknown.
    Changed,
}

/// Changes smaller than this (5%, as compare.py's coloring) are shown plain.
const BAND: f64 = 0.05;

/// The verdict on a change; symmetric: the same band both ways.
pub fn verdict(better: Better, change: Option<f64>) -> Verdict {
    let Some(c) = change else {
        return Verdict::Same;
    };
    if c.abs() <= BAND {
        return Verdict::Same;
    }
    match (better, c > 0.0) {
        (Better::Unknown, _) => Verdict::Changed,
        (Better::Lower, true) | (Better::Higher, false) => Verdict::Worse,
        _ => Verdict::Better,
    }
}

/// Plain-text notes under the tables: warnings, unmatched names, failures, threshold results.
pub fn notes(cmp: &Comparison, violations: &[Violation]) -> Vec<String> {
    let mut notes = Vec::new();
    let unreliable: Vec<String> = cmp
        .benchmarks
        .iter()
        .filter_map(|b| {
            let m = b
                .metrics
                .iter()
                .find(|m| m.utest.is_some_and(|u| !u.reliable))?;
            Some(format!("{} ({} vs {})", b.label, m.samples.0, m.samples.1))
        })
        .collect();
    if !unreliable.is_empty() {
        notes.push(format!(
            "warning: U test with fewer than 9 repetitions per side, p-values unreliable: {}",
            unreliable.join(", ")
        ));
    }
    if !cmp.only_old.is_empty() {
        notes.push(format!("only in old: {}", cmp.only_old.join(", ")));
    }
    if !cmp.only_new.is_empty() {
        notes.push(format!("only in new: {}", cmp.only_new.join(", ")));
    }
    for b in &cmp.benchmarks {
        if !b.metrics_only_old.is_empty() {
            notes.push(format!(
                "{}: metrics only in old: {}",
                b.label,
                b.metrics_only_old.join(", ")
            ));
        }
        if !b.metrics_only_new.is_empty() {
            notes.push(format!(
                "{}: metrics only in new: {}",
                b.label,
                b.metrics_only_new.join(", ")
            ));
        }
    }
    for f in &cmp.failures {
        notes.push(format!(
            "failed in {}: {}: {}",
            f.side.as_str(),
            f.name,
            f.message
        ));
    }
    if !cmp.compare_py.is_empty() {
        notes.push("where compare.py's report of these files differs:".into());
    }
    for d in &cmp.compare_py {
        notes.push(format!("  {}", compare_py_note(d)));
    }
    for v in violations {
        notes.push(match v {
            Violation::Worse {
                benchmark,
                metric,
                change,
                limit,
            } => format!(
                "FAIL: {benchmark} {metric} {} is past --fail-above {limit}%",
                format_change(Some(*change))
            ),
            Violation::Failed { benchmark, message } => {
                format!("FAIL: {benchmark} failed in new: {message}")
            }
        });
    }
    notes
}

/// One difference from compare.py as a line: its row, its numbers, why.
fn compare_py_note(d: &Difference) -> String {
    let pair = |f: fn(Option<f64>) -> String| format!("time {}, cpu {}", f(d.time), f(d.cpu));
    let p = |v: Option<f64>| v.map_or("none".into(), |v| format!("{v:.4}"));
    match d.row {
        PyRow::Pair(i) => format!("{} #{i}: {}: {}", d.name, pair(format_change_py), d.reason),
        PyRow::UTest => format!("{}: p {}: {}", d.name, pair(p), d.reason),
        PyRow::Geomean if d.time.is_none() && d.cpu.is_none() => {
            format!("{}: none: {}", d.name, d.reason)
        }
        PyRow::Geomean => format!("{}: {}: {}", d.name, pair(format_change_py), d.reason),
        PyRow::Absent => format!("{}: not in compare.py's report: {}", d.name, d.reason),
    }
}

/// A change of compare.py's as this report shows changes (`none` where it shows nothing).
fn format_change_py(change: Option<f64>) -> String {
    change.map_or("none".into(), |c| format_change(Some(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_have_units_and_four_digits() {
        let cases = [
            (Unit::Nanoseconds, 12.3456, "12.35 ns"),
            (Unit::Nanoseconds, 1502.4, "1.502 us"),
            (Unit::Nanoseconds, 2.5e9, "2.500 s"),
            (Unit::Nanoseconds, 0.5, "0.5000 ns"),
            (Unit::PerSecond, 6.6313e9, "6.631 G/s"),
            (Unit::Count, 1024.0, "1024"),
            (Unit::Count, 27_046_772.0, "27046772"),
            (Unit::Count, 0.125, "0.1250"),
            (Unit::Fraction, 0.0123, "1.230%"),
            (Unit::Count, f64::NAN, "NaN"),
            (Unit::Count, f64::INFINITY, "inf"),
        ];
        for (unit, v, want) in cases {
            assert_eq!(format_value(unit, v), want, "{unit:?} {v}");
        }
        assert_eq!(format_change(Some(0.1)), "+10.00%");
        assert_eq!(format_change(Some(-0.03254)), "-3.25%");
        assert_eq!(format_change(None), "n/a");
    }

    #[test]
    fn verdicts_are_symmetric() {
        let cases = [
            (Better::Lower, Some(0.1), Verdict::Worse),
            (Better::Lower, Some(-0.1), Verdict::Better),
            (Better::Higher, Some(0.1), Verdict::Better),
            (Better::Higher, Some(-0.1), Verdict::Worse),
            (Better::Unknown, Some(-0.1), Verdict::Changed),
            (Better::Lower, Some(0.05), Verdict::Same),
            (Better::Lower, Some(-0.05), Verdict::Same),
            (Better::Lower, None, Verdict::Same),
        ];
        for (better, change, want) in cases {
            assert_eq!(verdict(better, change), want, "{better:?} {change:?}");
        }
    }
}
