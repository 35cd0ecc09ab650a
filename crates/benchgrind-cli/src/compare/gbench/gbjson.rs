//! Stage 4 of `benchgrind gbench` (`--out FILE`): the counts in Google Benchmark's own JSON
//! layout, so that its tools (compare.py) and `benchgrind compare` read them as any run.
//!
//! Per benchmark, `real_time` and `cpu_time` both hold the chosen metric per iteration (default
//! instructions) with `time_unit` "ns", since tools compare those two fields; every metric is
//! also a user counter under its own name (`Ir`, `L1hits`, `EstimatedCycles`, ...). The
//! `context` says it is not a timing: the simulated caches, Valgrind's version, the metric and
//! how it was counted, beside Google Benchmark's usual date, host and executable, and the
//! `library_build_type` the binary itself reported. Failed benchmarks are written as Google
//! Benchmark writes its own errors (`error_occurred`, `error_message`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use benchgrind_runner::config::EventKind;
use serde::Serialize;

use super::measure::{Measured, Measurement};

/// The version of the `benchgrind` object in the context; raised when its meaning changes.
const CONTEXT_VERSION: u32 = 1;

#[derive(Serialize)]
struct WireFile {
    context: WireContext,
    benchmarks: Vec<WireBenchmark>,
}

#[derive(Serialize)]
struct WireContext {
    date: String,
    host_name: String,
    executable: String,
    num_cpus: u32,
    mhz_per_cpu: u32,
    cpu_scaling_enabled: bool,
    caches: Vec<WireCache>,
    load_avg: Vec<f64>,
    library_build_type: String,
    benchgrind: WireBenchgrind,
}

#[derive(Serialize)]
struct WireCache {
    #[serde(rename = "type")]
    kind: &'static str,
    level: u32,
    size: u64,
    num_sharing: u32,
}

/// What makes this file different from a timing.
#[derive(Serialize)]
struct WireBenchgrind {
    version: u32,
    tool: &'static str,
    valgrind: String,
    cache_geometry: Vec<&'static str>,
    metric: &'static str,
    time_fields: String,
    counting: String,
}

#[derive(Serialize)]
struct WireBenchmark {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    family_index: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_family_instance_index: Option<u64>,
    run_name: String,
    run_type: &'static str,
    repetitions: u32,
    repetition_index: u32,
    threads: u32,
    iterations: u64,
    real_time: f64,
    cpu_time: f64,
    time_unit: &'static str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    error_occurred: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_message: Option<String>,
    #[serde(flatten)]
    counters: BTreeMap<&'static str, f64>,
}

/// Facts about the run that the measurement does not hold.
pub struct Environment {
    /// `valgrind-3.19.0`.
    pub valgrind: String,
    /// RFC 3339, UTC.
    pub date: String,
    /// The machine's name.
    pub host_name: String,
}

/// The Google Benchmark JSON document of `m`, with `metric` in the time fields.
pub fn document(m: &Measurement, metric: EventKind, env: &Environment) -> Result<String> {
    let build_type = m
        .benchmarks
        .iter()
        .find_map(|b| b.info.library_build_type.clone())
        .unwrap_or_else(|| "unknown".into());
    let file = WireFile {
        context: WireContext {
            date: env.date.clone(),
            host_name: env.host_name.clone(),
            executable: m.binary.display().to_string(),
            // Callgrind runs the program on one simulated CPU.
            num_cpus: 1,
            mhz_per_cpu: 0,
            cpu_scaling_enabled: false,
            caches: simulated_caches(),
            load_avg: Vec::new(),
            library_build_type: build_type,
            benchgrind: WireBenchgrind {
                version: CONTEXT_VERSION,
                tool: "callgrind",
                valgrind: env.valgrind.clone(),
                cache_geometry: benchgrind_runner::execute::args::CACHE_GEOMETRY.to_vec(),
                metric: metric.name(),
                time_fields: format!(
                    "real_time and cpu_time hold {} per iteration, not nanoseconds",
                    metric.name()
                ),
                counting: m.counting.describe(),
            },
        },
        benchmarks: m.benchmarks.iter().map(|b| benchmark(b, metric)).collect(),
    };
    serde_json::to_string_pretty(&file).context("cannot encode the Google Benchmark JSON")
}

/// Writes [`document`] to `path` through a temporary file renamed into place.
pub fn write(path: &Path, m: &Measurement, metric: EventKind, env: &Environment) -> Result<()> {
    let text = document(m, metric, env)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let temp = path.with_file_name(format!(".{name}.benchgrind-tmp"));
    std::fs::write(&temp, text + "\n")
        .and_then(|()| std::fs::rename(&temp, path))
        .with_context(|| format!("cannot write `{}`", path.display()))
}

fn benchmark(b: &Measured, metric: EventKind) -> WireBenchmark {
    let (value, iterations, counters, error) = match &b.outcome {
        Ok(counts) => {
            let value = counts
                .values
                .iter()
                .find(|(k, _)| *k == metric)
                .map_or(0.0, |(_, v)| *v);
            let counters = counts.values.iter().map(|(k, v)| (k.name(), *v)).collect();
            (value, counts.iterations, counters, None)
        }
        Err(e) => (0.0, 0, BTreeMap::new(), Some(e.clone())),
    };
    WireBenchmark {
        name: b.name.clone(),
        family_index: b.info.family_index,
        per_family_instance_index: b.info.per_family_instance_index,
        run_name: b.name.clone(),
        run_type: "iteration",
        repetitions: 1,
        repetition_index: 0,
        threads: 1,
        iterations,
        real_time: value,
        cpu_time: value,
        time_unit: "ns",
        error_occurred: error.is_some(),
        error_message: error,
        counters,
    }
}

/// The caches Callgrind simulates (the runner's fixed geometry), as Google Benchmark lists a
/// machine's.
fn simulated_caches() -> Vec<WireCache> {
    let cache = |kind, level, size| WireCache {
        kind,
        level,
        size,
        num_sharing: 1,
    };
    vec![
        cache("Data", 1, 32768),
        cache("Instruction", 1, 32768),
        cache("Unified", 2, 8_388_608),
    ]
}

/// Now, as Google Benchmark writes its `date` (RFC 3339), in UTC.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days since 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The machine's name, as the kernel has it.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::gbench::callgrind::RunInfo;
    use crate::compare::gbench::measure::{Counting, Counts};

    #[test]
    fn dates_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(rfc3339(1_764_005_261), "2025-11-24T17:27:41+00:00");
    }

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
            date: rfc3339(0),
            host_name: "h".into(),
        };
        let doc: serde_json::Value =
            serde_json::from_str(&document(&m, EventKind::EstimatedCycles, &env).unwrap()).unwrap();
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
