//! Google Benchmark's JSON layout for benchgrind results, so that Google Benchmark's tools
//! (compare.py) read a bench binary's run as they read a C++ one. Not wired to a flag yet: the
//! harness will call [`document`] with the summaries of a run (stage 7, report).
//!
//! Per benchmark (named by its benchgrind id), `real_time` and `cpu_time` both hold the chosen
//! metric's count with `time_unit` "ns", since those are the two fields the tools compare; every
//! metric is also a user counter under its own name. `iterations` is 1: a benchgrind benchmark
//! runs its function once. The `context` carries Google Benchmark's usual fields and a
//! `benchgrind` object saying that the numbers are counts, of what, and under which Valgrind and
//! cache geometry. A failed benchmark is written as Google Benchmark writes its own errors.

use serde_json::{json, Map, Value};

use crate::config::EventKind;
use crate::execute::args::CACHE_GEOMETRY;
use crate::report::summary::Summary;

/// What the summaries do not say about the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunContext {
    /// When the run started, RFC 3339.
    pub date: String,
    /// The machine's name.
    pub host_name: String,
    /// The bench binary.
    pub executable: String,
    /// `valgrind-3.19.0`.
    pub valgrind: String,
    /// `release` or `debug`: how the benchmarked code was built.
    pub library_build_type: String,
}

/// The Google Benchmark JSON document of `summaries`, with `metric` in the time fields.
pub fn document(summaries: &[Summary], metric: EventKind, ctx: &RunContext) -> Value {
    let caches: Vec<Value> = [
        ("Data", 1, 32_768),
        ("Instruction", 1, 32_768),
        ("Unified", 2, 8_388_608),
    ]
    .iter()
    .map(
        |(kind, level, size)| json!({"type": kind, "level": level, "size": size, "num_sharing": 1}),
    )
    .collect();
    json!({
        "context": {
            "date": ctx.date,
            "host_name": ctx.host_name,
            "executable": ctx.executable,
            "num_cpus": 1,
            "mhz_per_cpu": 0,
            "cpu_scaling_enabled": false,
            "caches": caches,
            "load_avg": [],
            "library_build_type": ctx.library_build_type,
            "benchgrind": {
                "version": 1,
                "tool": "callgrind",
                "valgrind": ctx.valgrind,
                "cache_geometry": CACHE_GEOMETRY,
                "metric": metric.name(),
                "time_fields": format!(
                    "real_time and cpu_time hold {}, not nanoseconds",
                    metric.name()
                ),
                "counting": "the benchmark function between benchgrind's start and stop, one call",
            },
        },
        "benchmarks": summaries
            .iter()
            .enumerate()
            .map(|(i, s)| benchmark(i, s, metric))
            .collect::<Vec<_>>(),
    })
}

fn benchmark(index: usize, s: &Summary, metric: EventKind) -> Value {
    let value = s.metrics.get(metric.name()).map_or(0, |m| m.new);
    let mut entry = Map::new();
    let mut put = |key: &str, value: Value| {
        entry.insert(key.to_string(), value);
    };
    put("name", json!(s.id));
    put("family_index", json!(index));
    put("per_family_instance_index", json!(0));
    put("run_name", json!(s.id));
    put("run_type", json!("iteration"));
    put("repetitions", json!(1));
    put("repetition_index", json!(0));
    put("threads", json!(1));
    put("iterations", json!(1));
    put("real_time", json!(value));
    put("cpu_time", json!(value));
    put("time_unit", json!("ns"));
    if s.status == "failed" {
        put("error_occurred", json!(true));
        put(
            "error_message",
            json!(s.error.as_deref().unwrap_or("the benchmark failed")),
        );
    } else {
        for (name, m) in &s.metrics {
            put(name, json!(m.new));
        }
    }
    Value::Object(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    // A summary as `--output-format=json` prints it (version 1).
    const LINE: &str = r#"{"version":1,"id":"f::g::func::id","package":"p","file":"f","group":"g","function":"func","bench_id":"id","args":"()","command":null,"tool":"callgrind","status":"ok","error":null,"new_source":"run","old_source":"previous run","metrics":{"EstimatedCycles":{"new":110,"old":100,"diff_pct":10.0,"factor":1.1},"Ir":{"new":90,"old":null,"diff_pct":null,"factor":null}},"regressions":[],"files":{"dir":"d","profile":"d/callgrind.out","log":null},"duration_secs":0.5}"#;

    fn context() -> RunContext {
        RunContext {
            date: "2026-11-24T18:00:00+00:00".into(),
            host_name: "h".into(),
            executable: "target/release/deps/my_bench-1234".into(),
            valgrind: "valgrind-3.19.0".into(),
            library_build_type: "release".into(),
        }
    }

    #[test]
    fn the_metric_fills_the_time_fields_and_every_metric_is_a_counter() {
        let ok: Summary = serde_json::from_str(LINE).unwrap();
        let mut failed = ok.clone();
        failed.id = "f::g::other::id".into();
        failed.status = "failed".into();
        failed.error = Some("panicked at 'boom'".into());
        let doc = document(&[ok, failed], EventKind::EstimatedCycles, &context());
        let a = &doc["benchmarks"][0];
        assert_eq!(a["name"], "f::g::func::id");
        assert_eq!(a["real_time"], 110);
        assert_eq!(a["cpu_time"], 110);
        assert_eq!(a["Ir"], 90);
        assert_eq!(a["EstimatedCycles"], 110);
        assert_eq!(a["time_unit"], "ns");
        assert!(a.get("error_occurred").is_none());
        let b = &doc["benchmarks"][1];
        assert_eq!(b["family_index"], 1);
        assert_eq!(b["error_occurred"], true);
        assert_eq!(b["error_message"], "panicked at 'boom'");
        let ctx = &doc["context"];
        assert_eq!(ctx["benchgrind"]["metric"], "EstimatedCycles");
        assert_eq!(ctx["library_build_type"], "release");
        assert_eq!(ctx["caches"][2]["size"], 8_388_608);
        assert_eq!(ctx["benchgrind"]["cache_geometry"][2], "--LL=8388608,16,64");
    }
}
