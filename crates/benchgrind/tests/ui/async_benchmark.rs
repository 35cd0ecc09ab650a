use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
async fn bench_async() -> u64 {
    1
}

library_benchmark_group!(name = my_group; benchmarks = bench_async);
main!(library_benchmark_groups = my_group);
