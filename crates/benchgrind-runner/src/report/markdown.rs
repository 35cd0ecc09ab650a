//! `--output-format=markdown`: a pull-request comment, printed at the end of the run: how many
//! benchmarks improved, regressed, stayed, came (and failed), a table of them, and for every
//! benchmark whose counts changed a collapsible block with the functions that changed them
//! (`--explain`) and the path of its differential flamegraph. Rendered by
//! [`crate::explain::markdown`], as `benchgrind explain --output-format=markdown` is.

use std::io::{self, Write};
use std::path::PathBuf;

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use crate::config::EventKind;
use crate::explain::markdown::{render, Entry, Finding};
use crate::explain::Explanation;
use crate::fingerprint::Fingerprint;
use crate::result::{other_failure, BenchResult, Outcome};

/// Functions per benchmark in the comment, and source lines under each.
const TOP: usize = 10;
const LINES: usize = 3;

/// Collects the results and prints the comment at the end.
#[derive(Default)]
pub struct Markdown {
    rows: Vec<Row>,
    /// `(id, why)` of each benchmark without a baseline of its own machine and revision.
    uncompared: Vec<(String, String)>,
    /// The machines and revisions of each side: `(side, fingerprint)`, each once.
    sides: Vec<(String, Fingerprint)>,
    /// When each reused benchmark's results were measured.
    reused: Vec<crate::dates::UtcDate>,
    /// perf's statistics of each benchmark perf sampled: `(id, result)`.
    perf: Vec<(String, crate::result::PerfResult)>,
}

/// What the comment needs of one benchmark.
struct Row {
    id: String,
    outcome: Kept,
    flamegraph: Option<String>,
    limits: Option<String>,
    layout_only: bool,
}

/// [`Finding`] with owned data.
enum Kept {
    Explained(Explanation),
    Measured(EventKind, u64, u64),
    New(Option<u64>),
    Failed(String),
}

impl Reporter for Markdown {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        write_output(out, &result.output, true)?;
        let outcome = match (&result.outcome, other_failure(result)) {
            (Outcome::Failed { reason }, _) => Kept::Failed(reason.clone()),
            (_, Some((reason, _))) => Kept::Failed(reason),
            (Outcome::Measured { new, old }, None) => match &result.explained {
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
        let mut limits: Vec<String> = result.regressions.iter().map(|r| r.describe()).collect();
        if let Some(perf) = &result.perf {
            limits.extend(perf.regressions.iter().map(|r| format!("perf {r}")));
            self.perf.push((result.id.full(), perf.clone()));
        }
        if let Some(why) = &result.uncompared {
            self.uncompared.push((result.id.full(), why.clone()));
        }
        self.reused.extend(result.reuse.reused());
        let sides = [
            (result.old_source.describe(), &result.old_fingerprint),
            (result.new_source.describe(), &result.fingerprint),
        ];
        for (side, fingerprint) in sides {
            let Some(fingerprint) = fingerprint.clone() else {
                continue;
            };
            let side = if side == "run" {
                "this run".to_owned()
            } else {
                side
            };
            if !self.sides.iter().any(|s| s.0 == side && s.1 == fingerprint) {
                self.sides.push((side, fingerprint));
            }
        }
        self.rows.push(Row {
            id: result.id.full(),
            outcome,
            flamegraph,
            limits: (!limits.is_empty()).then(|| limits.join("; ")),
            layout_only: result.layout_only.is_some(),
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
                    Kept::Explained(e) => Finding::Compared(e),
                    &Kept::Measured(metric, old, new) => Finding::Measured { metric, old, new },
                    &Kept::New(Some(new)) => Finding::First {
                        metric: EventKind::Ir,
                        new,
                    },
                    Kept::New(None) => Finding::New,
                    Kept::Failed(reason) => Finding::Failed(reason),
                },
                flamegraph: row.flamegraph.as_deref(),
                limits: row.limits.as_deref(),
                layout_only: row.layout_only,
            })
            .collect();
        write!(out, "{}", render(&entries, TOP, LINES))?;
        write!(out, "{}", uncompared(&self.uncompared))?;
        write!(out, "{}", reused(&self.reused, self.rows.len()))?;
        write!(out, "{}", perf_table(&self.perf))?;
        write!(out, "{}", provenance(&self.sides))?;
        write_tally(&mut io::stderr(), summary)
    }
}

/// perf's section: per benchmark and metric the new and old mean ± standard deviation (samples)
/// and the change with its p-value; empty when perf sampled nothing.
pub fn perf_table(rows: &[(String, crate::result::PerfResult)]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n### perf: time on this machine\n\nMeans ± standard deviation (n: samples); a change \
         counts where Welch's t-test finds it significant. The verdict: the change's interval \
         wholly past the margin (faster, slower), wholly inside it (unchanged), or neither \
         (inconclusive).\n\n\
         | Benchmark | Metric | New | Old | Change | Verdict |\n|---|---|---:|---:|---|---|\n",
    );
    for (id, perf) in rows {
        if let Some(why) = &perf.failed {
            out += &format!("| `{id}` | | failed: {} | | | |\n", why.replace('|', "\\|"));
        }
        for m in &perf.metrics {
            let side = |s: &crate::perf::stats::Summary| m.describe(s);
            let old = m.old.as_ref().map_or("".to_owned(), side);
            let change = match (m.change_pct(), m.p_value) {
                (Some(c), Some(p)) if m.significant => format!("**{c:+.2}%** (p = {p:.4})"),
                (Some(c), Some(p)) => format!("{c:+.2}% (p = {p:.4}, not significant)"),
                (Some(_), None) if perf.paired_rounds.is_some() => {
                    let rounds = perf.paired_rounds.unwrap_or(0);
                    let pct = m.interval.map_or(0.0, |i| i.pct);
                    format!("{pct:+.2}% (in turns, {rounds} rounds)")
                }
                (Some(c), None) => format!("{c:+.2}% (too few samples)"),
                (None, _) => "new".to_owned(),
            };
            let verdict = match (m.verdict, m.interval) {
                (Some(v), Some(i)) if i.low.is_finite() && i.high.is_finite() => {
                    format!("{v} [{:+.2}%, {:+.2}%] ±{}%", i.low, i.high, m.margin_pct)
                }
                (Some(v), _) => format!("{v} ±{}%", m.margin_pct),
                (None, _) => String::new(),
            };
            out += &format!(
                "| `{id}` | {} | {} | {old} | {change} | {verdict} |\n",
                m.name,
                side(&m.new)
            );
        }
    }
    out
}

/// The line that says how many benchmarks were not run because their inputs were unchanged, and
/// since when; empty when none was.
pub fn reused(measured_at: &[crate::dates::UtcDate], of: usize) -> String {
    let Some(earliest) = measured_at.iter().min() else {
        return String::new();
    };
    format!(
        "\n{} of {of} benchmarks reused: every input in their records was unchanged since they \
         were measured (the earliest {earliest}), so their results are those of then.\n",
        measured_at.len()
    )
}

/// The section that lists the benchmarks without a baseline of their own machine and revision:
/// their changes are not known. Empty when there are none.
pub fn uncompared(rows: &[(String, String)]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut md = format!(
        "\n### {} uncompared\n\nNo baseline of this machine and revision: a change of these is \
         not known.\n\n| benchmark | why |\n|---|---|\n",
        rows.len()
    );
    for (id, why) in rows {
        md.push_str(&format!("| `{id}` | {} |\n", why.replace('|', "\\|")));
    }
    md
}

/// What was compared with what: each side's revision, benchgrind version and machine, the
/// fields that differ from the first side in bold. Empty when no side is known.
pub fn provenance(sides: &[(String, Fingerprint)]) -> String {
    let Some((_, first)) = sides.first() else {
        return String::new();
    };
    let mut md = String::from(
        "\n### Compared\n\n| side | revision | benchgrind | valgrind | cpu | glibc | rustc | \
         target |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (side, f) in sides {
        let differs: Vec<&str> = f.differences(first).iter().map(|d| d.field).collect();
        let value = |field: &str, text: &str| {
            // The CPU's parts are joined by " | " in the fingerprint; "; " reads better in a cell.
            let text = if text.is_empty() { "?" } else { text }
                .replace(" | ", "; ")
                .replace('|', "\\|");
            if differs.contains(&field) {
                format!("**{text}**")
            } else {
                text
            }
        };
        let revision = if f.revision.is_empty() {
            "?".to_owned()
        } else {
            format!("`{}`", &f.revision[..f.revision.len().min(12)])
        };
        md.push_str(&format!(
            "| {side} | {revision} | {} | {} | {} | {} | {} | {} |\n",
            value("", &f.benchgrind),
            value("valgrind", &f.valgrind),
            value("cpu", &f.cpu),
            value("glibc", &f.glibc),
            value("rustc", &f.rustc),
            value("target", &f.target),
        ));
    }
    md
}
