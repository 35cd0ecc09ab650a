use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
unsafe fn bench_unsafe() -> u64 {
    1
}

library_benchmark_group!(name = my_group; benchmarks = bench_unsafe);
main!(library_benchmark_groups = my_group);
