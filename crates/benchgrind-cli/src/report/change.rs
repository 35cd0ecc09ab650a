//! `benchgrind report`: what made a benchmark's last change, by function. When its directory
//! holds the last run's profile and the one before (`callgrind.out`, `callgrind.out.old`) and
//! their values differ, the runner's attribution (`benchgrind_runner::explain`, the same as
//! `benchgrind explain`) ranks the functions by the change of their self cost; the page shows
//! the first few and an `other` line, so that the rows add up to the total's change.

use std::fmt::Write as _;

use benchgrind_runner::config::EventKind;
use benchgrind_runner::explain::wire::{WireChange, WireExplanation};
use benchgrind_runner::explain::{self, Options};

use super::html::{esc, num};
use super::load::Bench;

/// How many functions the table lists; the rest is one `other` row.
const TOP: usize = 10;

/// The section, or nothing when there is no change to explain. A profile that cannot be read
/// is said in the section rather than failing the report.
pub fn section(out: &mut String, bench: &Bench) {
    let Some(dir) = &bench.dir else { return };
    let (old, new) = (dir.join("callgrind.out.old"), dir.join("callgrind.out"));
    // Only the newest values say whether the last run changed anything; the profiles agree with
    // them unless a run without a summary came since (then the history's values are newest).
    let changed = !bench.previous.is_empty() && bench.previous != bench.current;
    if !changed || !old.is_file() || !new.is_file() {
        return;
    }
    out.push_str("<h2>What changed</h2><div id=\"attribution\">");
    match explain::explain(&old, &new, &Options::default()) {
        Ok(explanation) => table(out, &explanation.to_wire()),
        Err(e) => {
            let _ = write!(
                out,
                "<p class=\"muted\">Cannot attribute the change: {}</p>",
                esc(&e.to_string())
            );
        }
    }
    out.push_str("</div>");
}

/// The attribution's table: the functions ranked by the change of their self cost in the rank
/// metric, the first [`TOP`], then `other`. Takes the JSON form, which is also what a summary
/// records (`explanation`), so the page shows a recorded attribution the same way.
pub fn table(out: &mut String, e: &WireExplanation) {
    let metric = &e.rank_metric;
    let zero = WireChange {
        old: 0,
        new: 0,
        diff: 0,
    };
    let total = e.total.get(metric).copied().unwrap_or(zero);
    let label = EventKind::from_name(metric).map_or(metric.as_str(), |k| k.label());
    let _ = write!(
        out,
        "<p class=\"sub\">{} from {} to {} ({}), by function: the change of each one's own \
         cost. <code>benchgrind explain</code> shows every function and source line.</p>\
         <div class=\"scroll\"><table><thead><tr><th class=\"name\">Function</th>\
         <th class=\"name hide-narrow\">File</th><th class=\"hide-narrow\">Old</th>\
         <th class=\"hide-narrow\">New</th><th>Change</th></tr></thead><tbody>",
        esc(label),
        num(total.old),
        num(total.new),
        signed(total.diff.into())
    );
    let mut shown: i128 = 0;
    for f in e.functions.iter().take(TOP) {
        let c = f.self_cost.get(metric).copied().unwrap_or(zero);
        shown += i128::from(c.diff);
        if c.diff == 0 {
            continue;
        }
        let status = match f.status.as_str() {
            "new" => " <span class=\"badge\">new</span>",
            "gone" => " <span class=\"badge\">gone</span>",
            _ => "",
        };
        let _ = write!(
            out,
            "<tr><td class=\"name\" title=\"{}\"><code>{}</code>{status}</td>\
             <td class=\"name hide-narrow\">{}</td><td class=\"hide-narrow\">{}</td>\
             <td class=\"hide-narrow\">{}</td><td class=\"{}\">{}</td></tr>",
            esc(&f.name),
            esc(&f.short),
            esc(f.file.as_deref().or(f.object.as_deref()).unwrap_or("")),
            num(c.old),
            num(c.new),
            if c.diff > 0 { "worse" } else { "better" },
            signed(c.diff.into())
        );
    }
    let other = i128::from(total.diff) - shown;
    if other != 0 {
        let _ = write!(
            out,
            "<tr><td class=\"name muted\">other</td><td class=\"hide-narrow\"></td>\
             <td class=\"hide-narrow\"></td><td class=\"hide-narrow\"></td>\
             <td class=\"muted\">{}</td></tr>",
            signed(other)
        );
    }
    out.push_str("</tbody></table></div>");
}

/// A difference with its sign: `+900`, `−1,200`.
fn signed(diff: i128) -> String {
    let magnitude = num(diff.unsigned_abs().try_into().unwrap_or(u64::MAX));
    match diff.signum() {
        1 => format!("+{magnitude}"),
        -1 => format!("\u{2212}{magnitude}"),
        _ => "0".into(),
    }
}
