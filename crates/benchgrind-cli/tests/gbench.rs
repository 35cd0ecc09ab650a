//! `benchgrind gbench` and `benchgrind compare --metric` on real Google Benchmark programs under
//! real Valgrind: `tests/gbench/bench.cc` built with Debian's `libbenchmark-dev` as the old
//! build, the slower new build (`-DSLOWER`) and a build with a crashing benchmark
//! (`-DWITH_CRASH`). Also: Google Benchmark's own compare.py, as Debian's `libbenchmark-tools`
//! installs it (`/usr/share/benchmark/compare.py`), reading the JSON `gbench --out` writes.
//!
//! Without libbenchmark-dev these tests are skipped with a loud message, except under CI=true,
//! where they fail; without compare.py (or the numpy and scipy it imports) its test fails,
//! naming the package. `.ci/deps --tests` installs them all.

#[path = "compare/common.rs"]
mod common;
#[path = "support/compare_py.rs"]
mod compare_py;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::{describe, expect_code, metric, report};
use serde_json::Value;

fn skip_or_fail(what: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what}; CI must install it (.ci/deps --tests)");
    }
    eprintln!("\n{0}\nSKIPPED gbench: {what}\n{0}\n", "!".repeat(78));
}

/// The old, new and crashing builds, made once per test process; `None` without libbenchmark.
fn built() -> Option<&'static [PathBuf; 3]> {
    static BUILT: OnceLock<Option<[PathBuf; 3]>> = OnceLock::new();
    BUILT.get_or_init(build).as_ref()
}

fn build() -> Option<[PathBuf; 3]> {
    if !Path::new("/usr/include/benchmark/benchmark.h").exists() {
        skip_or_fail("libbenchmark-dev is not installed (`apt-get install libbenchmark-dev g++`)");
        return None;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gbench/bench.cc");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gbench");
    std::fs::create_dir_all(&dir).unwrap();
    let builds = [
        ("old", None),
        ("new", Some("-DSLOWER")),
        ("crash", Some("-DWITH_CRASH")),
    ];
    let children: Vec<_> = builds
        .iter()
        .map(|(name, define)| {
            // Built under a private name and renamed, so that concurrent test processes never
            // run a half-written binary.
            let partial = dir.join(format!("{name}.{}", std::process::id()));
            let child = Command::new("g++")
                .args(["-O2", "-std=c++17"])
                .args(define)
                .arg("-o")
                .arg(&partial)
                .arg(&source)
                .args(["-lbenchmark", "-lpthread"])
                .spawn()
                .expect("cannot run g++ (apt-get install g++)");
            (partial, dir.join(name), child)
        })
        .collect();
    let paths: Vec<PathBuf> = children
        .into_iter()
        .map(|(partial, path, mut child)| {
            assert!(
                child.wait().unwrap().success(),
                "g++ failed to build {path:?}"
            );
            std::fs::rename(partial, &path).unwrap();
            path
        })
        .collect();
    Some(paths.try_into().unwrap())
}

fn benchgrind<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_benchgrind"))
        .args(args)
        .env_remove("BENCHGRIND_COLOR")
        .env_remove("CARGO_TERM_COLOR")
        .output()
        .expect("cannot start the benchgrind binary")
}

fn out_file(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gbench-out");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.{}.json", std::process::id()))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A benchmark's entry in Google Benchmark JSON.
fn entry<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {doc}"))
}

#[test]
fn three_runs_print_identical_counts_of_the_loop_only() {
    let Some([old, ..]) = built() else { return };
    let runs: Vec<(String, Value)> = (0..3)
        .map(|i| {
            let json = out_file(&format!("identical{i}"));
            // From three working directories: Valgrind puts the directory into the benchmark's
            // environment, which must not move its counts.
            let cwd = [env!("CARGO_MANIFEST_DIR"), "/", env!("CARGO_TARGET_TMPDIR")][i];
            let out = Command::new(env!("CARGO_BIN_EXE_benchgrind"))
                .current_dir(cwd)
                .arg("gbench")
                .arg(old)
                .arg("--out")
                .arg(&json)
                .output()
                .unwrap();
            (expect_code(&out, 0), read_json(&json))
        })
        .collect();
    eprintln!("{}", runs[0].0);
    assert_eq!(runs[0].0, runs[1].0, "runs 1 and 2 differ");
    assert_eq!(runs[0].0, runs[2].0, "runs 1 and 3 differ");
    let table = &runs[0].0;
    assert!(
        table.contains("counted: the benchmark loop of one run with --benchmark_min_time=0"),
        "Debian 12's Google Benchmark 1.7.1 has no fixed iterations: {table}"
    );
    let doc = &runs[0].1;
    for name in [
        "BM_Sum/256",
        "BM_Sum/4096",
        "BM_HeavySetup",
        "BM_MapInsert<int>",
        "BM_MapInsert<long>",
        "BM_Concat(a+b)[1].*",
    ] {
        let b = entry(doc, name);
        assert_eq!(b["iterations"], 1, "{name}");
        assert_eq!(
            b["real_time"], b["Ir"],
            "{name}: instructions in the time fields"
        );
        for run in &runs[1..] {
            assert_eq!(entry(&run.1, name)["Ir"], b["Ir"], "{name}");
            assert_eq!(
                entry(&run.1, name)["EstimatedCycles"],
                b["EstimatedCycles"],
                "{name}"
            );
        }
    }
    let ir = |name| entry(doc, name)["Ir"].as_f64().unwrap();
    // Summing 256 values takes a few instructions each; 16 times as many, 16 times as long.
    assert!(
        (256.0..=2560.0).contains(&ir("BM_Sum/256")),
        "{}",
        ir("BM_Sum/256")
    );
    let ratio = ir("BM_Sum/4096") / ir("BM_Sum/256");
    assert!((14.0..=16.5).contains(&ratio), "BM_Sum 4096/256: {ratio}");
    // 200,000 values summed before the loop, an empty loop: the set-up is not counted.
    assert!(ir("BM_HeavySetup") < 100.0, "{}", ir("BM_HeavySetup"));
    let ctx = &doc["context"];
    assert_eq!(ctx["benchgrind"]["tool"], "callgrind");
    assert_eq!(ctx["benchgrind"]["metric"], "Ir");
    assert!(ctx["library_build_type"].is_string());
    assert!(ctx["benchgrind"]["valgrind"]
        .as_str()
        .unwrap()
        .starts_with("valgrind-3."));
}

#[test]
fn compare_metric_instructions_shows_the_slower_build_and_fails_above() {
    let Some([old, new, _]) = built() else { return };
    let out = benchgrind([
        "compare".as_ref(),
        "--metric".as_ref(),
        "instructions".as_ref(),
        old.as_os_str(),
        new.as_os_str(),
        "--fail-above".as_ref(),
        "Ir=5".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 3));
    let sum = metric(&r, "BM_Sum/4096", "Ir");
    let change = sum["change"].as_f64().unwrap();
    // Every iteration sums half of the values once more.
    assert!((0.45..0.55).contains(&change), "BM_Sum/4096 Ir {change}");
    assert_eq!(metric(&r, "BM_MapInsert<int>", "Ir")["change"], 0.0);
    assert!(r["old"]
        .as_str()
        .unwrap()
        .ends_with("[Callgrind: loop of 1 iteration]"));
    let failing: Vec<&str> = r["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["benchmark"].as_str())
        .collect();
    assert!(
        failing.contains(&"BM_Sum/256") && failing.contains(&"BM_Sum/4096"),
        "{failing:?}"
    );
    assert!(!failing.contains(&"BM_MapInsert<int>"), "{failing:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("past --fail-above (exit code 3)"), "{err}");
}

#[test]
fn the_same_build_at_another_path_compares_equal_in_every_metric() {
    let Some([old, ..]) = built() else { return };
    // A longer path is a longer argv[0], which Google Benchmark copies to its heap; the binary
    // runs through a link of constant length, so that nothing but its code moves the counts.
    let copy = old.with_file_name(format!(
        "the-same-build-under-a-much-longer-file-name.{}",
        std::process::id()
    ));
    std::fs::copy(old, &copy).unwrap();
    let out = benchgrind([
        "compare".as_ref(),
        "--metric=cycles".as_ref(),
        "--format=json".as_ref(),
        old.as_os_str(),
        copy.as_os_str(),
        "--fail-above=0".as_ref(),
    ]);
    let r = report(&expect_code(&out, 0));
    let benchmarks = r["benchmarks"].as_array().unwrap();
    assert_eq!(benchmarks.len(), 6);
    for b in benchmarks {
        let metrics = b["metrics"].as_array().unwrap();
        assert_eq!(
            metrics[0]["name"], "EstimatedCycles",
            "the chosen metric first"
        );
        assert_eq!(metrics.len(), 14, "{b}");
        for m in metrics {
            assert_eq!(m["old"], m["new"], "{} {}", b["name"], m["name"]);
        }
    }
    std::fs::remove_file(copy).unwrap();
}

#[test]
fn bad_input_gets_clear_errors_and_the_others_are_still_measured() {
    let Some([old, _, crash]) = built() else {
        return;
    };
    let out = benchgrind(["gbench".as_ref(), crash.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("BM_Crash  ")
            && table.contains(
                "FAILED: it was killed by signal 11 under Callgrind; Valgrind: \
                               Process terminating with default action of signal 11 (SIGSEGV)"
            ),
        "{table}"
    );
    // Registered after the crash, measured all the same.
    assert!(table.contains("BM_MapInsert<long>   Ir"), "{table}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 7 benchmarks failed"));

    let out = benchgrind([
        "gbench".as_ref(),
        old.as_os_str(),
        "--benchmark_filter=BM_NoSuch".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`--benchmark_filter=BM_NoSuch` matches no benchmark of"),
        "{err}"
    );

    let dir = old.parent().unwrap();
    let plain = dir.join(format!("plain.{}", std::process::id()));
    let source = dir.join(format!("plain.{}.cc", std::process::id()));
    std::fs::write(&source, "int main() { return 0; }\n").unwrap();
    assert!(Command::new("g++")
        .arg("-o")
        .arg(&plain)
        .arg(&source)
        .status()
        .unwrap()
        .success());
    let out = benchgrind(["gbench".as_ref(), plain.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a Google Benchmark binary"), "{err}");

    // `--metric` is for binaries; JSON files have no loop to count.
    let json = common::fixture("gb_single_old.json");
    let out = benchgrind([
        "compare".as_ref(),
        "--metric=instructions".as_ref(),
        json.as_os_str(),
        json.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("neither side is one"));
}

#[test]
fn compare_py_reads_gbench_json_and_shows_the_change() {
    let Some([old, new, _]) = built() else { return };
    let (python, script) = compare_py::compare_py();
    let (old_json, new_json) = (out_file("py-old"), out_file("py-new"));
    let filter = "--benchmark_filter=BM_Sum|BM_MapInsert<int>";
    let mut out_arg = std::ffi::OsString::from("--benchmark_out=");
    out_arg.push(&new_json);
    let runs = [
        benchgrind([
            "gbench".as_ref(),
            old.as_os_str(),
            filter.as_ref(),
            "--out".as_ref(),
            old_json.as_os_str(),
        ]),
        benchgrind([
            "gbench".as_ref(),
            new.as_os_str(),
            filter.as_ref(),
            out_arg.as_os_str(),
            "--benchmark_out_format=json".as_ref(),
        ]),
    ];
    for run in &runs {
        expect_code(run, 0);
    }
    let out = Command::new(python)
        .arg("-B")
        .arg(script)
        .args(["--no-color", "benchmarks"])
        .arg(&old_json)
        .arg(&new_json)
        .output()
        .unwrap();
    let text = expect_code(&out, 0);
    eprintln!("{text}");
    let (o, n) = (read_json(&old_json), read_json(&new_json));
    for name in ["BM_Sum/256", "BM_Sum/4096", "BM_MapInsert<int>"] {
        let (a, b) = (
            entry(&o, name)["Ir"].as_f64().unwrap(),
            entry(&n, name)["Ir"].as_f64().unwrap(),
        );
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name} in\n{text}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        // Name, time change, CPU change, time old and new, CPU old and new.
        let change = format!("{:+.4}", (b - a) / a);
        assert_eq!(fields[1..3], [change.as_str(), change.as_str()], "{line}");
        assert_eq!(
            fields[3..5],
            [format!("{a:.0}"), format!("{b:.0}")],
            "{line}"
        );
    }
    assert!(
        text.contains("BM_Sum/4096") && text.contains("+0.5"),
        "{text}"
    );
}

#[test]
fn valgrind_bin_chooses_the_valgrind_and_a_wrong_one_is_named() {
    let Some([old, _, _]) = built() else { return };
    let missing = benchgrind([
        OsStr::new("gbench"),
        OsStr::new("--valgrind-bin"),
        OsStr::new("/nonexistent/valgrind"),
        old.as_os_str(),
    ]);
    expect_code(&missing, 1);
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("/nonexistent/valgrind"), "{said}");
    // The system's, named: the same counts as found on PATH.
    let system = which_valgrind();
    let named = benchgrind([
        OsStr::new("gbench"),
        OsStr::new("--valgrind-bin"),
        system.as_os_str(),
        old.as_os_str(),
    ]);
    let named = expect_code(&named, 0);
    let found = benchgrind([OsStr::new("gbench"), old.as_os_str()]);
    assert_eq!(named, expect_code(&found, 0));
}

/// The Valgrind the tests run: BENCHGRIND_VALGRIND's, else PATH's.
fn which_valgrind() -> PathBuf {
    if let Some(path) = std::env::var_os("BENCHGRIND_VALGRIND") {
        return PathBuf::from(path);
    }
    benchgrind_runner::execute::valgrind::find_in_path("valgrind").expect("valgrind on PATH")
}
