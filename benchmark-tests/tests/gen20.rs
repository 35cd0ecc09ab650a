//! The macro forms of iai-callgrind 0.15/0.16 and gungraun 0.17-0.20 (`gen20_macros`,
//! `gen20_macros_bin`), run twice under real Valgrind with two workers: the ids `iter` and
//! `consts` make, `max_parallel` keeping a group's benches apart (each holds a lock file from its
//! setup to its teardown, and fails if another holds it), and no change on the second run.

#[allow(dead_code)]
mod common;

use common::*;
use std::path::Path;

/// Two workers, so that `max_parallel` has something to hold back.
const JOBS: [(&str, &str); 1] = [("BENCHGRIND_JOBS", "2")];

fn envs() -> Vec<(&'static str, &'static Path)> {
    JOBS.iter().map(|(k, v)| (*k, Path::new(*v))).collect()
}

/// Removes a lock file a killed earlier run may have left.
fn clear_lock(name: &str) {
    let _ = std::fs::remove_file(Path::new(env!("CARGO_TARGET_TMPDIR")).join(name));
}

#[test]
fn library_forms_of_gungraun_run() {
    clear_lock("gen20_macros_serial.lock");
    let (report, blocks) = run_twice_with("benchgrind-compat-tests", "gen20_macros", HERE, &envs());
    let fib = "gen20_macros::fib_group::bench_fibonacci";
    let expected = [
        format!("{fib} range_0:1..4u64"),
        format!("{fib} range_1:1..4u64"),
        format!("{fib} range_2:1..4u64"),
        format!("{fib} vector_0:sizes()"),
        format!("{fib} vector_1:sizes()"),
        format!("{fib} vector_2:sizes()"),
        format!("{fib} setup_0:double([5u64, 6])"),
        format!("{fib} setup_1:double([5u64, 6])"),
        format!("{fib} plain:10"),
        "gen20_macros::fib_group::bench_product pairs_0:vec![(2u64, 3u64), (4, 5)]".to_owned(),
        "gen20_macros::fib_group::bench_product pairs_1:vec![(2u64, 3u64), (4, 5)]".to_owned(),
        "gen20_macros::generic_group::bench_array eight:<8, 1>".to_owned(),
        "gen20_macros::generic_group::bench_array both:<2, { 1 + 2 }>".to_owned(),
        "gen20_macros::generic_group::bench_array many_0:<4, 1>".to_owned(),
        "gen20_macros::generic_group::bench_array many_1:<16, 2>".to_owned(),
        "gen20_macros::generic_group::bench_repeat single:<2> 7".to_owned(),
        "gen20_macros::generic_group::bench_repeat shared_0:<3> 1".to_owned(),
        "gen20_macros::generic_group::bench_repeat shared_1:<3> 2".to_owned(),
        "gen20_macros::generic_group::bench_repeat paired_0:<5> 3".to_owned(),
        "gen20_macros::generic_group::bench_repeat paired_1:<6> 4".to_owned(),
        "gen20_macros::serial_group::bench_serial serial_0:hold_lock([5u64, 6, 7, 8])".to_owned(),
        "gen20_macros::serial_group::bench_serial serial_1:hold_lock([5u64, 6, 7, 8])".to_owned(),
        "gen20_macros::serial_group::bench_serial serial_2:hold_lock([5u64, 6, 7, 8])".to_owned(),
        "gen20_macros::serial_group::bench_serial serial_3:hold_lock([5u64, 6, 7, 8])".to_owned(),
    ];
    assert_eq!(headers(&blocks), expected, "{report}");
    let count = |id: &str| {
        let header = format!("{fib} {id}:");
        let block = blocks.iter().find(|b| b.header.starts_with(&header));
        block
            .unwrap_or_else(|| panic!("no {header}"))
            .get("Instructions")
    };
    // Each item of `iter` is its own bench: fibonacci(1), (2), (3) count more and more.
    assert!(count("range_0") < count("range_1"), "{report}");
    assert!(count("range_1") < count("range_2"), "{report}");
    // The setup gets the item: double(5) and double(6) are the bench of 10 and the item 12.
    assert_eq!(count("setup_0"), count("plain"), "{report}");
    assert_eq!(count("setup_1"), count("vector_2"), "{report}");
    // The hooks of the group and of main! ran, in order.
    let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("gen20 ")).collect();
    assert_eq!(
        lines,
        [
            "gen20 main setup ran",
            "gen20 group setup ran",
            "gen20 group teardown ran",
            "gen20 main teardown ran"
        ],
        "{report}"
    );
}

#[test]
fn binary_forms_of_gungraun_run() {
    clear_lock("gen20_macros_bin_serial.lock");
    let (report, blocks) =
        run_twice_with("benchgrind-compat-tests", "gen20_macros_bin", HERE, &envs());
    let echo = "gen20_macros_bin::echo_group";
    let serial = "gen20_macros_bin::serial_group::bench_serial";
    let repeat = "gen20_macros_bin::generic_group::bench_repeat";
    assert_same_headers(
        &blocks,
        &[
            format!("{echo}::bench_echo pairs_0:(vec![(\"a\", 1u8), (\"b\", 2)]) -> target/release/ech..."),
            format!("{echo}::bench_echo pairs_1:(vec![(\"a\", 1u8), (\"b\", 2)]) -> target/release/ech..."),
            format!("{echo}::bench_echo plain:(\"plain\", 0) -> target/release/echo plain 0"),
            format!("{echo}::bench_word words_0:([\"x\", \"y\"]) -> target/release/echo x"),
            format!("{echo}::bench_word words_1:([\"x\", \"y\"]) -> target/release/echo y"),
            format!("{repeat} three:(<3>) -> target/release/echo r r r"),
            format!("{repeat} many_0:(<1>) -> target/release/echo r"),
            format!("{repeat} many_1:(<2>) -> target/release/echo r r"),
            format!("{serial} serial_0:([\"s1\", \"s2\", \"s3\"]) -> target/release/echo s1"),
            format!("{serial} serial_1:([\"s1\", \"s2\", \"s3\"]) -> target/release/echo s2"),
            format!("{serial} serial_2:([\"s1\", \"s2\", \"s3\"]) -> target/release/echo s3"),
        ],
        &report,
    );
}

/// gungraun 0.20's whole perf API (`gen20_perf`, `gen20_perf_bin`) builds and runs: every
/// `Perf` method, the three run modes, the macros; perf's section under each library benchmark
/// that configures it (none where `enable(false)`), the events this machine lacks named, and a
/// binary benchmark's command sampled natively.
#[test]
fn the_perf_api_of_gungraun_runs() {
    let home = tempfile::tempdir().unwrap();
    let exe = bench_binary("benchgrind-compat-tests", "gen20_perf");
    let report = run(&exe, home.path(), HERE, &[]);
    let section = |id: &str| -> String {
        let start = report
            .find(id)
            .unwrap_or_else(|| panic!("no {id} in\n{report}"));
        let rest = &report[start..];
        let end = rest[1..]
            .find("\ngen20_perf::")
            .map_or(rest.len(), |e| e + 1);
        rest[..end].to_owned()
    };
    let every = section("gen20_perf::perf_library::every_perf_method small");
    // `--all-user` puts every event in user space; `--event=task-clock` adds a set.
    assert!(every.contains("======= PERF"), "{every}");
    assert!(every.contains("  task-clock:u: "), "{every}");
    assert!(every.contains("  page-faults:u: "), "{every}");
    let macros = section("gen20_perf::perf_library::macros bracketed");
    assert!(macros.contains("  task-clock: "), "{macros}");
    // `record(true)`: a profile from the perf program, or why there is none.
    let profile = home
        .path()
        .join("benchgrind-compat-tests/gen20_perf/perf_library/macros.bracketed/perf.data");
    let recorded = macros.contains(&format!(
        "  perf: record: {} (read it with",
        profile.display()
    ));
    assert!(
        (recorded && profile.exists()) || macros.contains("  perf: record: no profile: "),
        "{macros}"
    );
    let off = section("gen20_perf::perf_library::perf_off off");
    assert!(!off.contains("PERF"), "{off}");
    for lacking in ["cycles:u, instructions:u", "cycles, instructions"] {
        let said = report.contains(&format!("perf: not counted here: {lacking}"));
        let counted = report.contains(&format!("  {}: ", lacking.split(", ").next().unwrap()));
        assert!(said != counted, "{report}");
    }
    assert!(report.contains("3 measured, 0 failed"), "{report}");

    let exe = bench_binary("benchgrind-compat-tests", "gen20_perf_bin");
    let report = run(&exe, home.path(), HERE, &[]);
    // The command natively, each run a sample from its exec to its end.
    assert!(report.contains("======= PERF"), "{report}");
    let line = report
        .lines()
        .find(|l| l.starts_with("  task-clock: "))
        .unwrap_or_else(|| panic!("{report}"));
    let n: usize = line
        .split("(n=")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(n >= 5, "{line}");
    // echo's own page faults: a program's start, never zero.
    let faults = report
        .lines()
        .find(|l| l.starts_with("  page-faults: "))
        .unwrap_or_else(|| panic!("{report}"));
    let mean: f64 = faults["  page-faults: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{faults}"));
    assert!(mean > 0.0, "{faults}");
    assert!(
        report.contains(
            "perf: not sampled: its command reads its setup's output, which runs once per sample \
             only under Valgrind"
        ) && report.contains("2 measured, 0 failed"),
        "{report}"
    );
}
