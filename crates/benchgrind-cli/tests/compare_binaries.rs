//! `benchgrind compare` on real Google Benchmark binaries: `tests/compare/bench.cc` built twice
//! with Debian's `libbenchmark-dev` (as is, and with `-DSLOWER`), compared as binaries and as the
//! JSON files they wrote, which must give the same changes and p-values; the numbers are checked
//! against compare.py's algorithm (scipy) when scipy is installed.
//!
//! Without libbenchmark-dev these tests are skipped with a loud message, except under CI=true,
//! where they fail: CI must install it.

#[path = "compare/common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::*;
use serde_json::Value;

const QUICK: [&str; 2] = ["--benchmark_min_time=0.01", "--benchmark_repetitions=9"];

/// A temporary folder removed at the end of the test.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("benchgrind-compare-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The old and the new binary, built once per test process into Cargo's temporary folder for
/// tests; `None` (after a loud message) when Google Benchmark is not installed.
fn built() -> Option<&'static (PathBuf, PathBuf)> {
    static BUILT: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    BUILT.get_or_init(build).as_ref()
}

fn build() -> Option<(PathBuf, PathBuf)> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compare/bench.cc");
    let header = Path::new("/usr/include/benchmark/benchmark.h");
    if !header.exists() {
        let msg = "libbenchmark-dev is not installed (no /usr/include/benchmark/benchmark.h): \
                   `apt-get install -y libbenchmark-dev g++`";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}; CI must install it");
        }
        eprintln!(
            "\n{0}\nSKIPPED compare_binaries: {msg}\n{0}\n",
            "!".repeat(78)
        );
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-gbench");
    std::fs::create_dir_all(&dir).unwrap();
    let compile = |name: &str, defines: &[&str]| {
        // Built under a private name and renamed, so concurrent test processes never run a
        // half-written binary.
        let partial = dir.join(format!("{name}.{}", std::process::id()));
        let child = Command::new("g++")
            .args(["-O2", "-std=c++17"])
            .args(defines)
            .arg("-o")
            .arg(&partial)
            .arg(&source)
            .args(["-lbenchmark", "-lpthread"])
            .spawn()
            .expect("cannot run g++ (apt-get install -y g++)");
        (partial, dir.join(name), child)
    };
    let mut built = Vec::new();
    for (partial, path, mut child) in [
        compile("bench_old", &[]),
        compile("bench_new", &["-DSLOWER"]),
    ] {
        assert!(
            child.wait().unwrap().success(),
            "g++ failed to build {path:?}"
        );
        std::fs::rename(partial, &path).unwrap();
        built.push(path);
    }
    let new = built.pop().unwrap();
    Some((built.pop().unwrap(), new))
}

/// The parts of a report that do not depend on where the results came from.
fn results(report: &Value) -> Value {
    let mut v = report.clone();
    let map = v.as_object_mut().unwrap();
    map.remove("old");
    map.remove("new");
    v
}

/// Runs fixtures/scipy_reference.py on a pair; `None` when python3 or scipy is missing.
fn scipy_reference(old: &Path, new: &Path) -> Option<Value> {
    let script = fixture("scipy_reference.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(old)
        .arg(new)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "\nNOTE compare_binaries: scipy unavailable ({}); the p-values of fresh runs are \
             not checked against scipy here (the committed fixtures are, in compare_gbench). \
             `pip install scipy` or `apt-get install python3-scipy` to check them too.\n",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        );
        return None;
    }
    Some(serde_json::from_slice(&out.stdout).expect("scipy_reference.py prints JSON"))
}

#[test]
fn binaries_and_their_json_give_the_same_changes_and_p_values() {
    let Some((old, new)) = built() else {
        return;
    };
    let dir = TempDir::new("binaries");
    let kept = dir.0.join("kept");
    let mut args = vec![
        old.clone().into_os_string(),
        new.clone().into_os_string(),
        "--format=json".into(),
        "--keep-results".into(),
        kept.clone().into_os_string(),
        "--".into(),
    ];
    args.extend(QUICK.iter().map(Into::into));
    let out = compare(&args);
    // The binaries' console tables went to stderr; stdout is the JSON report alone.
    let from_binaries = report(&expect_code(&out, 0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("BM_Accumulate/1024"),
        "{}",
        describe(&out)
    );
    let (old_json, new_json) = (kept.join("old.json"), kept.join("new.json"));
    let out = compare([
        old_json.as_os_str(),
        new_json.as_os_str(),
        "--format=json".as_ref(),
    ]);
    let from_files = report(&expect_code(&out, 0));
    assert_eq!(results(&from_binaries), results(&from_files));

    // The changes, recomputed here from the files the binaries wrote.
    let (o, n) = (read_gbench(&old_json), read_gbench(&new_json));
    let times = |doc: &Value, name: &str| -> Vec<f64> {
        doc["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["name"] == name)
            .map(|b| b["cpu_time"].as_f64().unwrap())
            .collect()
    };
    let (xs, ys) = (
        times(&o, "BM_Accumulate/8192"),
        times(&n, "BM_Accumulate/8192"),
    );
    assert_eq!(xs.len(), 9);
    let m = metric(&from_files, "BM_Accumulate/8192", "cpu");
    for (i, rep) in m["repetitions"].as_array().unwrap().iter().enumerate() {
        let want = (ys[i] - xs[i]) / xs[i].abs();
        assert_4_decimals(
            rep["change"].as_f64().unwrap(),
            want,
            &format!("repetition {i}"),
        );
    }
    assert_eq!(m["u_test"]["reliable"], true);
    assert_eq!(from_files["only_old"][0], "BM_OnlyOld");
    assert_eq!(from_files["failures"][0]["name"], "BM_Fragile");

    if let Some(reference) = scipy_reference(&old_json, &new_json) {
        assert_matches_reference(&from_binaries, &reference);
        eprintln!("compare_binaries: fresh results match scipy to 4 decimals");
    }
}

#[test]
fn filters_mode_runs_one_binary_twice() {
    let Some((old, _)) = built() else {
        return;
    };
    let out = compare([
        "filters".as_ref(),
        old.as_os_str(),
        "/1024".as_ref(),
        "/8192".as_ref(),
        "--format=json".as_ref(),
        "--".as_ref(),
        "--benchmark_min_time=0.01".as_ref(),
    ]);
    let r = report(&expect_code(&out, 0));
    let names: Vec<_> = r["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["BM_Accumulate[/1024 vs. /8192]"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--benchmark_filter=/1024") && err.contains("--benchmark_filter=/8192"),
        "{err}"
    );
}

#[test]
fn failing_and_foreign_binaries_are_named() {
    let Some((old, new)) = built() else {
        return;
    };
    let dir = TempDir::new("failing");
    // Google Benchmark rejects an unknown flag and exits non-zero.
    let out = compare([
        old.as_os_str(),
        new.as_os_str(),
        "--".as_ref(),
        "--benchmark_no_such_flag".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bench_old` failed"), "{err}");

    // A program that is not a Google Benchmark binary is refused before anything runs.
    let plain = dir.0.join("plain");
    std::fs::write(dir.0.join("plain.cc"), "int main() { return 0; }\n").unwrap();
    let status = Command::new("g++")
        .arg("-o")
        .arg(&plain)
        .arg(dir.0.join("plain.cc"))
        .status()
        .unwrap();
    assert!(status.success());
    let out = compare([plain.as_os_str(), new.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("plain` is not a Google Benchmark binary") && !err.contains("running"),
        "{err}"
    );
}
