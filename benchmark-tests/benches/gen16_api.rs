//! Benchmarks in the shape code written for iai-callgrind 0.15 and 0.16 takes (written here from
//! those versions' documented API, only the crate path changed): explicit imports (no prelude
//! before 0.18), the tool configurations as values (`Callgrind`, `Dhat`, `Memcheck`, `Cachegrind`)
//! at the main, group and bench levels, the 0.15 `limits` beside 0.16's `soft_limits` and
//! `hard_limits` with `Limit`, metric groups in `format`, the cache rates, DHAT's `entry_point`
//! and `frames`, `OutputFormat::tolerance`, `show_intermediate` and `show_grid`, and
//! `default_tool` with `ValgrindTool`. `benchmark-tests/tests/gen_api.rs` runs it twice.

use std::hint::black_box;

use benchgrind::{
    library_benchmark, library_benchmark_group, main, CachegrindMetric, Callgrind,
    CallgrindMetrics, Dhat, DhatMetric, DhatMetrics, EntryPoint, ErrorMetric, EventKind,
    FlamegraphConfig, LibraryBenchmarkConfig, Limit, Memcheck, OutputFormat, ValgrindTool,
};

fn checksum(data: &[u64]) -> u64 {
    data.iter()
        .fold(17, |acc, x| acc.rotate_left(7) ^ x.wrapping_mul(31))
}

fn numbers(n: u64) -> Vec<u64> {
    (0..n).map(|x| x * 3 + 1).collect()
}

#[inline(never)]
fn build(n: u64) -> Vec<u64> {
    numbers(n)
}

#[library_benchmark]
#[bench::small(numbers(100))]
#[bench::large(args = (numbers(1000)), config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::default().hard_limits([(EventKind::Ir, Limit::Int(100_000))]))
)]
fn bench_checksum(data: Vec<u64>) -> u64 {
    black_box(checksum(black_box(&data)))
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::with_args(["--cache-sim=yes"])
            .limits([(EventKind::Ir, 50.0)])
            .format([CallgrindMetrics::Default, CallgrindMetrics::CacheMissRates]))
)]
#[benches::sizes(10, 200)]
fn bench_rates(n: u64) -> u64 {
    black_box(checksum(&numbers(black_box(n))))
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Dhat::default()
            .entry_point(EntryPoint::Custom("*::build".to_owned()))
            .frames(["*::numbers"])
            .soft_limits([(DhatMetrics::All, 50.0)])
            .hard_limits([(DhatMetric::TotalBytes, 1_000_000u64)])
            .format([DhatMetric::TotalBytes, DhatMetric::TotalBlocks, DhatMetric::TotalUnits]))
)]
#[bench::allocates(500)]
fn bench_allocations(n: u64) -> usize {
    black_box(build(black_box(n))).len()
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Memcheck::with_args(["--leak-check=full"])
            .format([ErrorMetric::Errors, ErrorMetric::Contexts]))
)]
#[bench::clean(64)]
fn bench_memcheck(n: u64) -> u64 {
    black_box(numbers(n).iter().sum())
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .default_tool(ValgrindTool::DHAT)
        .tool(Dhat::default().format([DhatMetric::TotalBytes, DhatMetric::AtTGmaxBytes]))
)]
#[bench::dhat_only(300)]
fn bench_dhat_only(n: u64) -> usize {
    black_box(numbers(n)).len()
}

library_benchmark_group!(
    name = values;
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default()
            .soft_limits([(CallgrindMetrics::CacheHits, 20.0)])
            .soft_limits([(EventKind::L1HitRate, -10.0)])
            .hard_limits([(EventKind::LLMissRate, 50.0f64)])
            .flamegraph(FlamegraphConfig::default()));
    benchmarks = bench_checksum, bench_rates, bench_allocations, bench_memcheck, bench_dhat_only
);

#[library_benchmark]
#[bench::cachegrind_beside(200)]
fn bench_with_cachegrind(n: u64) -> u64 {
    black_box(checksum(&numbers(n)))
}

library_benchmark_group!(
    name = cachegrind_group;
    config = LibraryBenchmarkConfig::default()
        .tool(benchgrind::Cachegrind::default()
            .format([CachegrindMetric::Ir, CachegrindMetric::Dr])
            .soft_limits([(CachegrindMetric::Ir, 50.0)]));
    benchmarks = bench_with_cachegrind
);

main!(
    config = LibraryBenchmarkConfig::default()
        .output_format(OutputFormat::default()
            .tolerance(0.5)
            .show_intermediate(false)
            .show_grid(true)
            .truncate_description(Some(60)));
    library_benchmark_groups = values, cachegrind_group
);
