//! `--output-format=markdown`: one table for a pull-request comment, printed at the end.

use std::io::{self, Write};

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use crate::compare::{change, Change};
use crate::config::EventKind;
use crate::result::{BenchResult, Outcome};

/// Collects the results and prints them as a Markdown table.
#[derive(Default)]
pub struct Markdown {
    rows: Vec<String>,
}

fn cell(new: Option<u64>, old: Option<u64>) -> (String, String) {
    let Some(new) = new else {
        return ("".into(), "".into());
    };
    let change = match change(new, old) {
        Change::NoOld => "new".to_owned(),
        Change::Same => "no change".to_owned(),
        Change::Diff { pct, .. } if pct.is_finite() => format!("{pct:+.2}%"),
        Change::Diff { .. } => "+inf".to_owned(),
    };
    (new.to_string(), change)
}

impl Reporter for Markdown {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        write_output(out, &result.output, true)?;
        let name = format!("`{}`", result.id.full());
        let row = match &result.outcome {
            Outcome::Failed { reason } => {
                format!(
                    "| {name} | | | | | failed: {} |",
                    reason.replace('|', "\\|")
                )
            }
            Outcome::Measured { new, old } => {
                let get = |k| (new.get(k), old.as_ref().and_then(|o| o.get(k)));
                let (ir, ir_change) = cell(get(EventKind::Ir).0, get(EventKind::Ir).1);
                let (cycles, cycles_change) = cell(
                    get(EventKind::EstimatedCycles).0,
                    get(EventKind::EstimatedCycles).1,
                );
                let status = if let Some((reason, _)) = crate::result::tool_failure(&result.tools) {
                    format!("failed: {}", reason.replace('|', "\\|"))
                } else if result.regressions.is_empty() {
                    "ok".to_owned()
                } else {
                    let names: Vec<_> =
                        result.regressions.iter().map(|r| r.metric.name()).collect();
                    format!("**regressed** ({})", names.join(", "))
                };
                format!("| {name} | {ir} | {ir_change} | {cycles} | {cycles_change} | {status} |")
            }
        };
        self.rows.push(row);
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        writeln!(
            out,
            "| Benchmark | Instructions | Change | Estimated Cycles | Change | Status |"
        )?;
        writeln!(out, "|---|---:|---:|---:|---:|---|")?;
        for row in &self.rows {
            writeln!(out, "{row}")?;
        }
        write_tally(&mut io::stderr(), summary)
    }
}
