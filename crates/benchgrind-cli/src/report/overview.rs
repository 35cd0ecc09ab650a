//! `benchgrind report`: the overview page (`index.html`), one table of every benchmark with its
//! newest value of a metric, the change against the run before and against the baseline,
//! regressions and failures first. The table is complete without the script; the script (inline,
//! `assets/overview.js`) switches the metric, sorts by a column and filters by name, from the
//! numbers of every metric in a JSON block.

use std::fmt::Write as _;

use super::html::{self, change, change_cell, esc, num};
use super::load::Bench;

const SCRIPT: &str = include_str!("assets/overview.js");

/// The overview of `benches` (already in display order), with `metrics` to choose from (the
/// first shown); `records` history records were read.
pub fn write(benches: &[&Bench], metrics: &[String], records: usize, sources: &str) -> String {
    let first = metrics.first().map_or("Ir", String::as_str);
    let regressed = benches.iter().filter(|b| b.status == "regressed").count();
    let failed = benches.iter().filter(|b| b.status == "failed").count();
    let mut body = String::with_capacity(benches.len() * 400 + 4096);
    let _ = write!(
        body,
        "<h1>Benchmarks</h1><p class=\"sub\">{} benchmarks, <span class=\"{}\">{regressed} \
         regressed</span>, <span class=\"{}\">{failed} failed</span>; {records} runs in the \
         history. From {}.</p>",
        benches.len(),
        if regressed > 0 { "worse" } else { "muted" },
        if failed > 0 { "worse" } else { "muted" },
        esc(sources)
    );
    body.push_str(
        "<div class=\"controls\"><input id=\"filter\" type=\"search\" \
         placeholder=\"Filter by name (words)\" aria-label=\"Filter by name\">\
         <label>Metric <select id=\"metric\">",
    );
    for (i, m) in metrics.iter().enumerate() {
        let _ = write!(
            body,
            "<option value=\"{i}\">{} ({})</option>",
            esc(html::label(m)),
            esc(m)
        );
    }
    body.push_str(
        "</select></label><label><input id=\"only-bad\" type=\"checkbox\"> regressed or failed \
         only</label><span id=\"shown\" class=\"muted\"></span></div>",
    );
    let _ = write!(
        body,
        "<div class=\"scroll\"><table id=\"benchmarks\"><thead><tr>\
         <th class=\"name sort\">Benchmark</th><th class=\"sort\">Status</th>\
         <th class=\"sort\" id=\"metric-head\">{}</th><th class=\"sort\">vs previous</th>\
         <th class=\"sort\">vs baseline</th><th class=\"sort hide-narrow\">Runs</th>\
         </tr></thead><tbody>",
        esc(first)
    );
    for bench in benches {
        row(&mut body, bench, first);
    }
    body.push_str("</tbody></table></div>");
    data(&mut body, benches, metrics);
    html::page("benchgrind report", &body, SCRIPT)
}

/// One benchmark's row.
fn row(out: &mut String, bench: &Bench, metric: &str) {
    let status = &bench.status;
    let current = bench.current.get(metric).copied();
    let previous = bench.previous.get(metric).copied();
    let base = bench
        .baseline
        .as_ref()
        .and_then(|(_, v)| v.get(metric).copied());
    let _ = write!(
        out,
        "<tr class=\"{status}\" data-id=\"{id}\" data-status=\"{status}\">\
         <td class=\"name\"><a href=\"bench/{slug}.html\">{id}</a></td>\
         <td data-value=\"{rank}\"><span class=\"badge {status}\">{status}</span></td>\
         <td data-value=\"{value}\">{shown}</td>",
        id = esc(&bench.id),
        slug = html::slug(&bench.package, &bench.id),
        status = esc(status),
        rank = html::status_rank(status),
        value = current.map(|v| v.to_string()).unwrap_or_default(),
        shown = current.map_or("\u{2014}".into(), num),
    );
    change_cell(out, change(current, previous), "");
    change_cell(out, change(current, base), "");
    let _ = write!(
        out,
        "<td class=\"hide-narrow\" data-value=\"{0}\">{0}</td></tr>",
        bench.history.len()
    );
}

/// Every metric's `[current, previous, baseline]` per benchmark, in row order, for the script.
fn data(out: &mut String, benches: &[&Bench], metrics: &[String]) {
    let opt = |v: Option<&u64>| v.map_or("null".into(), u64::to_string);
    out.push_str("<script type=\"application/json\" id=\"data\">{\"metrics\":[");
    for (i, m) in metrics.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        // Metric names are identifiers; escape anyway, for JSON inside HTML.
        let _ = write!(out, "{sep}\"{}\"", json_text(m));
    }
    out.push_str("],\"values\":[");
    for (i, bench) in benches.iter().enumerate() {
        out.push_str(if i > 0 { ",[" } else { "[" });
        for (j, m) in metrics.iter().enumerate() {
            let base = bench.baseline.as_ref().and_then(|(_, v)| v.get(m));
            let _ = write!(
                out,
                "{}[{},{},{}]",
                if j > 0 { "," } else { "" },
                opt(bench.current.get(m)),
                opt(bench.previous.get(m)),
                opt(base)
            );
        }
        out.push(']');
    }
    out.push_str("]}</script>");
}

/// A string's JSON form without quotes, safe inside `<script>` (no `<`).
fn json_text(text: &str) -> String {
    let quoted = serde_json::to_string(text).expect("a string serializes");
    quoted[1..quoted.len() - 1].replace('<', "\\u003c")
}
