// Opting out of the cache simulation, as in the seed README's "Benchmarking" section.
use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};
use std::hint::black_box;

#[library_benchmark]
#[bench::short(10)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(benchgrind_examples::fibonacci(value))
}

library_benchmark_group!(name = no_cache_sim; benchmarks = bench_fibonacci);

main!(
    config = LibraryBenchmarkConfig::default().raw_callgrind_args(["--cache-sim=no"]);
    library_benchmark_groups = no_cache_sim
);
