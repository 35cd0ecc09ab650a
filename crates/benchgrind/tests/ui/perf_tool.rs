use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Perf};

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::one(1)]
fn bench(n: u64) -> u64 {
    n + 1
}

library_benchmark_group!(name = group; benchmarks = bench);
main!(library_benchmark_groups = group);
