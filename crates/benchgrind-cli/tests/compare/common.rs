//! Helpers shared by the `compare` integration tests: run the real `benchgrind` binary, find
//! fixtures, read its JSON report.

#![allow(dead_code)] // each test file uses its own subset

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// `tests/compare/fixtures/NAME`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compare/fixtures")
        .join(name)
}

/// Runs `benchgrind compare ARGS...` with colors off and returns what it did.
pub fn compare<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_benchgrind"))
        .arg("compare")
        .args(args)
        .env_remove("BENCHGRIND_COLOR")
        .env_remove("CARGO_TERM_COLOR")
        .output()
        .expect("cannot start the benchgrind binary")
}

/// The exit code, stdout and stderr, for assertion messages.
pub fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Asserts the exit code and returns stdout.
pub fn expect_code(out: &Output, code: i32) -> String {
    assert_eq!(out.status.code(), Some(code), "{}", describe(out));
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// Parses a `--format json` report.
pub fn report(stdout: &str) -> Value {
    let v: Value = serde_json::from_str(stdout).expect("the report is JSON");
    assert_eq!(v["format"], "benchgrind-compare");
    assert_eq!(v["version"], 1);
    v
}

/// The metric `metric` of benchmark `name` in a report.
pub fn metric<'a>(report: &'a Value, name: &str, metric: &str) -> &'a Value {
    let bench = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no benchmark {name} in the report"));
    bench["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == metric)
        .unwrap_or_else(|| panic!("no metric {metric} for {name}"))
}

/// Reads Google Benchmark JSON, whose bare NaN and Infinity strict JSON rejects (the tests only
/// need the times, so those become null).
pub fn read_gbench(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text
        .replace(": -Infinity", ": null")
        .replace(": Infinity", ": null")
        .replace(": NaN", ": null");
    serde_json::from_str(&text).unwrap()
}

/// Asserts `a` and `b` agree to 4 decimals (the bar), with context.
pub fn assert_4_decimals(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() < 5e-5,
        "{what}: benchgrind {got:.6}, expected {want:.6}"
    );
}

/// Compares the times, changes and p-values of a benchgrind JSON report with the output of
/// `fixtures/scipy_reference.py` for the same pair (compare.py's algorithm), to 4 decimals.
pub fn assert_matches_reference(report: &Value, reference: &Value) {
    let benchmarks = reference["benchmarks"].as_object().unwrap();
    assert!(!benchmarks.is_empty());
    for (name, expected) in benchmarks {
        for (field, ours) in [("real_time", "time"), ("cpu_time", "cpu")] {
            let m = metric(report, name, ours);
            let want = expected[field]["changes"].as_array().unwrap();
            let got: Vec<f64> = if want.len() == 1 {
                vec![m["change"].as_f64().unwrap()]
            } else {
                m["repetitions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["change"].as_f64().unwrap())
                    .collect()
            };
            assert_eq!(got.len(), want.len(), "{name} {ours}: repetition pairs");
            for (i, (g, w)) in got.iter().zip(want).enumerate() {
                assert_4_decimals(
                    *g,
                    w.as_f64().unwrap(),
                    &format!("{name} {ours} change #{i}"),
                );
            }
            match expected[field]["p_value"].as_f64() {
                Some(p) => assert_4_decimals(
                    m["u_test"]["p_value"].as_f64().unwrap(),
                    p,
                    &format!("{name} {ours} p-value"),
                ),
                None => assert!(m["u_test"].is_null(), "{name} {ours}: no U test expected"),
            }
        }
    }
    for (field, ours) in [("real_time", "time"), ("cpu_time", "cpu")] {
        let geo = report["geomean"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == ours)
            .expect("a geomean line");
        assert_4_decimals(
            geo["change"].as_f64().unwrap(),
            reference["geomean_change"][field].as_f64().unwrap(),
            &format!("geomean {ours} change"),
        );
    }
}
