//! `benchgrind compare` against Google Benchmark's own compare.py (Debian's `libbenchmark-tools`,
//! which `.ci/deps --tests` installs) on the same files, row for row: Google Benchmark's test
//! inputs (`test1` to `test4`, installed with the script), this crate's real Google Benchmark
//! fixtures, and `gb_same_name_{old,new}.json` (a run and an aggregate of the same name, a change
//! from 0, a benchmark on one side only).
//!
//! Each row compare.py shows (its `--dump_to_json`) must be either the same in our report (the
//! same old value, the same time and CPU changes, the same p-values) or listed in our
//! `compare_py` differences with compare.py's numbers; and each of our rows that compare.py does
//! not have must be listed there too. Without compare.py (or the numpy and scipy it imports) the
//! test fails, naming the package to install.

#[path = "compare/common.rs"]
mod common;
#[path = "support/compare_py.rs"]
mod compare_py;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value;

/// Where `libbenchmark-tools` puts Google Benchmark's test inputs.
const INPUTS: &str = "/usr/share/benchmark/gbench/Inputs";

fn input(name: &str) -> PathBuf {
    Path::new(INPUTS).join(name)
}

/// compare.py's `--dump_to_json` for `args` (a mode and its inputs).
fn compare_py_rows(args: &[&Path]) -> Vec<Value> {
    let (python, script) = compare_py::compare_py();
    let dump = std::env::temp_dir().join(format!(
        "benchgrind-compare-py-{}-{}.json",
        std::process::id(),
        args[1].file_name().unwrap().to_string_lossy()
    ));
    let out = Command::new(python)
        .arg("-B") // no __pycache__ next to the installed script
        .arg(script)
        .args(["--no-color", "--dump_to_json"])
        .arg(&dump)
        .args(args)
        .output()
        .unwrap();
    let text = expect_code(&out, 0);
    eprintln!("compare.py:\n{text}");
    let rows: Value = serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    std::fs::remove_file(&dump).ok();
    rows.as_array().unwrap().clone()
}

/// Our JSON report for the same arguments.
fn ours(args: &[&Path]) -> Value {
    let mut argv: Vec<&std::ffi::OsStr> = args.iter().map(|p| p.as_os_str()).collect();
    argv.push("--format=json".as_ref());
    let json = report(&expect_code(&compare(&argv), 0));
    argv.pop();
    eprintln!("benchgrind:\n{}", expect_code(&compare(&argv), 0));
    json
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn assert_close(got: Option<f64>, want: Option<f64>, what: &str) {
    match (got, want) {
        (Some(g), Some(w)) => assert!(
            (g - w).abs() <= 1e-9 * w.abs().max(1.0),
            "{what}: ours {g}, compare.py {w}"
        ),
        (g, w) => assert_eq!(
            g.is_some(),
            w.is_some(),
            "{what}: ours {g:?}, compare.py {w:?}"
        ),
    }
}

/// Nanoseconds per `time_unit`.
fn ns(unit: &str) -> f64 {
    match unit {
        "ns" => 1.0,
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        other => panic!("time unit {other}"),
    }
}

/// Our difference for compare.py's row, if we list one.
fn difference<'a>(
    report: &'a Value,
    name: &str,
    row: &str,
    index: Option<usize>,
) -> Option<&'a Value> {
    report["compare_py"].as_array().unwrap().iter().find(|d| {
        d["name"] == name && d["row"] == row && d["index"].as_u64().map(|i| i as usize) == index
    })
}

/// The pairs our report shows for benchmarks named `name`, in compare.py's order (runs first,
/// repetition by repetition, then aggregates in file order): (label, time, cpu), each
/// `(old, change)`.
type Pair = (String, (f64, Option<f64>), (f64, Option<f64>));
fn our_pairs(report: &Value, name: &str) -> Vec<Pair> {
    let mut benches: Vec<&Value> = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["name"] == name)
        .collect();
    benches.sort_by_key(|b| b["kind"] != "run");
    let mut out = Vec::new();
    for b in benches {
        let metric = |m: &str| {
            b["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == m)
                .cloned()
        };
        let (Some(time), Some(cpu)) = (metric("time"), metric("cpu")) else {
            continue;
        };
        let pairs = |m: &Value| -> Vec<(f64, Option<f64>)> {
            let reps = m["repetitions"].as_array().unwrap();
            if reps.is_empty() {
                vec![(m["old"].as_f64().unwrap(), num(&m["change"]))]
            } else {
                reps.iter()
                    .map(|r| (r["old"].as_f64().unwrap(), num(&r["change"])))
                    .collect()
            }
        };
        let label = b["label"].as_str().unwrap().to_string();
        for (t, c) in pairs(&time).into_iter().zip(pairs(&cpu)) {
            out.push((label.clone(), t, c));
        }
    }
    out
}

/// Checks our report against compare.py's rows; returns how many rows were the same and how many
/// we list as differing.
fn check(args: &[&Path]) -> (usize, usize) {
    let rows = compare_py_rows(args);
    let report = ours(args);
    let (mut same, mut listed) = (0, 0);
    let mut claimed: Vec<String> = Vec::new();
    for row in &rows {
        let name = row["name"].as_str().unwrap();
        let measurements = row["measurements"].as_array().unwrap();
        if name == "OVERALL_GEOMEAN" {
            let m = &measurements[0];
            let (t, c) = (num(&m["time"]), num(&m["cpu"]));
            if let Some(d) = difference(&report, name, "geomean", None) {
                assert_close(num(&d["time"]), t, "OVERALL_GEOMEAN time (listed)");
                assert_close(num(&d["cpu"]), c, "OVERALL_GEOMEAN cpu (listed)");
                listed += 1;
            } else {
                let g = |metric: &str| {
                    report["geomean"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|x| x["name"] == metric)
                        .and_then(|x| num(&x["change"]))
                };
                assert_close(g("time"), t, "OVERALL_GEOMEAN time");
                assert_close(g("cpu"), c, "OVERALL_GEOMEAN cpu");
                same += 1;
            }
            continue;
        }
        let unit = ns(row["time_unit"].as_str().unwrap());
        let pairs = our_pairs(&report, name);
        for (j, m) in measurements.iter().enumerate() {
            let (t, c) = (num(&m["time"]), num(&m["cpu"]));
            if let Some(d) = difference(&report, name, "pair", Some(j)) {
                assert_close(num(&d["time"]), t, &format!("{name} #{j} time (listed)"));
                assert_close(num(&d["cpu"]), c, &format!("{name} #{j} cpu (listed)"));
                listed += 1;
                continue;
            }
            let Some((label, (t_old, t_change), (c_old, c_change))) = pairs.get(j) else {
                panic!("compare.py's {name} #{j} is neither in our report nor listed: {report:#}");
            };
            let what = format!("{name} #{j} ({label})");
            assert_close(Some(*t_old), num(&m["real_time"]).map(|v| v * unit), &what);
            assert_close(Some(*c_old), num(&m["cpu_time"]).map(|v| v * unit), &what);
            assert_close(*t_change, t, &format!("{what} time change"));
            assert_close(*c_change, c, &format!("{what} cpu change"));
            claimed.push(label.clone());
            same += 1;
        }
        let utest = &row["utest"];
        if utest.as_object().is_some_and(|u| !u.is_empty()) {
            let (t, c) = (num(&utest["time_pvalue"]), num(&utest["cpu_pvalue"]));
            let pvalue = format!("{name}_pvalue");
            if let Some(d) = difference(&report, &pvalue, "u_test", None) {
                assert_close(num(&d["time"]), t, &format!("{pvalue} time (listed)"));
                assert_close(num(&d["cpu"]), c, &format!("{pvalue} cpu (listed)"));
                listed += 1;
            } else {
                let p =
                    |metric: &str| num(&metric_of_run(&report, name, metric)["u_test"]["p_value"]);
                assert_close(p("time"), t, &format!("{pvalue} time"));
                assert_close(p("cpu"), c, &format!("{pvalue} cpu"));
                same += 1;
            }
        }
    }
    // Our rows compare.py does not have are listed, by label.
    let py_names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    for b in report["benchmarks"].as_array().unwrap() {
        let label = b["label"].as_str().unwrap();
        let shown =
            claimed.iter().any(|c| c == label) && py_names.contains(&b["name"].as_str().unwrap());
        // A row of compare.py's with other numbers for the same pair (a change from 0) is
        // listed under compare.py's name.
        let renumbered = report["compare_py"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["row"] == "pair" && d["name"] == b["name"]);
        if !shown && !renumbered {
            assert!(
                difference(&report, label, "absent", None).is_some(),
                "our {label} is not in compare.py's report and not listed: {report:#}"
            );
        }
    }
    (same, listed)
}

/// The metric of the run (not an aggregate) named `name`.
fn metric_of_run(report: &Value, name: &str, metric: &str) -> Value {
    report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name && b["kind"] == "run")
        .and_then(|b| {
            b["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["name"] == metric)
                .cloned()
        })
        .unwrap_or(Value::Null)
}

fn p(s: &str) -> &Path {
    Path::new(s)
}

#[test]
fn test1_same_rows_and_the_rows_compare_py_leaves_out() {
    let (old, new) = (input("test1_run1.json"), input("test1_run2.json"));
    let (same, listed) = check(&[p("benchmarks"), &old, &new]);
    // 13 benchmarks and the geometric mean; BM_DifferentTimeUnit (s against ns) and the
    // complexity aggregates (no times) are ours only, and listed.
    assert_eq!((same, listed), (14, 0));
}

#[test]
fn test2_filters() {
    let file = input("test2_run.json");
    let (same, listed) = check(&[p("filters"), &file, p("BM_Z.ro"), p("BM_O.e")]);
    assert_eq!((same, listed), (5, 0));
}

#[test]
fn test3_runs_pair_with_runs_and_compare_py_pairs_by_position() {
    let (old, new) = (input("test3_run0.json"), input("test3_run1.json"));
    let args = [p("benchmarks"), &old, &new];
    let (same, listed) = check(&args);
    // Same: BM_Two #0 (the two files' first runs, -22.22%) and medium #0. Listed: BM_Two #1 (a
    // run against an aggregate), BM_One (an aggregate against a run), short #0 and #1, both
    // p-values (over runs and aggregates together) and the geometric mean (over unpaired runs).
    assert_eq!((same, listed), (2, 7));
    let report = ours(&args);
    let two = metric_of_run(&report, "BM_Two", "time");
    assert_close(
        num(&two["repetitions"][0]["change"]),
        Some(-2.0 / 9.0),
        "BM_Two #0",
    );
    assert_eq!(
        report["only_old"],
        serde_json::json!(["BM_One (aggregate)"])
    );
    assert_eq!(
        report["only_new"],
        serde_json::json!(["BM_One", "BM_Two (aggregate)", "short"])
    );
}

#[test]
fn test4_percentage_aggregates() {
    let (old, new) = (input("test4_run0.json"), input("test4_run1.json"));
    assert_eq!(check(&[p("benchmarks"), &old, &new]), (1, 0));
}

#[test]
fn a_run_and_an_aggregate_of_the_same_name() {
    let (old, new) = (
        fixture("gb_same_name_old.json"),
        fixture("gb_same_name_new.json"),
    );
    let args = [p("benchmarks"), &old, &new];
    let (same, listed) = check(&args);
    // Same: BM_A's three repetitions, its mean (named BM_A too, first in the new file), BM_A_median.
    // Listed: BM_A_pvalue (compare.py tests the runs and the mean together), BM_Zero (a change
    // from 0: n/a here, +2.0000 there) and the geometric mean (BM_Gone and BM_New are in it).
    assert_eq!((same, listed), (5, 3));
    let report = ours(&args);
    let mean = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["label"] == "BM_A (aggregate mean)")
        .expect("the mean of BM_A");
    assert_close(
        num(&mean["metrics"][0]["change"]),
        Some(3.0 / 11.0),
        "BM_A mean",
    );
    let run = metric_of_run(&report, "BM_A", "time");
    assert_close(num(&run["repetitions"][0]["change"]), Some(0.3), "BM_A #0");
}

#[test]
fn real_google_benchmark_output() {
    for pair in ["gb_reps9", "gb_reps5", "gb_single"] {
        let (old, new) = (
            fixture(&format!("{pair}_old.json")),
            fixture(&format!("{pair}_new.json")),
        );
        let (same, _) = check(&[p("benchmarks"), &old, &new]);
        assert!(same > 0, "{pair}");
    }
}
