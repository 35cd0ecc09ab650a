//! `--output-format=bmf`: the Bencher Metric Format, the JSON that Bencher's `bencher run
//! --adapter json` reads. One object at the end of the run: each benchmark's full id (as in the
//! summary) maps to its measures, each measure to `{"value": ...}`. Callgrind's metrics are
//! named after the terminal report's lines in kebab case (`instructions`, `l1-hits`,
//! `estimated-cycles`; raw events by their name, `dr`); another tool's are prefixed with the
//! tool (`dhat-total-bytes`, `memcheck-errors`). A failed benchmark has no measures and is left
//! out, as Bencher cannot store a result without one. With `--layout-spread`, a metric that
//! follows layout has the spread of layouts as its `lower_value` and `upper_value`, Bencher's
//! bounds of a measure. perf's metrics are prefixed `perf-` (`perf-task-clock`, in
//! nanoseconds), their mean the value and one standard deviation either side the bounds. The
//! tally goes to stderr.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use super::summary::{Metric, Summary};
use crate::config::{EventKind, ToolMetric};
use crate::result::BenchResult;

/// Collects every benchmark's measures and prints them at the end.
#[derive(Default)]
pub struct Bmf {
    benchmarks: BTreeMap<String, Map<String, Value>>,
}

/// `Total read+write` → `total-read-write`.
fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// The measure's name of a Callgrind metric named `name` in the summary.
fn callgrind_measure(name: &str) -> String {
    match EventKind::from_name(name) {
        Some(kind) => slug(kind.benchgrind_label()),
        None => slug(name),
    }
}

/// The measure's name of another tool's metric.
fn tool_measure(tool: &str, name: &str) -> String {
    let label = match ToolMetric::from_name(name) {
        Some(metric) => slug(metric.label()),
        None => slug(name),
    };
    format!("{}-{label}", slug(tool))
}

fn value(metric: &Metric) -> Value {
    json!({ "value": metric.new })
}

impl Bmf {
    /// Adds one benchmark's summary.
    pub fn add(&mut self, summary: &Summary) {
        let mut measures = Map::new();
        let spread = summary.layout_spread.as_ref();
        for (name, metric) in &summary.metrics {
            let mut measure = value(metric);
            if let Some(range) = spread.and_then(|s| s.metrics.get(name)) {
                measure["lower_value"] = json!(range.min);
                measure["upper_value"] = json!(range.max);
            }
            measures.insert(callgrind_measure(name), measure);
        }
        for (tool, result) in &summary.tools {
            for (name, metric) in &result.metrics {
                measures.insert(tool_measure(tool, name), value(metric));
            }
        }
        for metric in summary.perf.iter().flat_map(|p| &p.metrics) {
            let (mean, sd) = (metric.new.mean, metric.new.sd);
            measures.insert(
                format!("perf-{}", slug(&metric.name)),
                json!({ "value": mean, "lower_value": mean - sd, "upper_value": mean + sd }),
            );
        }
        if !measures.is_empty() {
            self.benchmarks.insert(summary.id.clone(), measures);
        }
    }

    /// The document: `{ benchmark: { measure: { "value": n } } }`.
    pub fn to_json(&self) -> String {
        let document: Map<String, Value> = self
            .benchmarks
            .iter()
            .map(|(id, measures)| (id.clone(), Value::Object(measures.clone())))
            .collect();
        serde_json::to_string_pretty(&Value::Object(document)).expect("JSON values serialize")
    }
}

impl Reporter for Bmf {
    fn bench(&mut self, _out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        // What a benchmark printed goes to stderr: stdout is one JSON document.
        write_output(&mut io::stderr(), &result.output, true)?;
        self.add(&Summary::from_result(result));
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        writeln!(out, "{}", self.to_json())?;
        write_tally(&mut io::stderr(), summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_named_after_the_report_lines() {
        assert_eq!(callgrind_measure("Ir"), "instructions");
        assert_eq!(callgrind_measure("TotalRW"), "total-read-write");
        assert_eq!(callgrind_measure("EstimatedCycles"), "estimated-cycles");
        assert_eq!(callgrind_measure("Dr"), "dr");
        assert_eq!(tool_measure("dhat", "TotalBytes"), "dhat-total-bytes");
    }

    #[test]
    fn a_spread_of_layouts_gives_the_bounds_of_the_measures_that_follow_layout() {
        let mut summary = crate::report::gbench::json::tests::summaries().remove(0);
        let range = |min, max| super::super::summary::WireRange {
            min,
            max,
            old_within: None,
        };
        summary.layout_spread = Some(super::super::summary::WireSpread {
            layouts: 5,
            metrics: [("EstimatedCycles".to_owned(), range(104, 112))].into(),
            left_out: Vec::new(),
            stack_only: Vec::new(),
            seconds: 1.0,
        });
        let mut bmf = Bmf::default();
        bmf.add(&summary);
        let document: Value = serde_json::from_str(&bmf.to_json()).unwrap();
        let cycles = &document[&summary.id]["estimated-cycles"];
        assert_eq!(cycles["value"], json!(110));
        assert_eq!(
            (&cycles["lower_value"], &cycles["upper_value"]),
            (&json!(104), &json!(112))
        );
        assert!(document[&summary.id]["instructions"]
            .get("lower_value")
            .is_none());
    }

    #[test]
    fn each_benchmark_maps_its_measures_to_values_and_failed_ones_are_left_out() {
        let summaries = crate::report::gbench::json::tests::summaries();
        let mut bmf = Bmf::default();
        for summary in &summaries {
            bmf.add(summary);
        }
        let document: Value = serde_json::from_str(&bmf.to_json()).unwrap();
        let object = document.as_object().unwrap();
        let measured = summaries.iter().filter(|s| !s.metrics.is_empty()).count();
        assert!(measured > 0);
        assert_eq!(object.len(), measured);
        for summary in summaries.iter().filter(|s| !s.metrics.is_empty()) {
            let ir = summary.metrics["Ir"].new;
            assert_eq!(document[&summary.id]["instructions"]["value"], json!(ir));
        }
    }
}
