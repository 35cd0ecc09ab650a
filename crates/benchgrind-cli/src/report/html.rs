//! `benchgrind report`, the pieces every page shares: escaping, number and change formats (the
//! same as the overview's script, so a page reads the same with or without it), the page
//! shell with the inlined stylesheet, and the file names of benchmark pages.

use std::fmt::Write as _;

use benchgrind_runner::config::EventKind;

/// The stylesheet, inlined into every page (no network, no server).
pub const STYLE: &str = include_str!("assets/style.css");

/// Marks a directory as a report, so a later report may replace its pages.
pub const GENERATOR: &str = "benchgrind report";

/// `text` safe inside HTML elements and quoted attributes.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole number as [`num`] does, any other (a rate in percent) with five decimals.
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 && value >= 0.0 && value < u64::MAX as f64 {
        num(value as u64)
    } else {
        format!("{value:.5}")
    }
}

/// A count with thousands separated by commas: `1,234,567`.
pub fn num(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `(now - then) / then` in percent; `None` without `then`, or from zero to non-zero.
pub fn change(now: Option<u64>, then: Option<u64>) -> Option<f64> {
    let (now, then) = (now?, then?);
    if then == 0 {
        return (now == 0).then_some(0.0);
    }
    Some((now as f64 - then as f64) / then as f64 * 100.0)
}

/// A change as shown, and its class: `+1.25%` worse, `−1.25%` better, `±0.00%` or `—`.
pub fn pct(change: Option<f64>) -> (String, &'static str) {
    let Some(p) = change else {
        return ("\u{2014}".into(), "muted");
    };
    let a = p.abs();
    let digits = if a != 0.0 && a < 0.005 { 4 } else { 2 };
    let sign = if p > 0.0 {
        "+"
    } else if p < 0.0 {
        "\u{2212}"
    } else {
        "\u{b1}"
    };
    let class = if p == 0.0 {
        "muted"
    } else if p > 0.0 {
        "worse"
    } else {
        "better"
    };
    (format!("{sign}{a:.digits$}%"), class)
}

/// A table cell with a change, its number in `data-value` for sorting.
pub fn change_cell(out: &mut String, change: Option<f64>, extra_class: &str) {
    let (text, class) = pct(change);
    let value = change.map(|c| c.to_string()).unwrap_or_default();
    let _ = write!(
        out,
        "<td class=\"{class}{extra_class}\" data-value=\"{value}\">{text}</td>"
    );
}

/// Metric names in the order the bench binary reports them; names it does not know follow.
pub fn metric_order<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut names: Vec<String> = names.into_iter().cloned().collect();
    names.sort();
    names.dedup();
    let rank = |name: &str| {
        EventKind::ALL
            .iter()
            .position(|k| k.name() == name)
            .unwrap_or(EventKind::ALL.len())
    };
    names.sort_by_key(|n| rank(n));
    names
}

/// The metric's label for people (`Instructions`), or its name.
pub fn label(name: &str) -> &str {
    EventKind::from_name(name).map_or(name, |k| k.label())
}

/// The file name of a benchmark's page (and, without `.html`, of its directory of assets):
/// `::` becomes `.` (which Rust names cannot hold) and other characters outside `[A-Za-z0-9_-]`
/// become `~XX`, so that two ids never share a file.
pub fn slug(package: &str, id: &str) -> String {
    let mut out = String::new();
    for (i, part) in std::iter::once(package).chain(id.split("::")).enumerate() {
        if i > 0 {
            out.push('.');
        }
        for b in part.bytes() {
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
                out.push(b as char);
            } else {
                let _ = write!(out, "~{b:02X}");
            }
        }
    }
    out
}

/// A whole page: `head_extra` goes into `<head>`, `body` into `<main>`.
pub fn page(title: &str, body: &str, script: &str) -> String {
    let mut out = String::with_capacity(body.len() + STYLE.len() + script.len() + 512);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"generator\" content=\"{GENERATOR}\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <title>{}</title><style>{STYLE}</style></head><body><main>{body}\
         <footer>Written by benchgrind {} (<code>benchgrind report</code>).</footer></main>",
        esc(title),
        env!("CARGO_PKG_VERSION")
    );
    if !script.is_empty() {
        let _ = write!(out, "<script>{script}</script>");
    }
    out.push_str("</body></html>\n");
    out
}

/// Sort rank of a status: regressions first, then failures, then the rest.
pub fn status_rank(status: &str) -> u8 {
    match status {
        "regressed" => 0,
        "failed" => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_changes_and_names() {
        assert_eq!(num(0), "0");
        assert_eq!(num(999), "999");
        assert_eq!(num(1000), "1,000");
        assert_eq!(num(27_046_772), "27,046,772");
        assert_eq!(change(Some(110), Some(100)), Some(10.0));
        assert_eq!(change(Some(1), Some(0)), None);
        assert_eq!(change(None, Some(0)), None);
        assert_eq!(pct(Some(9.99112)), ("+9.99%".into(), "worse"));
        assert_eq!(pct(Some(-50.0)), ("\u{2212}50.00%".into(), "better"));
        assert_eq!(pct(Some(0.0011)), ("+0.0011%".into(), "worse"));
        assert_eq!(pct(Some(0.0)).1, "muted");
        assert_eq!(pct(None).0, "\u{2014}");
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(
            slug("my-pkg", "file::group::fun::id"),
            "my-pkg.file.group.fun.id"
        );
        assert_eq!(slug("p", "f::g::a b/c"), "p.f.g.a~20b~2Fc");
        assert_ne!(slug("p", "a::b"), slug("p", "a.b"));
        let names = ["Zzz", "EstimatedCycles", "Ir", "L1hits"].map(String::from);
        assert_eq!(
            metric_order(&names),
            ["Ir", "L1hits", "EstimatedCycles", "Zzz"]
        );
    }
}
