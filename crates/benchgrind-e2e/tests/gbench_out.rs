//! Google Benchmark's flags on a real bench binary under real Valgrind (`e2e_regress`, whose
//! work comes from E2E_WORK): `--benchmark_out` files of a run before and after a change, read
//! by Google Benchmark's own compare.py as Debian's `libbenchmark-tools` installs it
//! (`/usr/share/benchmark/compare.py`, v1.7.1 on Debian 12), which must show the change of the
//! chosen metric; `--benchmark_list_tests`, `--benchmark_filter`, and the csv and console
//! formats.
//!
//! compare.py and the numpy and scipy it imports are installed by `.ci/deps --tests`; where they are
//! missing the compare.py test fails, naming the package to install.

mod common;
#[path = "../../benchgrind-cli/tests/support/compare_py.rs"]
mod compare_py;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use common::{run, stdout};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_e2e_regress");

/// The strict benchmark: its work follows E2E_WORK.
const STRICT: &str = "e2e_regress::limit_5::strict::loop_work";
const UNCHANGED: &str = "e2e_regress::limit_5::unchanged::fixed";
const LENIENT: &str = "e2e_regress::limit_20::lenient::loop_work";

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `e2e_regress` with `args` and `--home` below `dir`, with E2E_WORK=`work`.
fn bench(dir: &Path, work: &str, args: &[&str]) -> Output {
    let home = format!("--home={}", dir.join("home").display());
    let mut all = vec![home.as_str()];
    all.extend_from_slice(args);
    run(BIN, &all, dir, &[("E2E_WORK", work)])
}

/// Each benchmark's metrics from the summaries `--output-format=json` printed.
fn summaries(output: &Output) -> BTreeMap<String, BTreeMap<String, f64>> {
    stdout(output)
        .lines()
        .map(|line| {
            let s: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let metrics = s["metrics"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(name, m)| (name.clone(), m["new"].as_f64().unwrap()))
                .collect();
            (s["id"].as_str().unwrap().to_owned(), metrics)
        })
        .collect()
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// Runs the bench before (E2E_WORK=1000) and after (1100) a change with `--benchmark_out`,
/// then compare.py on the two files; checks its line for every benchmark against the change of
/// `metric` between the summaries of the two runs.
fn compare_before_and_after(metric_flag: Option<&str>, metric: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--output-format=json"];
    args.extend(metric_flag);
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    let out_a = format!("--benchmark_out={}", a.display());
    let before = bench(dir.path(), "1000", &[&args[..], &[out_a.as_str()]].concat());
    assert_eq!(before.status.code(), Some(0), "{}", stderr(&before));
    // The code's +5% limit fails the run (exit code 3); the file is written all the same.
    let out_b = format!("--benchmark_out={}", b.display());
    let after = bench(dir.path(), "1100", &[&args[..], &[out_b.as_str()]].concat());
    assert_eq!(after.status.code(), Some(3), "{}", stderr(&after));
    let (old, new) = (summaries(&before), summaries(&after));
    assert_eq!(old.len(), 3);

    for (path, run) in [(&a, &old), (&b, &new)] {
        let doc = read_json(path);
        assert_eq!(doc["context"]["benchgrind"]["metric"], metric, "{doc}");
        for entry in doc["benchmarks"].as_array().unwrap() {
            let values = &run[entry["name"].as_str().unwrap()];
            assert_eq!(entry["real_time"].as_f64(), Some(values[metric]), "{entry}");
            assert_eq!(entry["cpu_time"].as_f64(), Some(values[metric]), "{entry}");
            for (name, value) in values {
                assert_eq!(entry[name].as_f64(), Some(*value), "{name} in {entry}");
            }
        }
    }

    let (python, script) = compare_py::compare_py();
    let report = Command::new(python)
        .arg("-B")
        .arg(script)
        .args(["--no-color", "benchmarks"])
        .args([&a, &b])
        .output()
        .unwrap();
    let text = stdout(&report);
    assert!(report.status.success(), "{text}{}", stderr(&report));
    for id in [STRICT, UNCHANGED, LENIENT] {
        let (o, n) = (old[id][metric], new[id][metric]);
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id} in\n{text}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        // Name, time change, CPU change, time old and new, CPU old and new.
        let change = format!("{:+.4}", (n - o) / o);
        assert_eq!(fields[1..3], [change.as_str(), change.as_str()], "{line}");
        let (o, n) = (format!("{o:.0}"), format!("{n:.0}"));
        assert_eq!(fields[3..7], [&o, &n, &o, &n], "{line}");
    }
    // The change is there to see: the strict loop grew, the unchanged one did not.
    assert!(new[STRICT][metric] > old[STRICT][metric]);
    assert_eq!(new[UNCHANGED][metric], old[UNCHANGED][metric]);
    text
}

#[test]
fn compare_py_shows_the_change_of_the_chosen_metric() {
    let instructions = compare_before_and_after(None, "Ir");
    eprintln!("{instructions}");
    let cycles = compare_before_and_after(
        Some("--benchmark_metric=estimatedcycles"),
        "EstimatedCycles",
    );
    eprintln!("{cycles}");
    assert_ne!(instructions, cycles);
}

#[test]
fn the_context_states_the_metric_valgrind_cpu_and_caches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.json");
    let out = format!("--benchmark_out={}", path.display());
    let run = bench(
        dir.path(),
        "1000",
        &[
            &out,
            "--benchmark_metric=L1hits",
            "--benchmark_filter=unchanged",
            "--callgrind-args=--LL=4194304,8,64",
        ],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let doc = read_json(&path);
    let ctx = &doc["context"];
    assert_eq!(ctx["benchgrind"]["metric"], "L1hits");
    assert!(ctx["benchgrind"]["valgrind"]
        .as_str()
        .unwrap()
        .starts_with("valgrind-3."));
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    assert_eq!(ctx["library_build_type"], build);
    assert_eq!(ctx["executable"], BIN);
    // The CPU as Valgrind shows it, from the bench binary's own probe.
    #[cfg(target_arch = "x86_64")]
    assert!(
        ctx["benchgrind"]["cpu"]
            .as_str()
            .unwrap()
            .contains(" | fms "),
        "{ctx}"
    );
    let caches: Vec<(&str, u64, u64)> = ctx["caches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let kind = c["type"].as_str().unwrap();
            (
                kind,
                c["level"].as_u64().unwrap(),
                c["size"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        caches,
        [
            ("Data", 1, 32768),
            ("Instruction", 1, 32768),
            ("Unified", 2, 4194304)
        ]
    );
    let date = ctx["date"].as_str().unwrap();
    assert_eq!(date.len(), "2026-11-24T18:00:00+00:00".len(), "{date}");
    let entries = doc["benchmarks"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{doc}");
    assert_eq!(entries[0]["name"], UNCHANGED);
    assert_eq!(entries[0]["real_time"], entries[0]["L1hits"]);
    assert_eq!(entries[0]["iterations"], 1);
}

#[test]
fn list_tests_and_filter_like_google_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let list = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--benchmark_list_tests"];
        all.extend_from_slice(args);
        let out = bench(dir.path(), "1000", &all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).lines().map(str::to_owned).collect()
    };
    assert_eq!(list(&[]), [STRICT, UNCHANGED, LENIENT]);
    // The same benchmarks as `--list`, without its `: benchmark`.
    let libtest = bench(dir.path(), "1000", &["--list"]);
    let libtest: Vec<String> = stdout(&libtest)
        .lines()
        .map(|l| l.trim_end_matches(": benchmark").to_owned())
        .collect();
    assert_eq!(list(&[]), libtest);
    assert_eq!(list(&["--benchmark_filter=loop_work$"]), [STRICT, LENIENT]);
    assert_eq!(list(&["--benchmark_filter=-limit_5"]), [LENIENT]);
    assert_eq!(
        list(&["--benchmark_filter=^e2e_regress::limit_\\d::"]),
        [STRICT, UNCHANGED]
    );
    assert_eq!(
        list(&["--benchmark_filter=(strict|lenient)::"]),
        [STRICT, LENIENT]
    );
    assert_eq!(list(&["--benchmark_filter=all", "strict"]), [STRICT]);
    assert!(list(&["--benchmark_filter=^strict"]).is_empty());
    // Nothing ran.
    assert!(!dir.path().join("home").exists());

    let bad = bench(dir.path(), "1000", &["--benchmark_filter=limit_(5"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--benchmark_filter: `limit_(5` has an unclosed `(`"),
        "{}",
        stderr(&bad)
    );
    let nowhere = bench(dir.path(), "1000", &["--benchmark_out=no/such/dir/a.json"]);
    assert_eq!(nowhere.status.code(), Some(1));
    assert!(
        stderr(&nowhere).contains("the directory no/such/dir does not exist"),
        "{}",
        stderr(&nowhere)
    );
    assert!(!dir.path().join("home").exists(), "it ran before checking");
}

#[test]
fn csv_and_console_files() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("run.csv");
    let out = format!("--benchmark_out={}", csv.display());
    let measured = bench(
        dir.path(),
        "1000",
        &["--output-format=json", &out, "--benchmark_out_format=csv"],
    );
    assert_eq!(measured.status.code(), Some(0), "{}", stderr(&measured));
    let values = summaries(&measured);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let counters = [
        "EstimatedCycles",
        "Ir",
        "L1hits",
        "LLhits",
        "RamHits",
        "TotalRW",
    ];
    let header = format!(
        "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,\
         error_occurred,error_message,{}",
        counters.map(|c| format!("\"{c}\"")).join(",")
    );
    assert_eq!(lines[0], header);
    assert_eq!(lines.len(), 4, "{text}");
    for (line, id) in lines[1..].iter().zip([STRICT, UNCHANGED, LENIENT]) {
        let v = &values[id];
        let expected = format!(
            "\"{id}\",1,{ir},{ir},ns,,,,,,{}",
            counters.map(|c| v[c].to_string()).join(","),
            ir = v["Ir"]
        );
        assert_eq!(*line, expected);
    }

    // console: the terminal report, as the run printed it on stdout.
    let txt = dir.path().join("run.txt");
    let out = format!("--benchmark_out={}", txt.display());
    let shown = bench(
        dir.path(),
        "1100",
        &[&out, "--benchmark_out_format=console"],
    );
    assert_eq!(shown.status.code(), Some(3), "{}", stderr(&shown));
    let file = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(file, stdout(&shown));
    assert!(file.contains("Performance has regressed"), "{file}");
}
