//! A bench program written as for gungraun 0.19/0.20: tool values (`Callgrind::with_args`,
//! `Dhat::with_args`, `Callgrind::enable(false)`), `default_tool`, and a library benchmark in a
//! sandbox with a fixture (and in a working directory inside it); one that prints what its
//! process sees (two variables, ASLR) for the command-line flags' tests; and one with long
//! arguments for `--truncate-description`.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, Cachegrind, Callgrind, Dhat,
    LibraryBenchmarkConfig, Sandbox, ValgrindTool,
};
use std::hint::black_box;

/// DHAT alone (its default tool), with an argument of its own: time stamps in its log.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .default_tool(ValgrindTool::DHAT)
    .tool(Dhat::with_args(["--time-stamp=yes"])))]
#[bench::four_kib(4096)]
fn dhat_only(len: usize) -> Vec<u8> {
    vec![3u8; black_box(len)]
}

/// DHAT as the default tool, Callgrind given as a value: both run.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .default_tool(ValgrindTool::DHAT)
    .tool(Callgrind::with_args(["--dump-instr=yes"])))]
#[bench::two_kib(2048)]
fn dhat_and_callgrind(len: usize) -> Vec<u8> {
    vec![5u8; black_box(len)]
}

/// Callgrind turned off, Cachegrind on.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::default().enable(false))
    .tool(Cachegrind::default()))]
#[bench::thousand(1000)]
fn cachegrind_only(n: u64) -> u64 {
    (0..black_box(n)).map(|i| i * i).sum()
}

/// Callgrind with an argument of its own given as a value: time stamps in its log.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::with_args(["--time-stamp=yes"])))]
#[bench::thousand(1000)]
fn callgrind_args(n: u64) -> u64 {
    (0..black_box(n)).fold(0, |a, i| a ^ i.wrapping_mul(31))
}

/// Reads `numbers.txt` from its working directory and prints where that is.
fn read_numbers() -> u64 {
    let cwd = std::env::current_dir().unwrap();
    let text = std::fs::read_to_string("numbers.txt")
        .unwrap_or_else(|e| panic!("numbers.txt in {}: {e}", cwd.display()));
    println!("cwd={}", cwd.display());
    text.lines()
        .filter_map(|l| l.trim().parse::<u64>().ok())
        .sum()
}

/// The fixture copied into a sandbox, read from the sandbox's root.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .sandbox(Sandbox::new(true).fixtures(["crates/benchgrind-e2e/fixtures/numbers.txt"])))]
#[bench::root()]
fn sandboxed() -> u64 {
    black_box(read_numbers())
}

/// The fixtures' directory copied into a sandbox, read from inside it (`current_dir`).
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .sandbox(Sandbox::new(true).fixtures(["crates/benchgrind-e2e/fixtures"]))
    .current_dir("fixtures"))]
#[bench::inside()]
fn sandboxed_dir() -> u64 {
    black_box(read_numbers())
}

/// Prints two variables and this process's personality (ASLR off: `00040000`).
#[library_benchmark]
#[bench::env()]
fn env_and_aslr() -> usize {
    let personality = std::fs::read_to_string("/proc/self/personality").unwrap_or_default();
    let var = |k: &str| std::env::var(k).unwrap_or_else(|_| "-".into());
    println!(
        "E2E_SET={} E2E_OUTER={} personality={}",
        var("E2E_SET"),
        var("E2E_OUTER"),
        personality.trim()
    );
    black_box(personality.len())
}

/// Arguments longer than the header's default 50 characters; Valgrind's core arguments from the
/// code (time stamps in every tool's log).
#[library_benchmark(config = LibraryBenchmarkConfig::default().valgrind_args(["--time-stamp=yes"]))]
#[bench::long("a string argument that is rather long for a header line")]
fn long_args(text: &str) -> usize {
    black_box(text)
        .bytes()
        .filter(|b| b.is_ascii_lowercase())
        .count()
}

library_benchmark_group!(
    name = values;
    benchmarks = dhat_only, dhat_and_callgrind, cachegrind_only, callgrind_args, sandboxed, sandboxed_dir,
        env_and_aslr, long_args
);

main!(library_benchmark_groups = values);
