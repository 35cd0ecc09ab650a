//! benchgrind's own results into a [`ResultSet`]: the JSON summary of a benchmark (versions 1
//! and 2, `benchgrind_runner::report::summary::Summary`, schemas `crates/benchgrind-runner/
//! schemas/summary.v*.schema.json`; a newer version is refused, saying so), one per file as
//! `--save-summary` writes it, one per line as
//! `--output-format=json` prints it, or every `summary.json` below a directory.
//!
//! A summary holds, per metric, the run's `new` value and the `old` one it was compared with at
//! the time; `compare` takes each side's `new` values, so that two runs (or two builds) are
//! compared with each other and not with whatever each ran against. Benchmarks are named by
//! their `id` (`file::group::function::id`); every metric becomes a single-sample metric where
//! lower is better, as the bench binary's own regression limits treat them. perf's metrics
//! (version 7) follow as `perf-<name>`, a sample per round.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::fingerprint::Fingerprint;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::report::summary::{check_version, Summary};
use benchgrind_runner::EventKind;
use serde::Deserialize;
use serde_json::Value;

use crate::compare::model::{Benchmark, Better, Kind, Metric, ResultSet, Unit};

/// What names a summary's perf metric in a comparison: `perf-task-clock`.
pub const PERF_PREFIX: &str = "perf-";

/// Metrics that also feed the overall geometric-mean line: the two headline numbers.
const GEOMEAN_METRICS: &[&str] = &["Ir", "EstimatedCycles"];

/// Whether `doc` looks like a benchgrind summary (of any version): an object with `version`,
/// `id` and `metrics`. The full shape is checked by [`convert`], with a precise error.
pub fn recognise(doc: &Value) -> bool {
    ["version", "id", "metrics"]
        .iter()
        .all(|key| doc.get(key).is_some())
}

/// One summary as a benchmark; `at` says where it was read, for errors.
pub fn convert(doc: &Value, at: &str) -> Result<Benchmark> {
    let version = doc.get("version").and_then(Value::as_u64);
    check_version(version, &format!("{at}: benchgrind")).map_err(anyhow::Error::msg)?;
    let summary = Summary::deserialize(doc).with_context(|| {
        format!(
            "{at}: not a benchgrind summary of version {}",
            version.unwrap_or_default()
        )
    })?;
    Ok(benchmark(summary))
}

/// A benchgrind summary as a benchmark: its `new` value per metric.
fn benchmark(summary: Summary) -> Benchmark {
    let error = (summary.status == "failed").then(|| {
        summary
            .error
            .clone()
            .unwrap_or_else(|| "the benchmark failed".into())
    });
    // Report order of the bench binary (Ir, hits, cycles, then raw events), not the map's
    // alphabetical one; names this version does not know follow, as they come.
    let position = |name: &str| {
        EventKind::ALL
            .iter()
            .position(|k| k.name() == name)
            .unwrap_or(EventKind::ALL.len())
    };
    let mut metrics: Vec<Metric> = summary
        .metrics
        .iter()
        .map(|(name, value)| Metric {
            name: name.clone(),
            unit: Unit::Count,
            better: Better::Lower,
            // Counts are exact up to 2^53, far beyond any benchmark's instruction count.
            samples: vec![value.new as f64],
            geomean: GEOMEAN_METRICS.contains(&name.as_str()),
        })
        .collect();
    metrics.sort_by_key(|m| position(&m.name));
    // perf's metrics after the counts, as `perf-<name>`: each round's mean a sample (the rounds
    // are what perf's own comparison takes), or the mean alone from a summary without them.
    for m in summary.perf.iter().flat_map(|p| &p.metrics) {
        metrics.push(Metric {
            name: format!("{PERF_PREFIX}{}", m.name),
            unit: if m.unit == "ns" {
                Unit::Nanoseconds
            } else {
                Unit::Count
            },
            better: Better::Lower,
            samples: if m.new_rounds.is_empty() {
                vec![m.new.mean]
            } else {
                m.new_rounds.clone()
            },
            geomean: false,
        });
    }
    Benchmark {
        name: summary.id,
        kind: Kind::Run,
        metrics,
        error,
        entries: Vec::new(),
    }
}

/// Reads a file of summaries, one JSON value per line (`--output-format=json`); the first value
/// was recognised by the caller. Errors name `path:line`.
pub fn convert_lines(path: &Path, text: &str, label: String) -> Result<ResultSet> {
    let mut benchmarks = Vec::new();
    let mut machines = Vec::new();
    let mut origins = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), index + 1);
        let doc: Value = serde_json::from_str(line).map_err(|e| {
            anyhow::anyhow!(
                "{at}:{}: malformed JSON ({}); expected one benchgrind summary per line, as \
                 `--output-format=json` prints them",
                e.column(),
                strip_position(&e)
            )
        })?;
        if !recognise(&doc) {
            bail!(
                "{at}: not a benchgrind summary (expected an object with `version`, `id` and \
                 `metrics`, {})",
                super::lenient::describe(&doc)
            );
        }
        let bench = convert(&doc, &at)?;
        note_machine(&mut machines, &doc);
        push_unique(&mut benchmarks, &mut origins, bench, at)?;
    }
    Ok(ResultSet {
        label,
        benchmarks,
        machines,
        gbench: None,
    })
}

/// Reads every `summary.json` below `dir`, in path order.
pub fn load_dir(dir: &Path, label: String) -> Result<ResultSet> {
    let mut files = Vec::new();
    find_files(dir, &|name| name == "summary.json", &mut files)?;
    if files.is_empty() {
        bail!(
            "`{}` holds no `summary.json`: run the benchmarks with `--save-summary`, or pass a \
             summary file, a bench binary or a baseline name",
            dir.display()
        );
    }
    files.sort();
    let mut benchmarks = Vec::new();
    let mut machines = Vec::new();
    let mut origins = BTreeMap::new();
    for file in files {
        let at = file.display().to_string();
        let text = fs::read_to_string(&file).file_op("read", &file)?;
        let doc: Value = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{at}:{}:{}: malformed JSON ({}); expected a benchgrind summary",
                e.line(),
                e.column(),
                strip_position(&e)
            )
        })?;
        if !recognise(&doc) {
            bail!(
                "`{at}` is not a benchgrind summary (expected an object with `version`, `id` \
                 and `metrics`, {})",
                super::lenient::describe(&doc)
            );
        }
        let bench = convert(&doc, &at)?;
        note_machine(&mut machines, &doc);
        push_unique(&mut benchmarks, &mut origins, bench, at)?;
    }
    Ok(ResultSet {
        label,
        benchmarks,
        machines,
        gbench: None,
    })
}

/// The summaries in a file's text, each with its line number: the whole text when it is one
/// (indented) JSON document, else every line that is not blank (`--output-format=json`).
pub fn documents(text: &str) -> Vec<(usize, &str)> {
    if serde_json::from_str::<Value>(text).is_ok() {
        return vec![(1, text)];
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect()
}

/// Keeps the fingerprint of a summary's machine, each distinct one once.
pub fn note_machine(machines: &mut Vec<Fingerprint>, doc: &Value) {
    let Some(fingerprint) = doc
        .get("fingerprint")
        .and_then(|f| Fingerprint::deserialize(f).ok())
    else {
        return;
    };
    if !machines.contains(&fingerprint) {
        machines.push(fingerprint);
    }
}

/// Adds `bench` unless its id was already read: two results for one id cannot be matched.
fn push_unique(
    benchmarks: &mut Vec<Benchmark>,
    origins: &mut BTreeMap<String, String>,
    bench: Benchmark,
    at: String,
) -> Result<()> {
    if let Some(first) = origins.get(&bench.name) {
        bail!(
            "benchmark `{}` is there twice, in {first} and in {at}: compare one run at a time \
             (packages with the same bench file name need separate inputs)",
            bench.name
        );
    }
    origins.insert(bench.name.clone(), at);
    benchmarks.push(bench);
    Ok(())
}

/// Collects the files below `dir` whose name `wanted` accepts; symbolic links to directories are
/// not followed, so a loop cannot make this endless.
pub fn find_files(dir: &Path, wanted: &dyn Fn(&str) -> bool, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = fs::read_dir(dir).file_op("read directory", dir)?;
    for entry in entries {
        let entry = entry.file_op("read directory", dir)?;
        let kind = entry.file_type().file_op("read", &entry.path())?;
        if kind.is_dir() {
            find_files(&entry.path(), wanted, out)?;
        } else if entry.file_name().to_str().is_some_and(wanted) {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// serde_json's message without its trailing ` at line L column C`, which the caller puts first.
pub fn strip_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    message
        .rsplit_once(" at line ")
        .map_or(message.clone(), |(m, _)| m.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_that_cannot_be_read_is_named_with_its_cause_once() {
        let missing = Path::new("/nonexistent/benchgrind");
        let err = find_files(missing, &|_| true, &mut Vec::new()).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            "cannot read directory /nonexistent/benchgrind: No such file or directory (os error 2)"
        );
    }

    const LINE: &str = r#"{"version":1,"id":"f::g::func::id","package":"p","file":"f","group":"g","function":"func","bench_id":"id","args":"()","command":null,"tool":"callgrind","status":"ok","error":null,"new_source":"run","old_source":"previous run","metrics":{"EstimatedCycles":{"new":110,"old":100,"diff_pct":10.0,"factor":1.1},"Ir":{"new":90,"old":null,"diff_pct":null,"factor":null},"Zzz":{"new":1,"old":null,"diff_pct":null,"factor":null}},"regressions":[],"files":{"dir":"d","profile":"d/callgrind.out","log":null},"duration_secs":0.5}"#;

    #[test]
    fn takes_the_new_values_in_report_order() {
        let doc: Value = serde_json::from_str(LINE).unwrap();
        assert!(recognise(&doc));
        let bench = convert(&doc, "x").unwrap();
        assert_eq!(bench.name, "f::g::func::id");
        let names: Vec<_> = bench.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["Ir", "EstimatedCycles", "Zzz"]);
        assert_eq!(bench.metrics[1].samples, [110.0]);
        assert!(bench.metrics[0].geomean && !bench.metrics[2].geomean);
        assert!(bench.metrics.iter().all(|m| m.better == Better::Lower));
        assert_eq!(bench.error, None);
    }

    #[test]
    fn perfs_metrics_follow_the_counts_a_sample_per_round() {
        let perf = r#","perf":{"alpha":0.05,"noise_pct":1.5,"metrics":[{"name":"task-clock","unit":"ns","new":{"mean":2.0,"sd":1.0,"n":3},"old":null,"change_pct":null,"p_value":null,"significant":false,"new_rounds":[1.0,2.0,3.0]},{"name":"page-faults","unit":"count","new":{"mean":7.0,"sd":0.0,"n":1},"old":null,"change_pct":null,"p_value":null,"significant":false}],"regressions":[],"notes":[],"error":null}}"#;
        let v7 = LINE.replace(r#""version":1"#, r#""version":7"#);
        let line = format!("{}{perf}", &v7[..v7.len() - 1]);
        let bench = convert(&serde_json::from_str(&line).unwrap(), "x").unwrap();
        let names: Vec<_> = bench.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Ir",
                "EstimatedCycles",
                "Zzz",
                "perf-task-clock",
                "perf-page-faults"
            ]
        );
        assert_eq!(bench.metrics[3].samples, [1.0, 2.0, 3.0]);
        assert_eq!(bench.metrics[3].unit, Unit::Nanoseconds);
        assert_eq!(bench.metrics[4].samples, [7.0]);
        assert_eq!(bench.metrics[4].unit, Unit::Count);
        assert!(!bench.metrics[3].geomean);
    }

    #[test]
    fn failures_versions_and_shapes() {
        let failed = LINE
            .replace(r#""status":"ok""#, r#""status":"failed""#)
            .replace(r#""error":null"#, r#""error":"boom""#);
        let bench = convert(&serde_json::from_str(&failed).unwrap(), "x").unwrap();
        assert_eq!(bench.error.as_deref(), Some("boom"));

        let v2 = LINE.replace(r#""version":1"#, r#""version":2"#);
        let bench = convert(&serde_json::from_str(&v2).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v3 = LINE.replace(r#""version":1"#, r#""version":3"#);
        let bench = convert(&serde_json::from_str(&v3).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v4 = LINE.replace(r#""version":1"#, r#""version":4"#);
        let bench = convert(&serde_json::from_str(&v4).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v5 = LINE.replace(r#""version":1"#, r#""version":5"#);
        let bench = convert(&serde_json::from_str(&v5).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v6 = LINE.replace(r#""version":1"#, r#""version":6"#);
        let bench = convert(&serde_json::from_str(&v6).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v7 = LINE.replace(r#""version":1"#, r#""version":7"#);
        let bench = convert(&serde_json::from_str(&v7).unwrap(), "x").unwrap();
        assert_eq!(bench.metrics.len(), 3);
        let v8 = LINE.replace(r#""version":1"#, r#""version":8"#);
        let err = convert(&serde_json::from_str(&v8).unwrap(), "f.json").unwrap_err();
        let err = format!("{err:#}");
        assert!(
            err.contains("f.json: benchgrind: summary version 8 is newer than this benchgrind")
                && err.contains("update benchgrind"),
            "{err}"
        );

        let broken = LINE.replace(r#""new":90,"#, "");
        let err = convert(&serde_json::from_str(&broken).unwrap(), "f.json:3").unwrap_err();
        let err = format!("{err:#}");
        assert!(err.contains("f.json:3") && err.contains("`new`"), "{err}");
    }

    #[test]
    fn lines_name_the_line_at_fault_and_refuse_duplicates() {
        let path = Path::new("runs.json");
        let two = format!("{LINE}\n\n{}\n", LINE.replace("::id\"", "::other\""));
        let set = convert_lines(path, &two, "l".into()).unwrap();
        assert_eq!(set.benchmarks.len(), 2);

        let cut = format!("{LINE}\n{}\n", &LINE[..40]);
        let err = format!("{:#}", convert_lines(path, &cut, "l".into()).unwrap_err());
        assert!(err.starts_with("runs.json:2:"), "{err}");

        let twice = format!("{LINE}\n{LINE}\n");
        let err = format!("{:#}", convert_lines(path, &twice, "l".into()).unwrap_err());
        assert!(err.contains("runs.json:1 and in runs.json:2"), "{err}");

        let foreign = format!("{LINE}\n{{\"results\": []}}\n");
        let err = format!(
            "{:#}",
            convert_lines(path, &foreign, "l".into()).unwrap_err()
        );
        assert!(
            err.contains("runs.json:2: not a benchgrind summary"),
            "{err}"
        );
    }
}
