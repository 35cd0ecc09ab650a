//! A user's `--toggle-collect` in iai-callgrind 0.13's configuration
//! (`LibraryBenchmarkConfig::raw_callgrind_args`), beside the same bodies without it:
//! `plain_toggled` names a function it never calls and counts what `plain` counts;
//! `helper_toggled` leaves out the helper that `calls_helper` counts. `tests/compat.rs` also
//! runs this binary with the option on the command line (`--callgrind-args`).

use benchgrind::LibraryBenchmarkConfig;
use benchgrind::{black_box, library_benchmark, library_benchmark_group, main};

include!("toggles/bodies.rs");

#[library_benchmark]
fn plain() -> u64 {
    work()
}

#[library_benchmark]
fn calls_helper() -> u64 {
    work() + helper_square_sum(black_box(50))
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .raw_callgrind_args(["--toggle-collect=*no_such_function*"]))]
fn plain_toggled() -> u64 {
    work()
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .raw_callgrind_args(["--toggle-collect=*helper_square_sum*"]))]
fn helper_toggled() -> u64 {
    work() + helper_square_sum(black_box(50))
}

library_benchmark_group!(
    name = toggles;
    benchmarks = plain, calls_helper, plain_toggled, helper_toggled
);

main!(library_benchmark_groups = toggles);
