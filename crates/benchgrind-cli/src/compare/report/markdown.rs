//! A GitHub-flavoured Markdown report: a heading, one table, the notes as a list. Meant for
//! pull-request comments, so it has no colors; worse and better changes are marked in words.

use std::io::{self, Write};

use super::{
    format_change, format_p, format_value, notes, rows, verdict, Reporter, Style, Verdict,
};
use crate::compare::diff::Comparison;
use crate::compare::threshold::Violation;

/// The Markdown report.
pub struct Markdown {
    /// Whether repetition rows are shown (colors do not apply).
    pub style: Style,
}

impl Reporter for Markdown {
    fn write(
        &self,
        cmp: &Comparison,
        violations: &[Violation],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(
            out,
            "### benchgrind compare: `{}` vs `{}`\n",
            code(&cmp.old_label),
            code(&cmp.new_label)
        )?;
        writeln!(out, "| Benchmark | Metric | Old | New | Change | p-value |")?;
        writeln!(out, "|:--|:--|--:|--:|--:|--:|")?;
        for row in rows(cmp, self.style.repetitions) {
            let mark = match verdict(row.metric.better, row.change.change) {
                Verdict::Same => "",
                Verdict::Worse => " (worse)",
                Verdict::Better => " (better)",
                Verdict::Changed => " (changed)",
            };
            writeln!(
                out,
                "| `{}` | {} | {} | {} | {}{mark} | {} |",
                code(&row.label()),
                cell(&row.metric.name),
                format_value(row.metric.unit, row.change.old),
                format_value(row.metric.unit, row.change.new),
                format_change(row.change.change),
                format_p(row.utest),
            )?;
        }
        let notes = notes(cmp, violations);
        if !notes.is_empty() {
            writeln!(out)?;
        }
        for note in notes {
            writeln!(out, "- {}", cell(&note))?;
        }
        Ok(())
    }
}

/// Text inside a table cell: pipes would end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// Text inside backticks in a table cell: no backticks, no pipes.
fn code(text: &str) -> String {
    cell(&text.replace('`', "'"))
}
