//! Google Benchmark's JSON output (`--benchmark_out_format=json`) into a [`ResultSet`].
//!
//! Repetitions of a run share its name and become the samples of one benchmark; every aggregate
//! (`_mean`, `_median`, `_stddev`, `_cv`, user statistics, complexity fits) is a benchmark of its
//! own, compared one to one. `real_time` and `cpu_time` become the metrics `time` and `cpu`, in
//! nanoseconds; every other number is a counter (`bytes_per_second`, `items_per_second`, user
//! counters). Runs with `error_occurred` are kept, as failures.

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::lenient;
use crate::compare::model::{Benchmark, Better, GbEntry, Kind, Metric, ResultSet, Unit};

/// Numbers in a benchmark entry that describe the run rather than measure it.
const NOT_METRICS: &[&str] = &[
    "family_index",
    "per_family_instance_index",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "complexity_n",
];

/// Aggregates that measure spread, not speed.
const SPREAD_STATS: &[&str] = &["stddev", "cv", "RMS"];

/// One entry of the `benchmarks` array as Google Benchmark writes it.
#[derive(Deserialize)]
struct WireBenchmark {
    name: String,
    #[serde(default)]
    run_type: Option<String>,
    #[serde(default)]
    aggregate_name: Option<String>,
    #[serde(default)]
    aggregate_unit: Option<String>,
    #[serde(default)]
    error_occurred: bool,
    #[serde(default)]
    error_message: Option<String>,
    #[serde(default)]
    time_unit: Option<String>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// Whether `doc` has the shape of a Google Benchmark JSON file.
pub fn recognise(doc: &Value) -> bool {
    doc.get("context").is_some_and(Value::is_object)
        && doc.get("benchmarks").is_some_and(Value::is_array)
}

/// Converts a recognised Google Benchmark document; errors name the entry at fault.
pub fn convert(doc: &Value, label: String) -> Result<ResultSet> {
    let entries = doc["benchmarks"].as_array().map_or(&[][..], Vec::as_slice);
    let mut benchmarks: Vec<Benchmark> = Vec::new();
    // The runs by name: a lookup per entry, not a search (a file may hold many thousands).
    let mut runs: HashMap<String, usize> = HashMap::new();
    let mut gbench = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let wire = WireBenchmark::deserialize(entry)
            .with_context(|| format!("`benchmarks[{index}]` is not a Google Benchmark run"))?;
        gbench.push(gb_entry(index, &wire));
        let mut bench = convert_entry(wire).with_context(|| format!("in `benchmarks[{index}]`"))?;
        bench.entries.push(index);
        // Repetitions of a run follow each other under one name: merge them into samples.
        let run = (bench.kind == Kind::Run).then(|| runs.get(&bench.name).copied());
        match run {
            Some(Some(existing)) => merge_repetition(&mut benchmarks[existing], bench),
            Some(None) => {
                runs.insert(bench.name.clone(), benchmarks.len());
                benchmarks.push(bench);
            }
            None => benchmarks.push(bench),
        }
    }
    Ok(ResultSet {
        label,
        benchmarks,
        gbench: Some(gbench),
        ..ResultSet::default()
    })
}

/// What compare.py reads of an entry.
fn gb_entry(id: usize, wire: &WireBenchmark) -> GbEntry {
    let number = |key: &str| wire.rest.get(key).and_then(lenient::number);
    let index = |key: &str| wire.rest.get(key).and_then(Value::as_i64);
    GbEntry {
        id,
        name: wire.name.clone(),
        aggregate: wire.run_type.as_deref() == Some("aggregate"),
        aggregate_name: wire.aggregate_name.clone(),
        time_unit: wire.time_unit.clone(),
        real_time: number("real_time"),
        cpu_time: number("cpu_time"),
        order: [
            index("family_index"),
            index("per_family_instance_index"),
            index("repetition_index"),
        ],
        failed: wire.error_occurred,
    }
}

/// One entry of Google Benchmark's `benchmarks` array as a benchmark with its metrics.
fn convert_entry(wire: WireBenchmark) -> Result<Benchmark> {
    let aggregate = wire.run_type.as_deref() == Some("aggregate") || wire.aggregate_name.is_some();
    let kind = match (aggregate, &wire.aggregate_name) {
        (false, _) => Kind::Run,
        (true, stat) => {
            let stat = stat
                .clone()
                .unwrap_or_else(|| crate::compare::diff::UNNAMED_AGGREGATE.into());
            let run = match wire.rest.get("run_name").and_then(Value::as_str) {
                Some(run) => run.to_string(),
                None => wire
                    .name
                    .strip_suffix(&format!("_{stat}"))
                    .unwrap_or(&wire.name)
                    .to_string(),
            };
            Kind::Aggregate {
                run,
                spread: SPREAD_STATS.contains(&stat.as_str()),
                stat,
            }
        }
    };
    let spread = matches!(kind, Kind::Aggregate { spread: true, .. });
    let fraction = wire.aggregate_unit.as_deref() == Some("percentage");
    let scale = match wire.time_unit.as_deref() {
        None | Some("ns") => 1.0,
        Some("us") => 1e3,
        Some("ms") => 1e6,
        Some("s") => 1e9,
        Some(other) => bail!("unknown `time_unit` \"{other}\" of `{}`", wire.name),
    };
    let error = wire.error_occurred.then(|| {
        wire.error_message
            .clone()
            .unwrap_or_else(|| "error_occurred".into())
    });
    let mut metrics = Vec::new();
    // Times first, as Google Benchmark's own reports show them, then counters in file order.
    for (field, name) in [("real_time", "time"), ("cpu_time", "cpu")] {
        if let Some(value) = wire.rest.get(field).and_then(lenient::number) {
            let (unit, value) = if fraction {
                (Unit::Fraction, value)
            } else {
                (Unit::Nanoseconds, value * scale)
            };
            metrics.push(metric(name, unit, Better::Lower, value, !aggregate));
        }
    }
    for (key, value) in &wire.rest {
        if key == "real_time" || key == "cpu_time" || NOT_METRICS.contains(&key.as_str()) {
            continue;
        }
        let Some(value) = lenient::number(value) else {
            continue; // strings such as `label`, `run_name`, `big_o`
        };
        let (unit, better) = match key.as_str() {
            "bytes_per_second" | "items_per_second" => (Unit::PerSecond, Better::Higher),
            "real_coefficient" | "cpu_coefficient" => (Unit::Count, Better::Lower),
            _ => (Unit::Count, Better::Unknown),
        };
        let unit = if fraction { Unit::Fraction } else { unit };
        metrics.push(metric(key, unit, better, value, false));
    }
    if spread {
        // Less spread is better whatever the metric.
        metrics.iter_mut().for_each(|m| m.better = Better::Lower);
    }
    Ok(Benchmark {
        name: wire.name,
        kind,
        metrics,
        error,
        entries: Vec::new(),
    })
}

/// A metric with a single value.
fn metric(name: &str, unit: Unit, better: Better, value: f64, geomean: bool) -> Metric {
    Metric {
        name: name.to_string(),
        unit,
        better,
        samples: vec![value],
        geomean,
    }
}

/// Adds a repetition's values to the benchmark that already has the earlier ones.
fn merge_repetition(into: &mut Benchmark, repetition: Benchmark) {
    into.entries.extend(repetition.entries);
    if into.error.is_none() {
        into.error = repetition.error;
    }
    for metric in repetition.metrics {
        match into.metrics.iter_mut().find(|m| m.name == metric.name) {
            Some(existing) => existing.samples.extend(metric.samples),
            None => into.metrics.push(metric),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ResultSet> {
        let doc: Value = serde_json::from_str(&lenient::rewrite_non_finite(text))?;
        assert!(recognise(&doc));
        convert(&doc, "test".into())
    }

    #[test]
    fn repetitions_become_samples_and_aggregates_stay_apart() {
        let text = r#"{"context": {}, "benchmarks": [
            {"name": "BM_a", "run_type": "iteration", "repetition_index": 0, "iterations": 5,
             "real_time": 1.5, "cpu_time": 1.0, "time_unit": "us", "bytes_per_second": 10,
             "user": NaN},
            {"name": "BM_a", "run_type": "iteration", "repetition_index": 1, "iterations": 5,
             "real_time": 2.5, "cpu_time": 2.0, "time_unit": "us", "bytes_per_second": 20,
             "user": Infinity},
            {"name": "BM_a_mean", "run_type": "aggregate", "aggregate_name": "mean",
             "aggregate_unit": "time", "real_time": 2.0, "cpu_time": 1.5, "time_unit": "us"},
            {"name": "BM_a_cv", "run_type": "aggregate", "aggregate_name": "cv",
             "aggregate_unit": "percentage", "real_time": 0.25, "cpu_time": 0.3, "time_unit": "us"},
            {"name": "BM_b", "run_type": "iteration", "error_occurred": true,
             "error_message": "no luck", "real_time": 0, "cpu_time": 0, "time_unit": "ms",
             "label": "some text"}
        ]}"#;
        let set = parse(text).unwrap();
        let names: Vec<_> = set.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["BM_a", "BM_a_mean", "BM_a_cv", "BM_b"]);
        let a = &set.benchmarks[0];
        let metric_names: Vec<_> = a.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(metric_names, ["time", "cpu", "bytes_per_second", "user"]);
        assert_eq!(a.metrics[0].samples, vec![1500.0, 2500.0]);
        assert_eq!(a.metrics[2].better, Better::Higher);
        assert!(a.metrics[3].samples[0].is_nan());
        assert_eq!(a.metrics[3].samples[1], f64::INFINITY);
        assert_eq!(set.benchmarks[1].metrics[0].samples, vec![2000.0]);
        assert!(!set.benchmarks[1].metrics[0].geomean);
        let cv = &set.benchmarks[2];
        assert_eq!(
            cv.kind,
            Kind::Aggregate {
                run: "BM_a".into(),
                stat: "cv".into(),
                spread: true
            }
        );
        assert_eq!(cv.metrics[0].unit, Unit::Fraction);
        assert_eq!(cv.metrics[0].samples, vec![0.25]);
        assert_eq!(set.benchmarks[3].error.as_deref(), Some("no luck"));
    }

    #[test]
    fn bad_entries_are_named() {
        let err = parse(r#"{"context": {}, "benchmarks": [{"name": "a"}, {"real_time": 1}]}"#)
            .unwrap_err();
        assert!(format!("{err:#}").contains("benchmarks[1]"), "{err:#}");
        let err = parse(r#"{"context": {}, "benchmarks": [{"name": "a", "time_unit": "h"}]}"#)
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("unknown `time_unit` \"h\""),
            "{err:#}"
        );
    }

    // Found by fuzzing (fuzz/fuzz_targets/gbench_json.rs): each entry searched every benchmark
    // before it for earlier repetitions, so a file of many runs took quadratic time (minutes
    // for this one); a lookup by name keeps it linear.
    #[test]
    fn many_runs_convert_in_linear_time() {
        let n = 100_000;
        let entries: Vec<Value> = (0..2 * n)
            .map(|i| {
                serde_json::json!({"name": format!("BM_{}", i % n), "real_time": i,
                    "cpu_time": i, "time_unit": "ns"})
            })
            .collect();
        let doc = serde_json::json!({"context": {}, "benchmarks": entries});
        let start = std::time::Instant::now();
        let set = convert(&doc, "many".into()).unwrap();
        assert_eq!(set.benchmarks.len(), n);
        assert_eq!(set.benchmarks[7].metrics[0].samples, [7.0, (n + 7) as f64]);
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }
}
