//! `benchgrind report`: a benchmark's perf section, beside its counts: per metric the new and
//! old means ± standard deviation, the change, its interval and verdict, and a strip chart of
//! the samples behind them (each round's mean, old above new, on one axis) as inline SVG,
//! written by hand: two rows of dots need no plotting library.

use std::fmt::Write as _;

use benchgrind_runner::report::summary::{WirePerf, WirePerfMetric, WireStats};

use super::html::esc;

const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 86.0;
/// Left edge of the axis (room for the row labels) and right margin.
const LEFT: f64 = 46.0;
const RIGHT: f64 = 14.0;

/// The perf section of a benchmark's page; nothing where perf did not sample it.
pub fn section(out: &mut String, perf: Option<&WirePerf>) {
    let Some(perf) = perf else {
        return;
    };
    out.push_str("<h2>perf</h2>");
    if let Some(rounds) = perf.paired_rounds {
        let _ = write!(
            out,
            "<p class=\"sub\">Base and head sampled in turns, {rounds} rounds, compared round \
             by round (old: the base).</p>"
        );
    }
    if let Some(error) = &perf.error {
        let _ = write!(out, "<div class=\"error\">perf: {}</div>", esc(error));
    }
    out.push_str(
        "<div class=\"scroll\"><table id=\"perf\"><thead><tr><th class=\"name\">Metric</th>\
         <th>New</th><th>Old</th><th>Change</th><th>Verdict</th></tr></thead><tbody>",
    );
    for m in &perf.metrics {
        let verdict = match (&m.verdict, m.interval_pct, m.margin_pct) {
            (Some(v), Some([low, high]), Some(margin)) => {
                format!("{v} [{low:+.2}%, {high:+.2}%] \u{b1}{margin}%")
            }
            (Some(v), _, _) => v.clone(),
            (None, _, _) => "\u{2014}".into(),
        };
        let _ = write!(
            out,
            "<tr data-metric=\"{name}\" data-verdict=\"{v}\"><td class=\"name\">{name}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            stats(m, &m.new),
            m.old.as_ref().map_or("\u{2014}".into(), |o| stats(m, o)),
            m.change_pct
                .map_or("\u{2014}".into(), |c| format!("{c:+.2}%")),
            esc(&verdict),
            name = esc(&m.name),
            v = esc(m.verdict.as_deref().unwrap_or("")),
        );
    }
    out.push_str("</tbody></table></div><div class=\"plots\">");
    for m in perf.metrics.iter().filter(|m| !m.new_rounds.is_empty()) {
        let _ = write!(out, "<div class=\"plot\">{}</div>", strip(m));
    }
    out.push_str("</div>");
    for note in &perf.notes {
        let _ = write!(out, "<p class=\"sub\">perf: {}</p>", esc(note));
    }
}

/// `12.345 µs ± 0.2 µs (n=5)`.
fn stats(m: &WirePerfMetric, s: &WireStats) -> String {
    format!("{} \u{b1} {} (n={})", value(m, s.mean), value(m, s.sd), s.n)
}

fn value(m: &WirePerfMetric, v: f64) -> String {
    if m.unit == "ns" {
        benchgrind_runner::perf::format_nanos(v)
    } else {
        format!("{v:.0}")
    }
}

/// The strip chart of one metric: the old side's round means on the upper row, the new
/// side's on the lower, each mean a tick.
fn strip(m: &WirePerfMetric) -> String {
    let all = m.new_rounds.iter().chain(&m.old_rounds).copied();
    let (min, max) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let span = if max > min {
        max - min
    } else {
        max.abs().max(1.0) * 0.02
    };
    let (lo, hi) = (min - span * 0.05, max + span * 0.05);
    let x = |v: f64| LEFT + (v - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         role=\"img\" aria-label=\"{name}: the samples of each side\">\
         <text x=\"{LEFT}\" y=\"12\" font-size=\"12\">{name}</text>",
        name = esc(&m.name)
    );
    let rows = [
        ("old", 34.0, &m.old_rounds, "#8a8a8a"),
        ("new", 58.0, &m.new_rounds, "#3b82f6"),
    ];
    for (label, y, values, colour) in rows {
        if values.is_empty() {
            continue;
        }
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{}\" font-size=\"11\">{label}</text>\
             <line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#80808040\"/>",
            y + 4.0,
            WIDTH - RIGHT
        );
        for v in values.iter() {
            let _ = write!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{y}\" r=\"3\" fill=\"{colour}\" fill-opacity=\"0.6\"/>",
                x(*v)
            );
        }
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1}\" y2=\"{2}\" stroke=\"{colour}\" \
             stroke-width=\"2\"/>",
            x(mean),
            y - 9.0,
            y + 9.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{LEFT}\" y=\"{h}\" font-size=\"10\">{}</text>\
         <text x=\"{r}\" y=\"{h}\" font-size=\"10\" text-anchor=\"end\">{}</text></svg>",
        esc(&value(m, lo)),
        esc(&value(m, hi)),
        h = HEIGHT - 4.0,
        r = WIDTH - RIGHT,
    );
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric(new: &[f64], old: &[f64]) -> WirePerfMetric {
        let stats = |v: &[f64]| WireStats {
            mean: v.iter().sum::<f64>() / v.len().max(1) as f64,
            sd: 0.0,
            n: v.len(),
        };
        WirePerfMetric {
            name: "task-clock".into(),
            unit: "ns".into(),
            new: stats(new),
            old: (!old.is_empty()).then(|| stats(old)),
            change_pct: Some(10.0),
            p_value: None,
            significant: true,
            interval_pct: Some([8.0, 12.0]),
            margin_pct: Some(5.0),
            verdict: Some("slower".into()),
            new_rounds: new.to_vec(),
            old_rounds: old.to_vec(),
        }
    }

    #[test]
    fn the_chart_has_a_dot_per_round_and_a_tick_per_side() {
        let svg = strip(&metric(&[110.0, 111.0, 109.0], &[100.0, 101.0]));
        assert_eq!(svg.matches("<circle").count(), 5, "{svg}");
        assert!(svg.contains(">old<") && svg.contains(">new<"), "{svg}");
        // The smallest value sits left of the largest.
        let xs: Vec<f64> = svg
            .split("cx=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert!(xs[0] < xs[2], "{xs:?}");
        // One side only, all equal: still a chart, without dividing by zero.
        let flat = strip(&metric(&[5.0, 5.0], &[]));
        assert_eq!(flat.matches("<circle").count(), 2);
        assert!(!flat.contains("NaN") && !flat.contains(">old<"), "{flat}");
    }

    #[test]
    fn the_section_shows_the_verdict_and_the_turns() {
        let perf = WirePerf {
            alpha: 0.05,
            noise_pct: 1.5,
            metrics: vec![metric(&[110.0, 111.0], &[100.0, 101.0])],
            regressions: Vec::new(),
            notes: vec!["a note".into()],
            error: None,
            paired_rounds: Some(2),
        };
        let mut out = String::new();
        section(&mut out, Some(&perf));
        assert!(out.contains("data-verdict=\"slower\""), "{out}");
        assert!(out.contains("slower [+8.00%, +12.00%] \u{b1}5%"), "{out}");
        assert!(out.contains("in turns, 2 rounds"), "{out}");
        assert!(out.contains("<svg"), "{out}");
        let mut none = String::new();
        section(&mut none, None);
        assert!(none.is_empty());
    }
}
