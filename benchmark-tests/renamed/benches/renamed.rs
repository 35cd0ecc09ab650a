//! Benchmarks as written for gungraun 0.20, not one path changed: `Cargo.toml` names benchgrind
//! `gungraun`, and every macro's expansion follows (the library macros, `main!`, the prelude;
//! `renamed_bin.rs` the binary ones). `benchmark-tests/tests/compat.rs` runs both twice.

use std::hint::black_box;

use gungraun::prelude::*;
use gungraun::{Callgrind, EventKind};

fn fib(n: u64) -> u64 {
    if n < 2 {
        1
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

#[library_benchmark]
#[bench::short(10)]
#[benches::many(args = [12, 14])]
fn bench_fib(n: u64) -> u64 {
    black_box(fib(n))
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().soft_limits([(EventKind::Ir, 50.0)]))
)]
#[bench::sorted(vec![3u32, 1, 2])]
fn bench_sort(mut values: Vec<u32>) -> Vec<u32> {
    values.sort();
    values
}

library_benchmark_group!(name = numbers, benchmarks = [bench_fib, bench_sort]);

main!(library_benchmark_groups = numbers);
