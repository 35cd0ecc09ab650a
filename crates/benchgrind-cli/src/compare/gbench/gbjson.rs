//! Stage 4 of `benchgrind gbench` (`--out FILE`): the counts in Google Benchmark's own JSON
//! layout, so that its tools (compare.py) and `benchgrind compare` read them as any run. The
//! layout is the bench binaries' `--benchmark_out` one
//! (`benchgrind_runner::report::gbench::json`); this module hands it the measurement.
//!
//! Per benchmark, `real_time` and `cpu_time` both hold the chosen metric per iteration (default
//! instructions); every metric is also a user counter. The `context` carries the
//! `library_build_type` the binary itself reported and how the loop was counted; the CPU is left
//! out: the C++ binary cannot say which CPU Valgrind shows it.

use std::path::Path;

use anyhow::Result;
use benchgrind_runner::config::EventKind;
use benchgrind_runner::error::FileResult;
use benchgrind_runner::report::gbench::{context, json, Context, Entry};

use super::measure::{Measured, Measurement};

/// Facts about the run that the measurement does not hold.
pub struct Environment {
    /// `valgrind-3.19.0`.
    pub valgrind: String,
    /// RFC 3339 ([`context::local_date`]).
    pub date: String,
    /// The machine's name.
    pub host_name: String,
}

impl Environment {
    /// The facts of a run under this Valgrind starting now.
    pub fn now(valgrind: String) -> Environment {
        Environment {
            valgrind,
            date: context::local_date(),
            host_name: context::host_name(),
        }
    }
}

/// The Google Benchmark JSON document of `m`, with `metric` in the time fields.
pub fn document(m: &Measurement, metric: EventKind, env: &Environment) -> String {
    let library_build_type = m
        .benchmarks
        .iter()
        .find_map(|b| b.info.library_build_type.clone())
        .unwrap_or_else(|| "unknown".into());
    let ctx = Context {
        date: env.date.clone(),
        host_name: env.host_name.clone(),
        executable: m.binary.display().to_string(),
        cpu: String::new(),
        library_build_type,
        valgrind: env.valgrind.clone(),
        // `callgrind` runs them with the fixed geometry.
        cache_args: context::cache_args(&[]),
        metric,
        counting: m.counting.describe(),
    };
    let entries: Vec<Entry> = m.benchmarks.iter().map(entry).collect();
    json(&entries, &ctx)
}

/// Writes [`document`] to `path` through a temporary file renamed into place.
pub fn write(path: &Path, m: &Measurement, metric: EventKind, env: &Environment) -> Result<()> {
    let text = document(m, metric, env) + "\n";
    Ok(benchgrind_runner::store::write_atomic(path, text.as_bytes()).file_op("write", path)?)
}

fn entry(b: &Measured) -> Entry {
    let (iterations, outcome) = match &b.outcome {
        Ok(counts) => (
            counts.iterations,
            Ok(counts
                .values
                .iter()
                .map(|(k, v)| (k.name().to_owned(), *v))
                .collect()),
        ),
        Err(e) => (0, Err(e.clone())),
    };
    Entry {
        name: b.name.clone(),
        family_index: b.info.family_index,
        per_family_instance_index: b.info.per_family_instance_index,
        iterations,
        outcome,
        label: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::gbench::callgrind::RunInfo;
    use crate::compare::gbench::measure::{Counting, Counts};

    #[test]
    fn metric_in_the_time_fields_counters_and_errors() {
        let m = Measurement {
            binary: "./bench".into(),
            counting: Counting::Difference(10),
            benchmarks: vec![
                Measured {
                    name: "BM_a/8".into(),
                    outcome: Ok(Counts {
                        values: vec![(EventKind::Ir, 410.5), (EventKind::EstimatedCycles, 420.0)],
                        iterations: 10,
                    }),
                    info: RunInfo {
                        family_index: Some(0),
                        per_family_instance_index: Some(1),
                        library_build_type: Some("release".into()),
                    },
                },
                Measured {
                    name: "BM_b".into(),
                    outcome: Err("it was killed by signal 6".into()),
                    info: RunInfo::default(),
                },
            ],
        };
        let env = Environment {
            valgrind: "valgrind-3.19.0".into(),
            date: "1970-01-01T00:00:00+00:00".into(),
            host_name: "h".into(),
        };
        let doc: serde_json::Value =
            serde_json::from_str(&document(&m, EventKind::EstimatedCycles, &env)).unwrap();
        let ctx = &doc["context"];
        assert_eq!(ctx["library_build_type"], "release");
        assert_eq!(ctx["benchgrind"]["metric"], "EstimatedCycles");
        assert_eq!(ctx["benchgrind"]["valgrind"], "valgrind-3.19.0");
        assert_eq!(ctx["caches"][2]["size"], 8_388_608);
        let a = &doc["benchmarks"][0];
        assert_eq!(a["real_time"], 420.0);
        assert_eq!(a["cpu_time"], 420.0);
        assert_eq!(a["Ir"], 410.5);
        assert_eq!(a["iterations"], 10);
        assert_eq!(a["per_family_instance_index"], 1);
        assert!(a.get("error_occurred").is_none());
        let b = &doc["benchmarks"][1];
        assert_eq!(b["error_occurred"], true);
        assert_eq!(b["error_message"], "it was killed by signal 6");
        // What `compare` reads back.
        let set = crate::compare::input::gbench::convert(&doc, "x".into()).unwrap();
        assert_eq!(set.benchmarks[0].metrics[0].samples, [420.0]);
        assert_eq!(
            set.benchmarks[1].error.as_deref(),
            Some("it was killed by signal 6")
        );
    }
}
