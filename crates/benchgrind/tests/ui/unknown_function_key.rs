use benchgrind::library_benchmark;

#[library_benchmark(confg = benchgrind::LibraryBenchmarkConfig::default())]
fn bench() {}

fn main() {}
