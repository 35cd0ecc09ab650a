//! A user's `--toggle-collect` in iai-callgrind 0.15/0.16's tool values
//! (`.tool(Callgrind::with_args(..))`), as `toggles_v13` has it in 0.13's form; the counts
//! are compared in `tests/compat.rs`.

use std::hint::black_box;

use benchgrind::{
    library_benchmark, library_benchmark_group, main, Callgrind, LibraryBenchmarkConfig,
};

include!("toggles/bodies.rs");

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::with_args(["--toggle-collect=*no_such_function*"])))]
fn plain_toggled() -> u64 {
    work()
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::with_args(["--toggle-collect=*helper_square_sum*"])))]
fn helper_toggled() -> u64 {
    work() + helper_square_sum(black_box(50))
}

library_benchmark_group!(name = toggles; benchmarks = plain_toggled, helper_toggled);

main!(library_benchmark_groups = toggles);
