//! Seed 002 (iai-callgrind 0.10): the library-benchmark Quickstart, with only the crate path
//! changed. The seed lists a `bench_fibonacci_alternative` it never shows; the smallest
//! completion is filled in and marked.

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

#[library_benchmark]
#[bench::short(10)]
#[bench::long(30)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

// Completed: the seed's group names this function but does not show it.
#[library_benchmark]
#[bench::short(10)]
fn bench_fibonacci_alternative(value: u64) -> u64 {
    let (mut a, mut b) = (1u64, 1u64);
    for _ in 1..black_box(value) {
        (a, b) = (b, a + b);
    }
    black_box(b)
}

library_benchmark_group!(
    name = bench_fibonacci_group;
    benchmarks = bench_fibonacci, bench_fibonacci_alternative
);

main!(library_benchmark_groups = bench_fibonacci_group);
