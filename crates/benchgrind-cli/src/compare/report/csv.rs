//! CSV: one record per benchmark row and metric with raw numbers (times in nanoseconds, changes
//! as fractions), for spreadsheets and scripts. Fields are quoted per RFC 4180, since Google
//! Benchmark names of templates hold commas.

use std::io::{self, Write};

use super::{rows, Reporter, RowKind};
use crate::compare::diff::Comparison;
use crate::compare::threshold::Violation;

/// The CSV report; always includes repetition rows.
pub struct Csv;

/// The header record.
const HEADER: &str =
    "benchmark,row,metric,unit,better,old,new,change,p_value,significant,samples_old,samples_new";

impl Reporter for Csv {
    fn write(
        &self,
        cmp: &Comparison,
        _violations: &[Violation],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "{HEADER}")?;
        for row in rows(cmp, true) {
            let kind = match row.kind {
                RowKind::Repetition(i) => format!("repetition {i}"),
                RowKind::Summary => summary_name(row.metric.summary_of).into(),
                RowKind::Geomean => "geomean".into(),
            };
            let fields = [
                quote(row.benchmark),
                kind,
                quote(&row.metric.name),
                row.metric.unit.as_str().into(),
                row.metric.better.as_str().into(),
                number(Some(row.change.old)),
                number(Some(row.change.new)),
                number(row.change.change),
                number(row.utest.map(|u| u.p_value)),
                row.utest
                    .map_or(String::new(), |u| u.significant.to_string()),
                row.metric.samples.0.to_string(),
                row.metric.samples.1.to_string(),
            ];
            writeln!(out, "{}", fields.join(","))?;
        }
        Ok(())
    }
}

/// The `row` field of a summary row.
fn summary_name(of: crate::compare::diff::SummaryOf) -> &'static str {
    use crate::compare::diff::SummaryOf;
    match of {
        SummaryOf::Single => "single",
        SummaryOf::Median => "median",
        SummaryOf::Geomean => "geomean",
    }
}

/// A number in full precision (Rust's shortest round-trip form); empty when absent.
fn number(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// Quotes a field when it holds a comma, a quote or a line break.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_when_needed() {
        assert_eq!(quote("BM_a/8"), "BM_a/8");
        assert_eq!(quote("BM_t<int, 3>"), "\"BM_t<int, 3>\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(number(Some(f64::NAN)), "NaN");
        assert_eq!(number(None), "");
    }
}
