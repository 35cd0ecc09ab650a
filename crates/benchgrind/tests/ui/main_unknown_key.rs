use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
fn bench() {}

library_benchmark_group!(name = my_group; benchmarks = bench);

main!(library_benchmark_group = my_group);
