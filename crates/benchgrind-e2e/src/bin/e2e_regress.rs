//! A bench program for regression limits and baselines. The amount of work comes from the
//! `E2E_WORK` variable (read in setup, passed through to the measured process), so a test can
//! make a "code change" of +10% instructions without rebuilding.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, EventKind, LibraryBenchmarkConfig,
    RegressionConfig,
};
use std::hint::black_box;

fn work_size(_: ()) -> u64 {
    std::env::var("E2E_WORK")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1000)
}

fn work(n: u64) -> u64 {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(31) ^ i);
    }
    x
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn strict(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn lenient(n: u64) -> u64 {
    work(n)
}

#[library_benchmark]
#[bench::fixed(500)]
fn unchanged(n: u64) -> u64 {
    work(n)
}

library_benchmark_group!(
    name = limit_5;
    config = LibraryBenchmarkConfig::default()
        .regression(RegressionConfig::default().limits([(EventKind::Ir, 5.0)]));
    benchmarks = strict, unchanged
);

library_benchmark_group!(
    name = limit_20;
    config = LibraryBenchmarkConfig::default()
        .regression(RegressionConfig::default().limits([(EventKind::Ir, 20.0)]));
    benchmarks = lenient
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_envs(["E2E_WORK"]);
    library_benchmark_groups = limit_5, limit_20
);
