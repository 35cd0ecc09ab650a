//! The terminal table: one line per benchmark row and metric, widths fitted to the content,
//! changes colored the same way in both directions (red worse, green better, yellow changed with
//! no known direction, plain within 5%), significant p-values in bold.

use std::io::{self, Write};

use super::{
    format_change, format_p, format_value, notes, rows, verdict, Reporter, Style, Verdict,
};
use crate::compare::diff::Comparison;
use crate::compare::threshold::Violation;

/// ANSI: worse.
const RED: &str = "\x1b[31m";
/// ANSI: better.
const GREEN: &str = "\x1b[32m";
/// ANSI: changed, direction unknown.
const YELLOW: &str = "\x1b[33m";
/// ANSI: a significant p-value.
const BOLD: &str = "\x1b[1m";
/// ANSI: back to plain.
const RESET: &str = "\x1b[0m";

/// The terminal table.
pub struct Terminal {
    /// Colors and repetition rows.
    pub style: Style,
}

impl Reporter for Terminal {
    fn write(
        &self,
        cmp: &Comparison,
        violations: &[Violation],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "Comparing {} to {}", cmp.old_label, cmp.new_label)?;
        let rows = rows(cmp, self.style.repetitions);
        let cells: Vec<[String; 6]> = rows
            .iter()
            .map(|r| {
                [
                    r.label(),
                    r.metric.name.clone(),
                    format_value(r.metric.unit, r.change.old),
                    format_value(r.metric.unit, r.change.new),
                    format_change(r.change.change),
                    format_p(r.utest),
                ]
            })
            .collect();
        let header = ["Benchmark", "Metric", "Old", "New", "Change", "p-value"].map(String::from);
        let mut widths = header.clone().map(|h| h.len());
        for row in &cells {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        write_line(out, &header, &widths, ["", "", "", "", "", ""])?;
        writeln!(out, "{}", "-".repeat(widths.iter().sum::<usize>() + 2 * 5))?;
        let mut previous_label = String::new();
        for (row, mut line) in rows.iter().zip(cells) {
            // The label once per group of metrics, as the eye reads a block.
            if line[0] == previous_label {
                line[0].clear();
            } else {
                previous_label.clone_from(&line[0]);
            }
            let change_color = match (
                self.style.color,
                verdict(row.metric.better, row.change.change),
            ) {
                (false, _) | (_, Verdict::Same) => "",
                (true, Verdict::Worse) => RED,
                (true, Verdict::Better) => GREEN,
                (true, Verdict::Changed) => YELLOW,
            };
            let p_color = match row.utest {
                Some(u) if self.style.color && u.significant => BOLD,
                _ => "",
            };
            write_line(out, &line, &widths, ["", "", "", "", change_color, p_color])?;
        }
        if rows.is_empty() {
            writeln!(
                out,
                "(no benchmark is present and successful on both sides)"
            )?;
        }
        let notes = notes(cmp, violations);
        if !notes.is_empty() {
            writeln!(out)?;
        }
        for note in notes {
            let color = if self.style.color && note.starts_with("FAIL") {
                RED
            } else {
                ""
            };
            let reset = if color.is_empty() { "" } else { RESET };
            writeln!(out, "{color}{note}{reset}")?;
        }
        Ok(())
    }
}

/// Writes one aligned line: the first two columns left-aligned, the numbers right-aligned.
fn write_line(
    out: &mut dyn Write,
    cells: &[String; 6],
    widths: &[usize; 6],
    colors: [&str; 6],
) -> io::Result<()> {
    let mut line = String::new();
    for (i, ((cell, width), color)) in cells.iter().zip(widths).zip(colors).enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
        let (left, right) = if i < 2 {
            ("", pad.as_str())
        } else {
            (pad.as_str(), "")
        };
        let reset = if color.is_empty() { "" } else { RESET };
        line.push_str(&format!("{left}{color}{cell}{reset}{right}"));
    }
    writeln!(out, "{}", line.trim_end())
}
