//! `--output-format=markdown`: a pull-request comment, printed at the end of the run: how many
//! benchmarks improved, regressed, stayed, came (and failed), a table of them, and for every
//! benchmark whose counts changed a collapsible block with the functions that changed them
//! (`--explain`) and the path of its differential flamegraph. Rendered by
//! [`crate::explain::markdown`], as `benchgrind explain --output-format=markdown` is.

use std::io::{self, Write};
use std::path::PathBuf;

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use crate::config::EventKind;
use crate::explain::markdown::{render, Entry, Outcome};
use crate::explain::Explanation;
use crate::result::{tool_failure, BenchResult, Outcome as BenchOutcome};

/// Functions per benchmark in the comment, and source lines under each.
const TOP: usize = 10;
const LINES: usize = 3;

/// Collects the results and prints the comment at the end.
#[derive(Default)]
pub struct Markdown {
    rows: Vec<Row>,
}

/// What the comment needs of one benchmark.
struct Row {
    id: String,
    outcome: Kept,
    flamegraph: Option<String>,
    limits: Option<String>,
}

/// [`Outcome`] with owned data.
enum Kept {
    Explained(Explanation),
    Measured(EventKind, u64, u64),
    New(Option<u64>),
    Failed(String),
}

impl Reporter for Markdown {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        write_output(out, &result.output, true)?;
        let outcome = match (&result.outcome, tool_failure(&result.tools)) {
            (BenchOutcome::Failed { reason }, _) => Kept::Failed(reason.clone()),
            (_, Some((reason, _))) => Kept::Failed(reason),
            (BenchOutcome::Measured { new, old }, None) => match &result.explained {
                Some(x) => Kept::Explained(x.explanation.clone()),
                None => {
                    let k = EventKind::Ir;
                    match (new.get(k), old.as_ref().and_then(|o| o.get(k))) {
                        (Some(new), Some(old)) => Kept::Measured(k, old, new),
                        (new, _) => Kept::New(new),
                    }
                }
            },
        };
        let rank = match &outcome {
            Kept::Explained(e) => e.rank_metric(),
            _ => EventKind::Ir,
        };
        let diff = format!("callgrind.{}.diff.flamegraph.svg", rank.name());
        let flamegraph = result
            .flamegraphs
            .iter()
            .find(|p| p.file_name().is_some_and(|n| n == diff.as_str()))
            .map(|p: &PathBuf| p.display().to_string());
        let limits: Vec<String> = result.regressions.iter().map(|r| r.describe()).collect();
        self.rows.push(Row {
            id: result.id.full(),
            outcome,
            flamegraph,
            limits: (!limits.is_empty()).then(|| limits.join("; ")),
        });
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        let entries: Vec<Entry> = self
            .rows
            .iter()
            .map(|row| Entry {
                id: &row.id,
                outcome: match &row.outcome {
                    Kept::Explained(e) => Outcome::Compared(e),
                    &Kept::Measured(metric, old, new) => Outcome::Measured { metric, old, new },
                    &Kept::New(Some(new)) => Outcome::First {
                        metric: EventKind::Ir,
                        new,
                    },
                    Kept::New(None) => Outcome::New,
                    Kept::Failed(reason) => Outcome::Failed(reason),
                },
                flamegraph: row.flamegraph.as_deref(),
                limits: row.limits.as_deref(),
            })
            .collect();
        write!(out, "{}", render(&entries, TOP, LINES))?;
        write_tally(&mut io::stderr(), summary)
    }
}
