use benchgrind::{library_benchmark, library_benchmark_group};

#[library_benchmark]
fn bench() {}

library_benchmark_group!(
    name = my_group;
    compare_by_ids = true;
    benchmarks = bench
);

fn main() {}
