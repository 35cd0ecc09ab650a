use benchgrind::{library_benchmark, library_benchmark_group};

#[library_benchmark]
fn bench() {}

library_benchmark_group!(name = my_group, benchmarks = []);

fn main() {}
