//! The JSON layout, and what every format of [`super`] starts from: the entries of a run
//! ([`Entry`], from benchgrind summaries or from `benchgrind gbench`'s measurement) and the
//! facts of its `context` ([`Context`]).

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use super::context;
use crate::config::EventKind;
use crate::report::summary::Summary;

/// The version of the `benchgrind` object in the context; raised when its meaning changes.
pub const CONTEXT_VERSION: u32 = 1;

/// What the counts do not say about the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// When the run started, RFC 3339 ([`context::local_date`]).
    pub date: String,
    /// The machine's name.
    pub host_name: String,
    /// The measured binary.
    pub executable: String,
    /// The CPU as Valgrind shows it to the program; empty when unknown.
    pub cpu: String,
    /// `release` or `debug`: how the measured code was built.
    pub library_build_type: String,
    /// `valgrind-3.19.0`; empty when unknown.
    pub valgrind: String,
    /// The cache arguments Callgrind ran with ([`context::cache_args`]).
    pub cache_args: Vec<String>,
    /// The metric in the time fields.
    pub metric: EventKind,
    /// How the counts were taken, in words.
    pub counting: String,
}

/// One benchmark of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its name: the benchgrind id, or Google Benchmark's name.
    pub name: String,
    /// The index of its family (a benchmark function) in the run.
    pub family_index: Option<u64>,
    /// Its index in the family.
    pub per_family_instance_index: Option<u64>,
    /// The iterations the counts are divided by.
    pub iterations: u64,
    /// Every metric by name, per iteration; or why it failed.
    pub outcome: Result<Vec<(String, f64)>, String>,
    /// Google Benchmark's label of the run: `layout only` for a benchmark whose change is one
    /// of layout alone ([`crate::compare::layout`]).
    pub label: Option<String>,
}

/// The label of a benchmark whose change is one of layout alone.
pub const LAYOUT_ONLY: &str = "layout only";

impl Entry {
    /// The value of `metric`, if the entry has it.
    pub fn value(&self, metric: EventKind) -> Option<f64> {
        let counters = self.outcome.as_ref().ok()?;
        counters
            .iter()
            .find(|(name, _)| name == metric.name())
            .map(|(_, v)| *v)
    }
}

/// The entries of a run's summaries, in their order: families are benchmark functions.
pub fn entries(summaries: &[Summary]) -> Vec<Entry> {
    let mut families: Vec<(&str, &str, &str)> = Vec::new();
    let mut instances: Vec<u64> = Vec::new();
    summaries
        .iter()
        .map(|s| {
            let family = (s.file.as_str(), s.group.as_str(), s.function.as_str());
            let index = families
                .iter()
                .position(|f| *f == family)
                .unwrap_or_else(|| {
                    families.push(family);
                    instances.push(0);
                    families.len() - 1
                });
            let instance = instances[index];
            instances[index] += 1;
            let outcome = if s.status == "failed" {
                Err(s
                    .error
                    .clone()
                    .unwrap_or_else(|| "the benchmark failed".into()))
            } else {
                let own = s.metrics.iter().map(|(n, m)| (n.clone(), m.new as f64));
                let tools = s.tools.iter().flat_map(|(tool, t)| {
                    let metrics = t.metrics.iter();
                    metrics.map(move |(n, m)| (format!("{tool}.{n}"), m.new as f64))
                });
                Ok(own.chain(tools).collect())
            };
            Entry {
                name: s.id.clone(),
                family_index: Some(index as u64),
                per_family_instance_index: Some(instance),
                iterations: u64::from(s.status != "failed"),
                outcome,
                label: s.layout_only.as_ref().map(|_| LAYOUT_ONLY.to_owned()),
            }
        })
        .collect()
}

/// The Google Benchmark JSON document of `entries`, indented, with `ctx.metric` in the time
/// fields.
pub fn json(entries: &[Entry], ctx: &Context) -> String {
    let file = WireFile {
        context: WireContext {
            date: &ctx.date,
            host_name: &ctx.host_name,
            executable: &ctx.executable,
            // Valgrind runs the program's threads one at a time.
            num_cpus: 1,
            mhz_per_cpu: context::mhz_per_cpu(&ctx.cpu),
            cpu_scaling_enabled: false,
            caches: context::simulated_caches(&ctx.cache_args),
            load_avg: Vec::new(),
            library_build_type: &ctx.library_build_type,
            benchgrind: WireBenchgrind {
                version: CONTEXT_VERSION,
                tool: "callgrind",
                valgrind: &ctx.valgrind,
                cpu: &ctx.cpu,
                cache_geometry: &ctx.cache_args,
                metric: ctx.metric.name(),
                time_fields: format!(
                    "real_time and cpu_time hold {} per iteration, not nanoseconds",
                    ctx.metric.name()
                ),
                counting: &ctx.counting,
            },
        },
        benchmarks: entries.iter().map(|e| benchmark(e, ctx.metric)).collect(),
    };
    serde_json::to_string_pretty(&file).expect("strings, numbers and maps always encode")
}

#[derive(Serialize)]
struct WireFile<'a> {
    context: WireContext<'a>,
    benchmarks: Vec<WireBenchmark<'a>>,
}

#[derive(Serialize)]
struct WireContext<'a> {
    date: &'a str,
    host_name: &'a str,
    executable: &'a str,
    num_cpus: u32,
    mhz_per_cpu: u64,
    cpu_scaling_enabled: bool,
    caches: Vec<context::Cache>,
    load_avg: Vec<f64>,
    library_build_type: &'a str,
    benchgrind: WireBenchgrind<'a>,
}

/// What makes this file different from a timing.
#[derive(Serialize)]
struct WireBenchgrind<'a> {
    version: u32,
    tool: &'static str,
    valgrind: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    cpu: &'a str,
    cache_geometry: &'a [String],
    metric: &'static str,
    time_fields: String,
    counting: &'a str,
}

#[derive(Serialize)]
struct WireBenchmark<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    family_index: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_family_instance_index: Option<u64>,
    run_name: &'a str,
    run_type: &'static str,
    repetitions: u32,
    repetition_index: u32,
    threads: u32,
    iterations: u64,
    real_time: Count,
    cpu_time: Count,
    time_unit: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    error_occurred: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_message: Option<&'a str>,
    #[serde(flatten)]
    counters: BTreeMap<&'a str, Count>,
}

fn benchmark(e: &Entry, metric: EventKind) -> WireBenchmark<'_> {
    let value = Count(e.value(metric).unwrap_or(0.0));
    let counters = match &e.outcome {
        Ok(counters) => counters
            .iter()
            .map(|(n, v)| (n.as_str(), Count(*v)))
            .collect(),
        Err(_) => BTreeMap::new(),
    };
    WireBenchmark {
        name: &e.name,
        family_index: e.family_index,
        per_family_instance_index: e.per_family_instance_index,
        run_name: &e.name,
        run_type: "iteration",
        repetitions: 1,
        repetition_index: 0,
        threads: 1,
        iterations: e.iterations,
        real_time: value,
        cpu_time: value,
        time_unit: "ns",
        label: e.label.as_deref(),
        error_occurred: e.outcome.is_err(),
        error_message: e.outcome.as_ref().err().map(String::as_str),
        counters,
    }
}

/// A count: written as a whole number when it is one (`9008`, not `9008.0`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Count(pub f64);

/// Whole numbers up to this are exact in an `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0;

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.fract() == 0.0 && self.0.abs() <= EXACT {
            s.serialize_i64(self.0 as i64)
        } else {
            s.serialize_f64(self.0)
        }
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.fract() == 0.0 && self.0.abs() <= EXACT {
            write!(f, "{}", self.0 as i64)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    // A summary as `--output-format=json` prints it (version 1).
    const LINE: &str = r#"{"version":1,"id":"f::g::func::id","package":"p","file":"f","group":"g","function":"func","bench_id":"id","args":"()","command":null,"tool":"callgrind","status":"ok","error":null,"new_source":"run","old_source":"previous run","metrics":{"EstimatedCycles":{"new":110,"old":100,"diff_pct":10.0,"factor":1.1},"Ir":{"new":90,"old":null,"diff_pct":null,"factor":null}},"regressions":[],"files":{"dir":"d","profile":"d/callgrind.out","log":null},"duration_secs":0.5}"#;

    pub(crate) fn context(metric: EventKind) -> Context {
        Context {
            date: "2026-11-24T18:00:00+00:00".into(),
            host_name: "h".into(),
            executable: "target/release/deps/my_bench-1234".into(),
            cpu: "GenuineIntel | Intel(R) Core(TM) i7-4910MQ CPU @ 2.90GHz | fms 306c3 | avx2"
                .into(),
            library_build_type: "release".into(),
            valgrind: "valgrind-3.19.0".into(),
            cache_args: context::cache_args(&[]),
            metric,
            counting: "one call".into(),
        }
    }

    /// An ok summary of `f::g::func::id`, one of another function, and a failed one.
    pub(crate) fn summaries() -> Vec<Summary> {
        let ok: Summary = serde_json::from_str(LINE).unwrap();
        let mut other = ok.clone();
        other.function = "other".into();
        other.id = "f::g::other::id".into();
        let mut failed = ok.clone();
        failed.id = "f::g::func::id2".into();
        failed.bench_id = Some("id2".into());
        failed.status = "failed".into();
        failed.error = Some("panicked at 'boom'".into());
        failed.metrics.clear();
        vec![ok, other, failed]
    }

    #[test]
    fn the_metric_fills_the_time_fields_and_every_metric_is_a_counter() {
        let entries = entries(&summaries());
        let text = json(&entries, &context(EventKind::EstimatedCycles));
        assert!(text.contains("\"real_time\": 110,"), "{text}");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let a = &doc["benchmarks"][0];
        assert_eq!(a["name"], "f::g::func::id");
        assert_eq!(a["run_name"], "f::g::func::id");
        assert_eq!(a["run_type"], "iteration");
        assert_eq!(
            (&a["repetitions"], &a["iterations"]),
            (&1.into(), &1.into())
        );
        assert_eq!(
            (&a["real_time"], &a["cpu_time"]),
            (&110.into(), &110.into())
        );
        assert_eq!((&a["Ir"], &a["EstimatedCycles"]), (&90.into(), &110.into()));
        assert_eq!(a["time_unit"], "ns");
        assert!(a.get("error_occurred").is_none());
        let b = &doc["benchmarks"][1];
        assert_eq!(
            (&b["family_index"], &b["per_family_instance_index"]),
            (&1.into(), &0.into())
        );
        let c = &doc["benchmarks"][2];
        assert_eq!(
            (&c["family_index"], &c["per_family_instance_index"]),
            (&0.into(), &1.into())
        );
        assert_eq!(c["error_occurred"], true);
        assert_eq!(c["error_message"], "panicked at 'boom'");
        assert_eq!(c["iterations"], 0);
        let ctx = &doc["context"];
        assert_eq!(ctx["benchgrind"]["metric"], "EstimatedCycles");
        assert_eq!(ctx["library_build_type"], "release");
        assert_eq!(ctx["mhz_per_cpu"], 2900);
        assert_eq!(ctx["caches"][2]["size"], 8_388_608);
        assert_eq!(ctx["caches"][0]["type"], "Data");
        assert_eq!(ctx["benchgrind"]["cache_geometry"][2], "--LL=8388608,16,64");
        assert!(ctx["benchgrind"]["cpu"]
            .as_str()
            .unwrap()
            .contains("i7-4910MQ"));
        // Instructions when chosen.
        let doc: serde_json::Value =
            serde_json::from_str(&json(&entries, &context(EventKind::Ir))).unwrap();
        assert_eq!(doc["benchmarks"][0]["real_time"], 90);
    }

    #[test]
    fn a_layout_only_benchmark_is_labelled_so() {
        let mut summaries = summaries();
        summaries[1].layout_only = Some(crate::report::summary::WireLayoutOnly {
            functions: 3,
            moved: vec!["EstimatedCycles".into()],
            held: Vec::new(),
        });
        let entries = entries(&summaries);
        let doc: serde_json::Value =
            serde_json::from_str(&json(&entries, &context(EventKind::Ir))).unwrap();
        assert!(doc["benchmarks"][0].get("label").is_none());
        assert_eq!(doc["benchmarks"][1]["label"], LAYOUT_ONLY);
        let csv = super::super::csv::csv(&entries, EventKind::Ir);
        let row = csv
            .lines()
            .find(|l| l.starts_with("\"f::g::other::id\""))
            .unwrap();
        assert!(row.contains(",\"layout only\","), "{row}");
    }

    #[test]
    fn counts_are_whole_numbers_when_they_are_whole() {
        assert_eq!(Count(9008.0).to_string(), "9008");
        assert_eq!(Count(410.5).to_string(), "410.5");
        assert_eq!(serde_json::to_string(&Count(1e20)).unwrap(), "1e+20");
        assert_eq!(serde_json::to_string(&Count(7.0)).unwrap(), "7");
    }
}
