//! Deterministic random bytes end to end: `e2e_random` (a `HashMap` and a regex search, each
//! also with `deterministic_random(false)`), `e2e_random_variant` (the same benchmarks in a
//! binary with unrelated code added) and `e2e_hash` (a program that is not a benchmark).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_random");
const VARIANT: &str = env!("CARGO_BIN_EXE_e2e_random_variant");
const HASH: &str = env!("CARGO_BIN_EXE_e2e_hash");
const DRAW: &str = env!("CARGO_BIN_EXE_e2e_draw");

/// One run's report: `(group::function id, (metric, value) pairs)` per benchmark.
type Run = Vec<(String, Vec<(String, u64)>)>;

/// `(group::function id, metrics)` of every measured benchmark, without the file part of the
/// header (the two binaries have different crate names); a failed benchmark fails the test.
fn measured(bin: &Path, args: &[&str], home: &Path) -> Run {
    std::fs::create_dir_all(home).unwrap();
    let home_arg = format!("--home={}", home.display());
    let mut all = vec![home_arg.as_str()];
    all.extend_from_slice(args);
    let out = run(bin.to_str().unwrap(), &all, home, &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    blocks(&report)
        .into_iter()
        .map(|b| {
            assert!(b.failed.is_none(), "{report}");
            let header = b.header.split_once("::").unwrap().1.to_owned();
            (header, b.metrics.into_iter().map(|m| (m.0, m.1)).collect())
        })
        .collect()
}

fn instructions(runs: &[Run], bench: usize) -> Vec<u64> {
    runs.iter()
        .map(|r| r[bench].1.iter().find(|m| m.0 == "Instructions").unwrap().1)
        .collect()
}

/// Copies `bin` to `dir/bench`: both binaries then run from paths of the same length, as one
/// bench binary does before and after a rebuild (the path is part of the process' memory).
fn copy_to(bin: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let to = dir.join("bench");
    std::fs::copy(bin, &to).unwrap();
    to
}

#[test]
fn hashmap_and_regex_counts_are_identical_over_five_runs_and_after_a_rebuild() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = copy_to(BIN, &tmp.path().join("a"));
    let variant = copy_to(VARIANT, &tmp.path().join("b"));
    let mut runs = Vec::new();
    for exe in [&bin, &variant] {
        let home = tmp.path().join(format!("home-{}", runs.len()));
        for _ in 0..5 {
            runs.push(measured(
                exe,
                &["--skip=fill_random", "--skip=find_random"],
                &home,
            ));
        }
    }
    let headers: Vec<&str> = runs[0].iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(
        headers,
        [
            "random_group::hashmap_fill fill:1000",
            "random_group::regex_find_iter find:setup_search(5000)"
        ]
    );
    // All metrics repeat within one binary.
    for (i, other) in runs.iter().enumerate() {
        let first = &runs[i / 5 * 5];
        assert_eq!(
            other, first,
            "run {i} (0-4: e2e_random, 5-9: the rebuilt variant)"
        );
    }
    // Instructions also across the rebuild; cache metrics may not: the unrelated code moved the
    // benchmarks' code to other cache sets.
    for (bench, header) in headers.iter().enumerate() {
        let counts = instructions(&runs, bench);
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "{header}: {counts:?}"
        );
    }
}

#[test]
fn without_determinism_benchmarks_are_measured_and_hashmap_counts_move() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    // Off in the code.
    let off: Vec<_> = (0..5)
        .map(|_| measured(Path::new(BIN), &["hashmap_fill::fill_random"], home))
        .collect();
    let distinct: BTreeSet<u64> = instructions(&off, 0).into_iter().collect();
    assert!(distinct.len() > 1, "fresh seeds, yet always {distinct:?}");

    // Off on the command line, for a bench that is deterministic by default.
    let exact = ["--exact", "e2e_random::random_group::hashmap_fill::fill"];
    let off: Vec<_> = (0..5)
        .map(|_| {
            let args = [exact[0], exact[1], "--deterministic-random=no"];
            measured(Path::new(BIN), &args, home)
        })
        .collect();
    let distinct: BTreeSet<u64> = instructions(&off, 0).into_iter().collect();
    assert!(distinct.len() > 1, "fresh seeds, yet always {distinct:?}");

    let regex = measured(Path::new(BIN), &["regex_find_iter::find_random"], home);
    assert_eq!(regex.len(), 1);
    assert!(instructions(&[regex], 0)[0] > 100_000);

    // Another seed: deterministic again.
    let seeded: Vec<_> = (0..2)
        .map(|_| {
            let args = [exact[0], exact[1], "--random-seed=12345"];
            measured(Path::new(BIN), &args, home)
        })
        .collect();
    assert_eq!(seeded[0], seeded[1]);
}

/// `(hash line, seed line)` of one run of `e2e_hash`.
fn hash_run(seed: Option<&str>) -> (String, String) {
    let mut cmd = common::bench(HASH);
    cmd.env_remove("BENCHGRIND_RANDOM_SEED");
    if let Some(seed) = seed {
        cmd.env("BENCHGRIND_RANDOM_SEED", seed);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in {text}"))
            .to_owned()
    };
    (line("hash "), line("seed "))
}

#[test]
fn randomness_outside_the_measured_process_is_unaffected() {
    let (a, seed_a) = hash_run(None);
    let (b, _) = hash_run(None);
    assert_ne!(a, b, "two ordinary runs, one RandomState hash");
    assert_eq!(seed_a, "seed None");

    let (c, seed_c) = hash_run(Some("3"));
    let (d, _) = hash_run(Some("3"));
    assert_eq!(seed_c, "seed Some(3)");
    assert_eq!(c, d, "with BENCHGRIND_RANDOM_SEED the program opted in");
    let (e, _) = hash_run(Some("4"));
    assert_ne!(c, e);
}

/// Instructions of `work` in `e2e_hash` under plain Callgrind.
fn callgrind_work(dir: &Path, run: usize, seed: Option<&str>) -> u64 {
    let out_file = dir.join(format!("callgrind.out.{run}"));
    let mut cmd = Command::new("valgrind");
    cmd.args(["--tool=callgrind", "--toggle-collect=work"])
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(format!("--log-file={}", dir.join("log").display()))
        .arg(HASH)
        .env_remove("BENCHGRIND_RANDOM_SEED");
    if let Some(seed) = seed {
        cmd.env("BENCHGRIND_RANDOM_SEED", seed);
    }
    let out = cmd.output().expect("valgrind runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let profile = std::fs::read_to_string(&out_file).unwrap();
    profile
        .lines()
        .find_map(|l| l.strip_prefix("summary: "))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no summary line in {}", out_file.display()))
}

#[test]
fn a_program_that_opts_in_counts_the_same_under_plain_callgrind() {
    let tmp = tempfile::tempdir().unwrap();
    let with: Vec<u64> = (0..5)
        .map(|i| callgrind_work(tmp.path(), i, Some("3")))
        .collect();
    assert!(with.iter().all(|&c| c == with[0]), "{with:?}");
    let without: BTreeSet<u64> = (5..10)
        .map(|i| callgrind_work(tmp.path(), i, None))
        .collect();
    assert!(without.len() > 1, "fresh seeds, yet always {without:?}");
}

/// A draw of 32 bytes from the stand-in costs at most twice what glibc's `getrandom` costs
/// under Callgrind (issue 53: it cost 797 instructions, against 14 for glibc's call).
#[test]
fn a_draw_costs_at_most_twice_glibcs_call() {
    let tmp = tempfile::tempdir().unwrap();
    let run = measured(Path::new(DRAW), &[], &tmp.path().join("home"));
    let count = |name: &str| {
        let (_, metrics) = run.iter().find(|(h, _)| h.contains(name)).unwrap();
        metrics.iter().find(|m| m.0 == "Instructions").unwrap().1
    };
    let (stand_in, glibc) = (count("::stand_in"), count("::glibc"));
    println!("32 bytes: the stand-in {stand_in} instructions, glibc's getrandom {glibc}");
    assert!(glibc > 0);
    assert!(stand_in <= 2 * glibc, "stand-in {stand_in}, glibc {glibc}");
}
