//! A bench program written as for gungraun 0.20's perf tool, with only the crate path changed:
//! `Perf::default()` in a config, `disable_entry_point(true)` with `perf_enable!` and
//! `perf_disable!`, `soft_limits`, `sample_duration` and `perf_log!`.
//!
//! `spin(n)` does `n` rounds of dependent arithmetic, so that time follows `n`:
//! - `window::long_setup`: the setup spins ten times as long as the body;
//! - `window::ten_times`: a body of the setup's length, to compare with;
//! - `window::manual`: ten times the work in the body, a tenth of it between the macros;
//! - `scaled::body`: the body's length times `E2E_PERF_FACTOR` (read in the setup), with a soft
//!   limit of 40 % on task-clock and a significance level of 0.0001;
//! - `alone::perf_only`: perf instead of Valgrind (`Callgrind::enable(false)`), user space only
//!   (`Perf::with_args(["--all-user"])`).

use std::hint::black_box;
use std::time::Duration;

use benchgrind::{
    library_benchmark, library_benchmark_group, main, Callgrind, LibraryBenchmarkConfig, Perf,
    PerfRunMode,
};

/// The body's rounds: about a millisecond natively.
const ROUNDS: u64 = 400_000;

#[inline(never)]
fn spin(rounds: u64) -> u64 {
    let mut x = black_box(1u64);
    for i in 0..black_box(rounds) {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i) ^ (x >> 29);
    }
    x
}

fn long_setup(rounds: u64) -> u64 {
    black_box(spin(rounds * 10));
    rounds
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::body(args = (ROUNDS), setup = long_setup)]
fn long_setup_then(rounds: u64) -> u64 {
    spin(rounds)
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::body(ROUNDS * 10)]
fn ten_times(rounds: u64) -> u64 {
    spin(rounds)
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Perf::default().disable_entry_point(true)))]
#[bench::body(ROUNDS)]
fn manual(rounds: u64) -> u64 {
    let before = spin(rounds * 9);
    let token = benchgrind::perf_enable!();
    let counted = spin(rounds);
    benchgrind::perf_disable!(token);
    before ^ counted
}

library_benchmark_group!(name = window; benchmarks = long_setup_then, ten_times, manual);

fn factor(rounds: u64) -> u64 {
    let factor = std::env::var("E2E_PERF_FACTOR")
        .ok()
        .and_then(|f| f.parse::<u64>().ok())
        .unwrap_or(1);
    benchgrind::perf_log!("factor {factor}");
    rounds * factor
}

// alpha 0.0001: the test asserts that the same body twice is not significant on every CI run;
// at 0.05 that fails by design now and then (with the default noise floor of 1.5 %, a change of
// about 4 % between runs of the same code, which this machine shows; at 0.0001, about 8 %).
#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(
    Perf::default()
        .sample_duration(Duration::from_millis(600))
        .run_mode(PerfRunMode::Direct)
        .alpha(0.0001)
        .soft_limits([("task-clock*", 40.0)])
))]
#[bench::body(args = (ROUNDS), setup = factor)]
fn scaled(rounds: u64) -> u64 {
    spin(rounds)
}

library_benchmark_group!(name = scaled_group; benchmarks = scaled);

/// perf instead of Valgrind: Callgrind turned off, no other tool.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Callgrind::default().enable(false))
    .tool(Perf::with_args(["--all-user"]).sample_duration(Duration::from_millis(300))))]
#[bench::body(ROUNDS)]
fn perf_only(rounds: u64) -> u64 {
    spin(rounds)
}

library_benchmark_group!(name = alone; benchmarks = perf_only);

main!(library_benchmark_groups = window, scaled_group, alone);
