//! Seed 002 (iai-callgrind 0.10): a regression limit of +5% instructions for every benchmark,
//! with only the crate path changed; the group it names is filled in.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, EventKind, LibraryBenchmarkConfig,
    RegressionConfig,
};

// Completed: the seed names `some_group` without showing it.
#[library_benchmark]
#[bench::small(100)]
fn sum_to(n: u64) -> u64 {
    (1..=std::hint::black_box(n)).sum()
}

library_benchmark_group!(name = some_group; benchmarks = sum_to);

main!(
    config = LibraryBenchmarkConfig::default()
        .regression(
            RegressionConfig::default()
                .limits([(EventKind::Ir, 5.0)])
        );
    library_benchmark_groups = some_group
);
