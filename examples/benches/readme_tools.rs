// The "Valgrind Tools" example of the seed README (DHAT for all benchmarks), with only the crate
// path changed, and the quickstart's fibonacci with a flamegraph of each run and its change.
use benchgrind::{
    library_benchmark, library_benchmark_group, main, FlamegraphConfig, FlamegraphKind,
    LibraryBenchmarkConfig, Tool, ValgrindTool,
};
use std::hint::black_box;

#[library_benchmark]
fn some_func() {
    println!("Hello, World!");
}

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .flamegraph(FlamegraphConfig::default().kind(FlamegraphKind::All)))]
#[bench::short(10)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

library_benchmark_group!(name = some_group; benchmarks = some_func, bench_fibonacci);

main!(
    config = LibraryBenchmarkConfig::default()
                .tool(Tool::new(ValgrindTool::DHAT));
    library_benchmark_groups = some_group
);
