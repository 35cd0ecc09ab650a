//! A library benchmark that never returns, between two that do, for the end-to-end test of the
//! time limit (`tests/threads.rs`).

use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
fn before() -> u64 {
    black_box(1) + 1
}

#[library_benchmark]
fn never_returns() -> u64 {
    let mut n = 0u64;
    loop {
        n = black_box(n.wrapping_add(1));
    }
}

#[library_benchmark]
fn after() -> u64 {
    black_box(2) + 2
}

library_benchmark_group!(name = hang; benchmarks = before, never_returns, after);
main!(library_benchmark_groups = hang);
