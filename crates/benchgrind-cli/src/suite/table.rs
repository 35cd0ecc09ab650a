//! Terminal output helpers: an aligned table (columns padded to the widest cell plus two
//! spaces, like rebar's elastic tabstops) and the human units rebar prints.

/// Renders rows as aligned columns; the last column is not padded.
pub fn render(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < row.len() {
                out.push_str(&" ".repeat(widths[i] - cell.chars().count() + 2));
            }
        }
        out.push('\n');
    }
    out
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

/// Throughput in rebar's form (`39.0 GB/s`, `1674.4 MB/s`), from bytes and nanoseconds.
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
    }
}
