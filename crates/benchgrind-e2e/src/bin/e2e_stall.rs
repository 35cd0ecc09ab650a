//! A library benchmark that works for a while under Callgrind, one that sleeps and never
//! returns, and three after them, for the end-to-end test of a stall on a loaded machine
//! (`tests/threads.rs`): the sleeping one is stopped, the working one is not, and the three after
//! them count what they count in a run without the sleeping one.

use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
fn slow() -> u64 {
    // About 50 million instructions: a second or more under Callgrind.
    (0..black_box(10_000_000u64)).fold(0, |acc, x| black_box(acc ^ x.wrapping_mul(3)))
}

#[library_benchmark]
fn sleeps() -> u64 {
    std::thread::sleep(std::time::Duration::from_secs(1000));
    black_box(1)
}

#[library_benchmark]
#[bench::small(100)]
#[bench::large(10_000)]
fn after_sum(n: u64) -> u64 {
    (0..black_box(n)).map(|x| x * x).sum()
}

#[library_benchmark]
fn after_vec() -> Vec<u64> {
    black_box((0..black_box(1_000u64)).collect())
}

#[library_benchmark]
fn after_string() -> String {
    black_box(format!("{}-{}", black_box("hello, world"), black_box(42)))
}

library_benchmark_group!(
    name = stall;
    benchmarks = slow, sleeps, after_sum, after_vec, after_string
);
main!(library_benchmark_groups = stall);
