//! Benchmarks for the tests of exact reuse (`tests/reuse.rs`): each depends on one input the
//! test changes, none on another's. `fixture` reads the file `E2E_REUSE_FIXTURE` names;
//! `env` loops as often as the variable `E2E_REUSE_LOOPS` its configuration gives it says (the
//! harness reads the value from its own environment); `untouched` depends on nothing the test
//! changes. `e2e_reuse_bin` has the binary benchmark.

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};
use std::hint::black_box;

fn loops() -> String {
    std::env::var("E2E_REUSE_LOOPS").unwrap_or_else(|_| "10".into())
}

fn fixture_path() -> String {
    std::env::var("E2E_REUSE_FIXTURE").unwrap_or_else(|_| "reuse-fixture.txt".into())
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().env("E2E_REUSE_FIXTURE", fixture_path()))]
fn fixture() -> u64 {
    let path = std::env::var("E2E_REUSE_FIXTURE").unwrap_or_default();
    let text = std::fs::read(path).unwrap_or_default();
    black_box(text.iter().map(|&b| u64::from(b)).sum())
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().env("E2E_REUSE_LOOPS", loops()))]
fn env() -> u64 {
    let n: u64 = std::env::var("E2E_REUSE_LOOPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    (0..black_box(n)).fold(0, |a, i| a ^ i.wrapping_mul(31))
}

#[library_benchmark]
fn untouched() -> u64 {
    (0..black_box(1000u64)).sum()
}

library_benchmark_group!(name = lib; benchmarks = fixture, env, untouched);

main!(library_benchmark_groups = lib);
