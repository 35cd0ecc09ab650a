//! `benchgrind report`: one benchmark's page (`bench/<slug>.html`): its newest values against
//! the run before and every saved baseline, the limits it passed, what changed by function
//! (change.rs, or what the run recorded), the other tools' metrics, a history plot per metric
//! (plot.rs), perf's statistics with a chart of their samples (perf.rs) and its flamegraphs (copied next to the page and embedded, so their own search and
//! zoom work).

use benchgrind_runner::error::Problem;
use std::fmt::Write as _;

use benchgrind_runner::explain::wire::WireExplanation;

use super::html::{self, change, change_cell, esc, num};
use super::load::Bench;
use super::plot::{self, Run};

/// How many runs the table under the plots lists (the plots show them all).
const RUN_ROWS: usize = 30;

/// A flamegraph copied into `<slug>/`: its file name and its size (`viewBox`), if known.
pub type Flame = (String, Option<(u32, u32)>);

/// The page of `bench`, with its `flamegraphs`.
pub fn write(bench: &Bench, flamegraphs: &[Flame]) -> Result<String, Problem> {
    let mut body = String::with_capacity(16 * 1024);
    header(&mut body, bench);
    metrics_table(&mut body, bench);
    regressions(&mut body, bench);
    if !attribution(&mut body, bench) {
        super::change::section(&mut body, bench);
    }
    tools(&mut body, bench);
    super::perf::section(
        &mut body,
        bench.summary.as_ref().and_then(|s| s.perf.as_ref()),
    );
    history(&mut body, bench)?;
    flames(&mut body, bench, flamegraphs);
    Ok(html::page(&bench.id, &body, ""))
}

fn header(out: &mut String, bench: &Bench) {
    let status = esc(&bench.status);
    let _ = write!(
        out,
        "<p><a href=\"../index.html\">\u{2190} All benchmarks</a></p><h1>{}</h1>\
         <p class=\"sub\"><span class=\"badge {status}\" id=\"status\">{status}</span> \
         package {}",
        esc(&bench.id),
        esc(&bench.package)
    );
    if let Some(last) = bench.history.last() {
        let _ = write!(out, " \u{b7} last run {}", esc(&last.date));
        if let Some(commit) = &last.commit {
            let _ = write!(out, " at commit <code>{}</code>", esc(short(commit)));
        }
    }
    if let Some(summary) = &bench.summary {
        let _ = write!(
            out,
            " \u{b7} compared with the {}",
            esc(&summary.old_source)
        );
        if let Some(command) = &summary.command {
            let _ = write!(out, " \u{b7} command <code>{}</code>", esc(command));
        }
    }
    out.push_str("</p>");
    if let Some(error) = &bench.error {
        let _ = write!(out, "<div class=\"error\">{}</div>", esc(error));
    }
}

fn short(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

/// Every metric: current, previous, and each baseline with the change against it.
fn metrics_table(out: &mut String, bench: &Bench) {
    if bench.current.is_empty() {
        return;
    }
    // The baseline compared with may be known only from the summary (not saved here).
    let mut baselines: Vec<(&String, &super::load::Values)> = bench.baselines.iter().collect();
    if let Some((name, values)) = &bench.baseline {
        if !bench.baselines.contains_key(name) {
            baselines.push((name, values));
        }
    }
    out.push_str(
        "<h2>Metrics</h2><div class=\"scroll\"><table id=\"metrics\"><thead><tr>\
         <th class=\"name\">Metric</th><th>Current</th><th>Previous</th><th>Change</th>",
    );
    for (name, _) in &baselines {
        let _ = write!(out, "<th>Baseline {0}</th><th>vs {0}</th>", esc(name));
    }
    out.push_str("</tr></thead><tbody>");
    for metric in html::metric_order(bench.current.keys()) {
        let now = bench.current.get(&metric).copied();
        let before = bench.previous.get(&metric).copied();
        let _ = write!(
            out,
            "<tr data-metric=\"{m}\"><td class=\"name\" title=\"{m}\">{}</td>\
             <td data-value=\"{}\">{}</td><td>{}</td>",
            esc(html::label(&metric)),
            now.map(|v| v.to_string()).unwrap_or_default(),
            now.map_or("\u{2014}".into(), num),
            before.map_or("\u{2014}".into(), num),
            m = esc(&metric),
        );
        change_cell(out, change(now, before), "");
        for (_, values) in &baselines {
            let base = values.get(&metric).copied();
            let _ = write!(out, "<td>{}</td>", base.map_or("\u{2014}".into(), num));
            change_cell(out, change(now, base), "");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// The limits the newest run passed.
fn regressions(out: &mut String, bench: &Bench) {
    let lines: Vec<String> = match &bench.summary {
        Some(summary) => summary
            .regressions
            .iter()
            .map(|r| {
                let limit = match r.kind.as_str() {
                    "absolute" => format!("the cap of {}", html::number(r.limit)),
                    _ => format!("the limit of +{}%", r.limit),
                };
                format!(
                    "{}: {} \u{2192} {} ({}), past {limit}",
                    html::label(&r.metric),
                    r.old.map_or("\u{2014}".into(), html::number),
                    html::number(r.new),
                    html::pct(r.diff_pct).0
                )
            })
            .collect(),
        None => bench
            .history
            .last()
            .map(|p| p.entry.regressed.clone())
            .unwrap_or_default(),
    };
    if lines.is_empty() {
        return;
    }
    out.push_str("<h2>Regressions</h2><ul id=\"regressions\">");
    for line in lines {
        let _ = write!(out, "<li class=\"worse\">{}</li>", esc(&line));
    }
    out.push_str("</ul>");
}

/// The other tools' metrics (DHAT, Memcheck, ...).
fn tools(out: &mut String, bench: &Bench) {
    if bench.tools.is_empty() {
        return;
    }
    out.push_str(
        "<h2>Other tools</h2><div class=\"scroll\"><table id=\"tools\"><thead><tr>\
         <th class=\"name\">Tool</th><th class=\"name\">Metric</th><th>Current</th>\
         <th>Previous</th><th>Change</th></tr></thead><tbody>",
    );
    for (tool, values) in &bench.tools {
        for (metric, (new, old)) in values {
            let _ = write!(
                out,
                "<tr data-tool=\"{t}\" data-metric=\"{m}\"><td class=\"name\">{t}</td>\
                 <td class=\"name\">{m}</td><td data-value=\"{new}\">{}</td><td>{}</td>",
                num(*new),
                old.map_or("\u{2014}".into(), num),
                t = esc(tool),
                m = esc(metric),
            );
            change_cell(out, change(Some(*new), *old), "");
            out.push_str("</tr>");
        }
    }
    out.push_str("</tbody></table></div>");
}

/// A plot per metric and the newest runs as a table.
fn history(out: &mut String, bench: &Bench) -> Result<(), Problem> {
    out.push_str("<h2>History</h2>");
    if bench.history.is_empty() {
        out.push_str(
            "<p class=\"muted\">No history yet: every run adds to <code>target/benchgrind/\
             history/</code> (unless run with <code>--history=off</code>).</p>",
        );
        return Ok(());
    }
    let names = html::metric_order(bench.history.iter().flat_map(|p| p.entry.metrics.keys()));
    out.push_str("<div class=\"plots\">");
    for metric in &names {
        let runs: Vec<Run> = bench
            .history
            .iter()
            .filter_map(|p| {
                Some(Run {
                    date: &p.date,
                    value: *p.entry.metrics.get(metric)?,
                    regressed: p.entry.regressed.contains(metric),
                })
            })
            .collect();
        let svg = plot::history(html::label(metric), &runs)?;
        let _ = write!(
            out,
            "<figure class=\"plot\" data-metric=\"{}\" style=\"margin:0\">{svg}</figure>",
            esc(metric)
        );
    }
    out.push_str("</div>");
    let shown = html::metric_order(bench.current.keys().chain(&names));
    let first = shown.first().cloned().unwrap_or_else(|| "Ir".into());
    let _ = write!(
        out,
        "<h2>Runs</h2><div class=\"scroll\"><table id=\"runs\"><thead><tr>\
         <th class=\"name\">Date</th><th class=\"name\">Commit</th><th>Status</th><th>{}</th>\
         </tr></thead><tbody>",
        esc(html::label(&first))
    );
    for point in bench.history.iter().rev().take(RUN_ROWS) {
        let value = point.entry.metrics.get(&first).copied();
        let _ = write!(
            out,
            "<tr><td class=\"name\">{}</td><td class=\"name\"><code>{}</code></td>\
             <td><span class=\"badge {s}\">{s}</span></td><td data-value=\"{}\">{}</td></tr>",
            esc(&point.date),
            esc(point.commit.as_deref().map_or("\u{2014}", short)),
            value.map(|v| v.to_string()).unwrap_or_default(),
            value.map_or("\u{2014}".into(), num),
            s = esc(&point.entry.status),
        );
    }
    out.push_str("</tbody></table></div>");
    if bench.history.len() > RUN_ROWS {
        let _ = write!(
            out,
            "<p class=\"muted\">The newest {RUN_ROWS} of {} runs.</p>",
            bench.history.len()
        );
    }
    Ok(())
}

/// The flamegraphs, embedded as documents so that inferno's search and zoom work.
fn flames(out: &mut String, bench: &Bench, files: &[Flame]) {
    if files.is_empty() {
        return;
    }
    out.push_str("<h2>Flamegraphs</h2>");
    let dir = html::slug(&bench.package, &bench.id);
    for (file, size) in files {
        // inferno's script makes the SVG as wide as its frame: the frame keeps its proportions.
        let (width, height) = size.unwrap_or((1200, 400));
        let what = if file.contains(".diff.") {
            "differential, against what the run compared with"
        } else {
            "this run"
        };
        let _ = write!(
            out,
            "<h3>{name} <span class=\"muted\">({what})</span> \
             <a href=\"{dir}/{name}\">open</a></h3>\
             <iframe class=\"flame\" loading=\"lazy\" src=\"{dir}/{name}\" \
             style=\"aspect-ratio:{width}/{height}\" title=\"{name}\"></iframe>",
            name = esc(file),
        );
    }
}

/// The attribution of the last change as the run recorded it (the summary's `explanation`,
/// written with `--explain`), in the table that [`super::change`] draws. Returns whether there
/// was one; without, the page attributes the change itself from the two profiles.
fn attribution(out: &mut String, bench: &Bench) -> bool {
    let recorded = bench
        .raw
        .as_ref()
        .and_then(|raw| raw.get("explanation"))
        .filter(|v| !v.is_null())
        .and_then(|v| serde_json::from_value::<WireExplanation>(v.clone()).ok());
    let Some(explanation) = recorded else {
        return false;
    };
    out.push_str("<h2>What changed</h2><div id=\"attribution\">");
    super::change::table(out, &explanation);
    out.push_str("</div>");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_explanation_is_shown() {
        let mut bench = Bench {
            id: "f::g::fun".into(),
            package: "p".into(),
            status: "regressed".into(),
            current: [("Ir".to_owned(), 110)].into_iter().collect(),
            previous: [("Ir".to_owned(), 100)].into_iter().collect(),
            ..Bench::default()
        };
        let page = write(&bench, &[]).unwrap();
        assert!(!page.contains("id=\"attribution\""));
        assert!(page.contains("No history yet"));
        assert!(
            page.contains("<td data-value=\"110\">110</td><td>100</td>"),
            "{page}"
        );

        // A recorded explanation (summary v2's `explanation`, the JSON form of
        // `benchgrind explain`) is shown as the run printed it.
        bench.raw = Some(serde_json::json!({"explanation": {
            "version": 1, "old": "a", "new": "b", "metrics": ["Ir"], "rank_metric": "Ir",
            "total": {"Ir": {"old": 100, "new": 110, "diff": 10}},
            "unattributed": {"Ir": 0}, "unchanged_functions": 3,
            "functions": [
                {"name": "f::hot<'a>", "short": "f::hot<'a>", "file": "src/f.rs",
                 "status": "changed",
                 "self": {"Ir": {"old": 40, "new": 52, "diff": 12}},
                 "inclusive": {"Ir": {"old": 40, "new": 52, "diff": 12}}},
                {"name": "f::cold", "short": "f::cold", "status": "gone",
                 "self": {"Ir": {"old": 2, "new": 0, "diff": -2}},
                 "inclusive": {"Ir": {"old": 2, "new": 0, "diff": -2}}}
            ]
        }}));
        let page = write(&bench, &[]).unwrap();
        assert!(page.contains("id=\"attribution\""), "{page}");
        assert!(page.contains("<code>f::hot&lt;&#39;a&gt;</code>"), "{page}");
        assert!(page.contains(">+12</td>"), "{page}");
        assert!(page.contains("\u{2212}2</td>"), "{page}");
        // A summary without one (no profiles in its directory either): no section.
        bench.raw = Some(serde_json::json!({"explanation": null}));
        assert!(!write(&bench, &[]).unwrap().contains("id=\"attribution\""));
    }
}
