//! A bench program for what iai-callgrind 0.15+ and gungraun configure with tool values: the
//! cache rates, `Callgrind::format`, soft and hard limits (whole and fractional), DHAT's
//! and Cachegrind's limits and formats, `OutputFormat::tolerance`, and a `compare_by_id` pair. The amount of work comes from
//! `E2E_WORK` (read in setup, passed through), so a test can change the counts without
//! rebuilding; each group is run alone through a filter.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, Cachegrind, CachegrindMetric,
    CachegrindMetrics, Callgrind, CallgrindMetrics, Dhat, DhatMetric, EventKind,
    LibraryBenchmarkConfig, OutputFormat,
};
use std::hint::black_box;

fn work_size(_: ()) -> u64 {
    std::env::var("E2E_WORK")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1000)
}

/// Reads and writes a table as well as computing, so that every cache count moves with `n`.
fn work(n: u64) -> u64 {
    let mut table = vec![0u64; 64];
    let mut x = 0u64;
    for i in 0..n {
        let slot = (i as usize * 7) % table.len();
        x = black_box(x.wrapping_mul(31) ^ i ^ table[slot]);
        table[slot] = x;
    }
    x
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn formatted(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn soft(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn hard_int(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn hard_float(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn tolerant(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn plain(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn heap(n: u64) -> Vec<u64> {
    vec![work(n); black_box(256)]
}

#[library_benchmark(setup = work_size)]
#[bench::loop_work(())]
fn cached(n: u64) -> u64 {
    work(n)
}

#[library_benchmark]
#[bench::same(300)]
fn cmp_first(n: u64) -> u64 {
    work(n)
}

#[library_benchmark]
#[bench::same(600)]
fn cmp_second(n: u64) -> u64 {
    work(n)
}

library_benchmark_group!(
    name = rates;
    config = LibraryBenchmarkConfig::default().tool(Callgrind::default().format([
        CallgrindMetrics::CacheMissRates,
        EventKind::Ir.into(),
        CallgrindMetrics::CacheHitRates,
        CallgrindMetrics::CacheMisses,
        EventKind::Dr.into(),
        EventKind::Dw.into(),
        CallgrindMetrics::CacheHits,
        EventKind::TotalRW.into(),
        CallgrindMetrics::BranchSim,
    ]));
    benchmarks = formatted
);

library_benchmark_group!(
    name = soft_limit;
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().soft_limits([(CallgrindMetrics::CacheHits, 5.0)]));
    benchmarks = soft
);

library_benchmark_group!(
    name = hard_limit_int;
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().hard_limits([(EventKind::Ir, 100u64)]));
    benchmarks = hard_int
);

library_benchmark_group!(
    name = hard_limit_float;
    config = LibraryBenchmarkConfig::default().tool(Callgrind::default().hard_limits([
        (EventKind::L1HitRate, 50.0),
        (EventKind::RamHitRate, 100.0),
    ]));
    benchmarks = hard_float
);

library_benchmark_group!(
    name = tolerance;
    config = LibraryBenchmarkConfig::default()
        .output_format(OutputFormat::default().tolerance(20.0));
    benchmarks = tolerant
);

library_benchmark_group!(
    name = unlimited;
    benchmarks = plain
);

library_benchmark_group!(
    name = dhat_limit;
    config = LibraryBenchmarkConfig::default().tool(
        Dhat::default()
            .format([DhatMetric::TotalBlocks, DhatMetric::TotalBytes])
            .hard_limits([(DhatMetric::TotalBytes, 100u64)])
    );
    benchmarks = heap
);

library_benchmark_group!(
    name = cachegrind;
    config = LibraryBenchmarkConfig::default().tool(
        Cachegrind::default()
            .format([CachegrindMetric::Ir.into(), CachegrindMetrics::CacheHitRates])
            .hard_limits([(CachegrindMetric::Ir, 1000u64)])
    );
    benchmarks = cached
);

library_benchmark_group!(
    name = compared;
    compare_by_id = true;
    benchmarks = cmp_first, cmp_second
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_envs(["E2E_WORK"]);
    library_benchmark_groups = rates, soft_limit, hard_limit_int, hard_limit_float, tolerance,
        unlimited, dhat_limit, cachegrind, compared
);
