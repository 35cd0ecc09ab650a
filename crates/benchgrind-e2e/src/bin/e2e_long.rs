//! A library benchmark that works for seconds under Callgrind, one that sleeps and never
//! returns, and one after them, for the end-to-end test of the stall limit (`tests/threads.rs`):
//! without a `--timeout` a run is stopped only when its processes are all asleep.

use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
fn works() -> u64 {
    // About 200 million instructions: several seconds under Callgrind.
    (0..black_box(40_000_000u64)).fold(0, |acc, x| black_box(acc ^ x.wrapping_mul(3)))
}

#[library_benchmark]
fn sleeps() -> u64 {
    std::thread::sleep(std::time::Duration::from_secs(1000));
    black_box(1)
}

#[library_benchmark]
fn after() -> u64 {
    black_box(2) + 2
}

library_benchmark_group!(name = long; benchmarks = works, sleeps, after);
main!(library_benchmark_groups = long);
