//! Terminal output helpers: an aligned table (columns padded to the widest cell plus two
//! spaces, like rebar's elastic tabstops) and the human units rebar prints.

/// Renders rows as aligned columns; the last column is not padded. Colour escapes take no
/// room.
pub fn render(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(width(cell));
        }
    }
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < row.len() {
                out.push_str(&" ".repeat(widths[i] - width(cell) + 2));
            }
        }
        out.push('\n');
    }
    out
}

/// The start of rebar's colour for a row's best value: bold green.
const BOLD_GREEN: &str = "\x1b[1;32m";
/// The end of a colour.
const RESET: &str = "\x1b[0m";

/// `text` in bold green, as rebar shows a row's best value.
pub fn bold_green(text: &str) -> String {
    format!("{BOLD_GREEN}{text}{RESET}")
}

/// The columns a cell takes on a terminal: its characters, less colour escapes.
fn width(cell: &str) -> usize {
    let mut n = 0;
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // An SGR sequence: ESC [ ... m.
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// A header row followed by a row of dashes under each header.
pub fn header(names: &[String]) -> Vec<Vec<String>> {
    vec![
        names.to_vec(),
        names
            .iter()
            .map(|n| "-".repeat(n.chars().count()))
            .collect(),
    ]
}

/// A duration in rebar's short form: `4.57s`, `59.28ms`, `14.49us`, `343.00ns`.
pub fn human_duration(ns: f64) -> String {
    let secs = ns / 1e9;
    if secs >= 0.950 {
        format!("{secs:.2}s")
    } else if secs >= 0.000_950 {
        format!("{:.2}ms", secs * 1e3)
    } else if secs >= 0.000_000_950 {
        format!("{:.2}us", secs * 1e6)
    } else {
        format!("{ns:.2}ns")
    }
}

/// Throughput in rebar's form (`39.0 GB/s`, `1674.4 MB/s`), from bytes and nanoseconds; zero
/// nanoseconds is `inf GB/s`, as in rebar.
pub fn throughput(bytes: u64, ns: f64) -> String {
    const KB: f64 = 1024.0;
    const MB: f64 = KB * 1024.0;
    const GB: f64 = MB * 1024.0;
    let bps = bytes as f64 / (ns / 1e9);
    if bps < 2.0 * KB {
        format!("{} B/s", bps as u64)
    } else if bps < 2.0 * MB {
        format!("{:.1} KB/s", bps / KB)
    } else if bps < 2.0 * GB {
        format!("{:.1} MB/s", bps / MB)
    } else {
        format!("{:.1} GB/s", bps / GB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_like_rebar() {
        let table = [
            (4.57e9, "4.57s"),
            (59_280.0, "59.28us"),
            (0.0, "0.00ns"),
            (343.0, "343.00ns"),
            (2.5e6, "2.50ms"),
            (960.0, "0.96us"),
        ];
        for (ns, want) in table {
            assert_eq!(human_duration(ns), want);
        }
    }

    #[test]
    fn throughputs_like_rebar() {
        // 607430 bytes in 59.28us is the guide's "9.5 GB/s"; in 345.96us, "1674.4 MB/s".
        assert_eq!(throughput(607_430, 59_280.0), "9.5 GB/s");
        assert_eq!(throughput(607_430, 345_960.0), "1674.4 MB/s");
        assert_eq!(throughput(1000, 1e9), "1000 B/s");
        assert_eq!(throughput(4096, 1e9), "4.0 KB/s");
        assert_eq!(throughput(4096, 0.0), "inf GB/s");
    }

    #[test]
    fn aligned() {
        let mut rows = header(&["benchmark".into(), "libc/memmem".into()]);
        rows.push(vec![
            "memmem/sherlock-holmes".into(),
            "9.5 GB/s (4.09x)".into(),
        ]);
        assert_eq!(
            render(&rows),
            "benchmark               libc/memmem\n---------               -----------\nmemmem/sherlock-holmes  9.5 GB/s (4.09x)\n"
        );
        // Colour takes no room.
        let rows = vec![
            vec![bold_green("ab"), "x".into()],
            vec!["abc".into(), "y".into()],
        ];
        assert_eq!(render(&rows), "\x1b[1;32mab\x1b[0m   x\nabc  y\n");
    }
}
