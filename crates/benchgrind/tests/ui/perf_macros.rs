use benchgrind::{library_benchmark, library_benchmark_group, main, Perf};

#[library_benchmark]
#[bench::one(1)]
fn bench(n: u64) -> u64 {
    benchgrind::perf_enable!();
    let _perf = Perf::with_args(["--event=cycles"]);
    n + 1
}

library_benchmark_group!(name = group; benchmarks = bench);
main!(library_benchmark_groups = group);
