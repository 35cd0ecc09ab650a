//! `--benchmark_out_format=csv`: Google Benchmark's CSV columns (`name`, `iterations`,
//! `real_time`, `cpu_time`, `time_unit`, `bytes_per_second`, `items_per_second`, `label`,
//! `error_occurred`, `error_message`), then one column per user counter, named in quotes and in
//! sorted order, as Google Benchmark writes them. The metric fills the time columns as in the
//! JSON ([`mod@super::json`]); counts are written in full, not rounded to six digits.

use std::collections::BTreeSet;

use super::json::{Count, Entry};
use crate::config::EventKind;

/// Google Benchmark's fixed columns.
const COLUMNS: [&str; 10] = [
    "name",
    "iterations",
    "real_time",
    "cpu_time",
    "time_unit",
    "bytes_per_second",
    "items_per_second",
    "label",
    "error_occurred",
    "error_message",
];

/// The CSV text of `entries`, `metric` in the time columns.
pub fn csv(entries: &[Entry], metric: EventKind) -> String {
    let counters: BTreeSet<&str> = entries
        .iter()
        .filter_map(|e| e.outcome.as_ref().ok())
        .flat_map(|c| c.iter().map(|(name, _)| name.as_str()))
        .collect();
    let mut text = COLUMNS.join(",");
    for name in &counters {
        text.push_str(&format!(",{}", quoted(name)));
    }
    text.push('\n');
    for e in entries {
        text.push_str(&quoted(&e.name));
        match &e.outcome {
            Err(message) => {
                // Empty up to `label`, then the error.
                text.push_str(&",".repeat(COLUMNS.len() - 2));
                text.push_str(&format!("true,{}", quoted(message)));
            }
            Ok(values) => {
                let value = Count(e.value(metric).unwrap_or(0.0));
                // bytes_per_second, items_per_second, error_occurred, error_message: empty.
                let label = e.label.as_deref().map(quoted).unwrap_or_default();
                text.push_str(&format!(",{},{value},{value},ns,,,{label},,", e.iterations));
                for name in &counters {
                    match values.iter().find(|(n, _)| n == name) {
                        Some((_, v)) => text.push_str(&format!(",{}", Count(*v))),
                        None => text.push(','),
                    }
                }
            }
        }
        text.push('\n');
    }
    text
}

/// A CSV field in quotes, its quotes doubled.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::super::json::entries;
    use super::super::json::tests::summaries;
    use super::*;

    #[test]
    fn google_benchmarks_columns_then_the_counters() {
        let mut entries = entries(&summaries());
        entries[1].name = "f::g::\"quoted\"".into();
        let text = csv(&entries, EventKind::EstimatedCycles);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,\
                 label,error_occurred,error_message,\"EstimatedCycles\",\"Ir\"",
                "\"f::g::func::id\",1,110,110,ns,,,,,,110,90",
                "\"f::g::\"\"quoted\"\"\",1,110,110,ns,,,,,,110,90",
                "\"f::g::func::id2\",,,,,,,,true,\"panicked at 'boom'\"",
            ]
        );
        // Every line has the header's columns, but for errors, which end at the message.
        let columns = |l: &str| l.replace("\"\"", "").split(',').count();
        assert_eq!(columns(lines[1]), columns(lines[0]));
        assert_eq!(columns(lines[3]), COLUMNS.len());
    }
}
