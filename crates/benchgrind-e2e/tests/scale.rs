//! The fork server, filters, an added benchmark, partitions with `benchgrind merge`, and test
//! mode, end to end on `e2e_lib` and `e2e_lib_more`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_lib");
const MORE: &str = env!("CARGO_BIN_EXE_e2e_lib_more");

/// Instructions per benchmark, keyed by the header without the file part.
fn instructions(report: &str) -> BTreeMap<String, u64> {
    blocks(report)
        .into_iter()
        .filter(|b| b.failed.is_none())
        .map(|b| {
            (
                b.header.split_once("::").unwrap().1.to_owned(),
                b.get("Instructions"),
            )
        })
        .collect()
}

fn measure(bin: &Path, home: &Path, args: &[&str]) -> BTreeMap<String, u64> {
    let home_arg = format!("--home={}", home.display());
    let mut all = vec![home_arg.as_str()];
    all.extend_from_slice(args);
    instructions(&stdout(&run(bin.to_str().unwrap(), &all, home, &[])))
}

/// Copies a binary to `dir/bench`, so two binaries run from paths of the same length.
fn copy_to(bin: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let to = dir.join("bench");
    std::fs::copy(bin, &to).unwrap();
    to
}

#[test]
fn the_fork_server_counts_what_a_process_per_benchmark_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let fork = measure(Path::new(BIN), tmp.path(), &["--jobs=2"]);
    let process = measure(Path::new(BIN), tmp.path(), &["--isolation=process"]);
    assert_eq!(fork.len(), 7, "{fork:?}");
    assert_eq!(
        fork.keys().collect::<Vec<_>>(),
        process.keys().collect::<Vec<_>>()
    );
    for (bench, &n) in &fork {
        if bench.starts_with("env_group") {
            // Copies every environment string: glibc's string routines cost what the strings'
            // alignment makes them cost, and where they land depends on the process's argv,
            // which differs between the two modes (measured: 39,925 vs 39,791).
            continue;
        }
        let p = process[bench];
        assert!(n.abs_diff(p) <= 2, "{bench}: fork {n} vs process {p}");
    }
}

#[test]
fn filtering_out_or_adding_a_benchmark_changes_no_other_count() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = copy_to(BIN, &tmp.path().join("a"));
    let more = copy_to(MORE, &tmp.path().join("b"));
    let all = measure(&bin, tmp.path(), &[]);
    let filtered = measure(&bin, tmp.path(), &["--skip=bench_sort", "--skip=empty"]);
    assert_eq!(filtered.len(), 4, "{filtered:?}");
    for (bench, n) in &filtered {
        assert_eq!(all[bench], *n, "{bench}");
    }
    let with_added = measure(&more, tmp.path(), &[]);
    assert!(
        with_added.contains_key("fib_group::bench_added added:12"),
        "{with_added:?}"
    );
    for (bench, n) in &all {
        if bench.starts_with("env_group") {
            continue; // reads the environment, whose `_` variable names the binary
        }
        assert_eq!(with_added[bench], *n, "{bench}");
    }
}

#[test]
fn two_partitions_run_everything_once_and_merge_like_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let home = |name: &str| format!("--home={}", tmp.path().join(name).display());
    let single = run(BIN, &[&home("single"), "--save-summary"], tmp.path(), &[]);
    let one = run(
        BIN,
        &[&home("p1"), "--partition=1/2", "--save-summary"],
        tmp.path(),
        &[],
    );
    let two = run(
        BIN,
        &[&home("p2"), "--partition=2/2", "--save-summary"],
        tmp.path(),
        &[],
    );
    let headers = |o: &std::process::Output| -> Vec<String> {
        blocks(&stdout(o)).into_iter().map(|b| b.header).collect()
    };
    let (h1, h2, all) = (headers(&one), headers(&two), headers(&single));
    assert!(
        !h1.is_empty() && !h2.is_empty(),
        "both shares get work: {h1:?} {h2:?}"
    );
    let mut union: Vec<String> = h1.iter().chain(&h2).cloned().collect();
    union.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(union, expected, "every benchmark exactly once");

    let Some(cli) = common::cli() else {
        return;
    };
    let merged = Command::new(&cli)
        .args(["merge", "--color=never"])
        .arg(tmp.path().join("p1"))
        .arg(tmp.path().join("p2"))
        .output()
        .unwrap();
    let merged_report = String::from_utf8_lossy(&merged.stdout).into_owned();
    assert_eq!(
        merged.status.code(),
        single.status.code(),
        "{merged_report}"
    );
    assert_eq!(instructions(&merged_report), instructions(&stdout(&single)));
    assert!(
        merged_report.contains("FAILED e2e_lib::fib_group::bench_panics::boom"),
        "{merged_report}"
    );
    let full = Command::new(&cli)
        .args(["merge", "--color=never"])
        .arg(tmp.path().join("single"))
        .output()
        .unwrap();
    assert_eq!(
        instructions(&String::from_utf8_lossy(&full.stdout)),
        instructions(&merged_report)
    );
}

#[test]
fn test_mode_runs_every_benchmark_once_without_valgrind() {
    let tmp = tempfile::tempdir().unwrap();
    // As `cargo test --benches` starts it: no `--bench`, cargo's variables set.
    let out = common::bench(BIN)
        .arg(format!("--home={}", tmp.path().display()))
        .env("CARGO_PKG_NAME", "benchgrind-e2e")
        .env("BENCHGRIND_VALGRIND", "/nonexistent/valgrind")
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("test e2e_lib::fib_group::bench_fibonacci::short ... ok"),
        "{text}"
    );
    assert!(
        text.contains("test e2e_lib::fib_group::bench_panics::boom ... FAILED"),
        "{text}"
    );
    assert!(
        text.contains("test result: FAILED. 7 passed; 1 failed;"),
        "{text}"
    );
    assert!(text.contains("the benchmark fell over at 7"), "{text}");
    let explicit = common::bench(BIN)
        .args(["--test-mode", "bench_fibonacci"])
        .arg(format!("--home={}", tmp.path().display()))
        .env_remove("CARGO_PKG_NAME")
        .output()
        .unwrap();
    assert_eq!(explicit.status.code(), Some(0));
    assert!(stdout(&explicit).contains("test result: ok. 2 passed; 0 failed;"));
}
