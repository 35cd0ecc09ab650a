//! A pull-request comment (GitHub-flavoured Markdown) on a run's changes: a summary of how many
//! benchmarks improved, regressed, stayed, came and went, a table of the benchmarks, and per
//! changed benchmark a collapsible `<details>` block with its attribution and the differential
//! flamegraph.

use std::fmt::Write as _;

use super::model::{Change, Explanation, FunctionChange, Status};
use super::terminal::{short_file, signed};
use crate::config::EventKind;

/// One benchmark of the comment.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// The benchmark's id (`file::group::function::id`).
    pub id: &'a str,
    /// What happened to it.
    pub outcome: Finding<'a>,
    /// A link or path to its differential flamegraph, if there is one.
    pub flamegraph: Option<&'a str>,
    /// The regression limits it passed, if any (`Ir +9.99% > +5%`), shown by its verdict.
    pub limits: Option<&'a str>,
    /// Its change is one of layout alone (the same executed code, other addresses,
    /// [`crate::compare::layout`]): unchanged, said so, and without a details block.
    pub layout_only: bool,
}

/// What happened to a benchmark.
#[derive(Debug, Clone, Copy)]
pub enum Finding<'a> {
    /// In both runs.
    Compared(&'a Explanation),
    /// In both runs, without an attribution (`--explain=never`, or unchanged counts): the
    /// ranking metric's old and new totals.
    Measured {
        /// The metric.
        metric: EventKind,
        /// The old total.
        old: u64,
        /// The new total.
        new: u64,
    },
    /// Only in the new run, with the value of the metric it would be ranked by (a first run).
    First {
        /// The metric.
        metric: EventKind,
        /// Its value.
        new: u64,
    },
    /// It failed: why.
    Failed(&'a str),
    /// Only in the new run.
    New,
    /// Only in the old run.
    Gone,
}

/// The verdict on one benchmark, by its ranking metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Improved,
    Regressed,
    Unchanged,
    New,
    Gone,
    Failed,
}

impl Verdict {
    fn of(outcome: &Finding) -> Verdict {
        match outcome {
            Finding::New | Finding::First { .. } => Verdict::New,
            Finding::Gone => Verdict::Gone,
            Finding::Failed(_) => Verdict::Failed,
            Finding::Compared(_) | Finding::Measured { .. } => match totals(outcome) {
                Some((_, t)) if t.diff() < 0 => Verdict::Improved,
                Some((_, t)) if t.diff() > 0 => Verdict::Regressed,
                _ => Verdict::Unchanged,
            },
        }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::Unchanged => "unchanged",
            Verdict::New => "new",
            Verdict::Gone => "gone",
            Verdict::Failed => "failed",
        }
    }
}

/// The ranking metric and its totals, of a benchmark in both runs.
fn totals(outcome: &Finding) -> Option<(EventKind, Change)> {
    match *outcome {
        Finding::Compared(e) => Some((e.rank_metric(), e.total[e.rank])),
        Finding::Measured { metric, old, new } => Some((metric, Change { old, new })),
        _ => None,
    }
}

/// The comment: summary, table, then a details block per changed benchmark with its first
/// `top` functions and up to `lines` source lines under each.
pub fn render(entries: &[Entry], top: usize, lines: usize) -> String {
    let mut md = String::from("## benchgrind: why the counts changed\n\n");
    let verdicts: Vec<Verdict> = entries.iter().map(|e| Verdict::of(&e.outcome)).collect();
    let all = [
        Verdict::Improved,
        Verdict::Regressed,
        Verdict::Unchanged,
        Verdict::New,
        Verdict::Gone,
        Verdict::Failed,
    ];
    let failed = verdicts.contains(&Verdict::Failed);
    let all = &all[..if failed { all.len() } else { all.len() - 1 }];
    for v in all {
        let _ = write!(md, "| {} ", v.word());
    }
    md.push_str("|\n");
    md.push_str(&"|---:".repeat(all.len()));
    md.push_str("|\n|");
    for &v in all {
        let _ = write!(md, " {} |", verdicts.iter().filter(|&&x| x == v).count());
    }
    md.push_str(
        "\n\n| benchmark | metric | old | new | change | |\n|---|---|---:|---:|---:|---|\n",
    );
    let layout_only = entries.iter().filter(|e| e.layout_only).count();
    if layout_only > 0 {
        let _ = writeln!(
            md,
            "{layout_only} of the unchanged {} layout only: the same code executed the same \
             counts, at other addresses, so only cache metrics moved (limits on those do not \
             fail them unless `--limit-layout` is given).\n",
            if layout_only == 1 { "is" } else { "are" }
        );
    }
    for (entry, verdict) in entries.iter().zip(&verdicts) {
        row(&mut md, entry, *verdict);
    }
    for entry in entries.iter().filter(|e| !e.layout_only) {
        if let Finding::Compared(e) = entry.outcome {
            if e.changed() {
                details(&mut md, entry, e, top, lines);
            }
        }
    }
    md
}

/// The benchmark's line of the table.
fn row(md: &mut String, entry: &Entry, verdict: Verdict) {
    let (metric, old, new, change) = match totals(&entry.outcome) {
        Some((metric, t)) => {
            let pct = if t.old == 0 {
                String::new()
            } else {
                format!(" ({:+.2}%)", t.diff() as f64 * 100.0 / t.old as f64)
            };
            let change = format!("{}{pct}", signed(t.diff()));
            (metric.name(), t.old.to_string(), t.new.to_string(), change)
        }
        None => match entry.outcome {
            Finding::First { metric, new } => {
                (metric.name(), String::new(), new.to_string(), String::new())
            }
            _ => ("", String::new(), String::new(), String::new()),
        },
    };
    let mut what = verdict.word().to_owned();
    if entry.layout_only {
        what.push_str(" (layout only: cache metrics moved, the executed code did not)");
    }
    if let Finding::Failed(reason) = entry.outcome {
        let _ = write!(what, ": {}", cell(reason));
    }
    if let Some(limits) = entry.limits {
        let _ = write!(what, ", **past a limit**: {}", cell(limits));
    }
    let _ = writeln!(
        md,
        "| {} | {metric} | {old} | {new} | {change} | {what} |",
        code(entry.id)
    );
}

/// Plain text for a table cell: on one line, `|` escaped.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

impl Explanation {
    /// The comment for this one benchmark (see [`render`]).
    pub fn to_markdown(
        &self,
        id: &str,
        flamegraph: Option<&str>,
        top: usize,
        lines: usize,
    ) -> String {
        let entry = Entry {
            id,
            outcome: Finding::Compared(self),
            flamegraph,
            limits: None,
            layout_only: false,
        };
        render(&[entry], top, lines)
    }
}

/// The collapsible block of one benchmark.
fn details(md: &mut String, entry: &Entry, e: &Explanation, top: usize, lines: usize) {
    let k = e.rank;
    let t = e.total[k];
    let metric = e.rank_metric().name();
    // A blank line after `<summary>` so that the Markdown inside is parsed as Markdown.
    let _ = write!(
        md,
        "\n<details>\n<summary>{}: {metric} {}</summary>\n\n",
        html(entry.id),
        signed(t.diff())
    );
    md.push_str("| self diff | old self | new self | incl. diff | function | where |\n");
    md.push_str("|---:|---:|---:|---:|---|---|\n");
    let shown = e.functions.len().min(top);
    for f in &e.functions[..shown] {
        function_row(md, f, k);
    }
    let other = e.other(top)[k];
    let rest = e.functions.len() - shown;
    if rest > 0 || other != 0 {
        let _ = writeln!(
            md,
            "| {} | | | | other ({rest} more functions) | |",
            signed(other)
        );
    }
    let _ = writeln!(
        md,
        "| **{}** | {} | {} | | **total** | |",
        signed(t.diff()),
        t.old,
        t.new
    );
    let with_lines: Vec<&FunctionChange> = e.functions[..shown]
        .iter()
        .filter(|f| !f.lines.is_empty())
        .collect();
    if e.has_lines && lines > 0 && !with_lines.is_empty() {
        md.push_str("\n| self diff | old | new | line | function |\n|---:|---:|---:|---|---|\n");
        for f in with_lines {
            let changed = f.lines.iter().filter(|l| l.self_cost[k].diff() != 0);
            for l in changed.take(lines) {
                let c = l.self_cost[k];
                let place = format!("{}:{}", short_file(&l.file), l.line);
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} |",
                    signed(c.diff()),
                    c.old,
                    c.new,
                    code(&place),
                    code(&f.short)
                );
            }
        }
    }
    if let Some(svg) = entry.flamegraph {
        let _ = writeln!(
            md,
            "\nDifferential flamegraph: [{}]({})",
            escape(svg),
            svg.replace(' ', "%20")
        );
    }
    md.push_str("\n</details>\n");
}

fn function_row(md: &mut String, f: &FunctionChange, k: usize) {
    let s = f.self_cost[k];
    let mark = match f.status {
        Status::Changed => "",
        Status::New => " **new**",
        Status::Gone => " **gone**",
    };
    let file = f.place();
    let _ = writeln!(
        md,
        "| {} | {} | {} | {} | {}{mark} | {} |",
        signed(s.diff()),
        s.old,
        s.new,
        signed(f.inclusive[k].diff()),
        code(&f.short),
        file.map(code).unwrap_or_default()
    );
}

/// A code span for a table cell: `|` escaped (GFM splits cells on it even in code), and a
/// fence longer than any run of backticks inside.
fn code(text: &str) -> String {
    let text = text.replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text inside raw HTML (`<summary>`): no Markdown there, so escape what HTML would read.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Link text: brackets escaped.
fn escape(text: &str) -> String {
    text.replace('[', "\\[").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_only_change_counts_as_unchanged_and_has_no_details() {
        let fixture = |name: &str| {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let path = dir.join("tests/fixtures/layout").join(name);
            crate::parse::profile::parse_file(&path, crate::parse::profile::Read::Full).unwrap()
        };
        let (old, new) = (
            fixture("sort100.callgrind.out"),
            fixture("sort100.shifted1.callgrind.out"),
        );
        let e = super::super::explain_profiles(&old, &new, &Default::default()).unwrap();
        assert!(e.changed(), "the cache counts moved");
        let entry = |layout_only| Entry {
            id: "e2e::sort",
            outcome: Finding::Compared(&e),
            flamegraph: None,
            limits: None,
            layout_only,
        };
        let md = render(&[entry(true)], 10, 3);
        assert!(md.contains("| 0 | 0 | 1 | 0 | 0 |"), "{md}");
        assert!(md.contains("1 of the unchanged is layout only"), "{md}");
        assert!(md.contains("| unchanged (layout only: "), "{md}");
        assert!(!md.contains("<details>"), "{md}");
        // The same change not known to be layout only: its attribution is drawn.
        let md = render(&[entry(false)], 10, 3);
        assert!(
            md.contains("<details>") && !md.contains("layout only"),
            "{md}"
        );
    }

    #[test]
    fn code_spans_survive_pipes_and_backticks() {
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(html("<T as X>::f"), "&lt;T as X&gt;::f");
    }
}
