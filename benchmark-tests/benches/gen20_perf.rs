//! gungraun 0.20's whole perf API, written from its documented shapes with only the crate path
//! changed: `Perf` with every method (`with_args`, `args`, `alpha`, `disable_entry_point`,
//! `enable`, `event_set(s)`, `fail_fast`, `non_zero_metrics`, `min_pcnt_running`, `soft_limits`,
//! `hard_limits` with `Unit` and `Limit`, `run_mode` in its three modes, `record`,
//! `record_args`, `sample_duration`), `PerfMetric`, the macros (`perf_enable!`,
//! `perf_disable!`, `perf_log!`); `gen20_perf_bin` has `Perf` in a binary benchmark's config.
//! `benchmark-tests/tests/gen20.rs` runs it.

use std::hint::black_box;
use std::time::Duration;

use benchgrind::prelude::*;
use benchgrind::{Limit, Perf, PerfMetric, PerfRunMode, Unit};

fn work(n: u64) -> u64 {
    (0..black_box(n)).fold(0, |a, i| a ^ i.wrapping_mul(0x9e37_79b9))
}

fn every_method() -> Perf {
    let mut perf = Perf::with_args(["--all-user"]);
    perf.args(["--event=task-clock"])
        .alpha(0.01)
        .enable(true)
        .event_set("task-clock,page-faults")
        .event_sets(["{cycles,instructions}"])
        .fail_fast(false)
        .non_zero_metrics(["task-clock*"])
        .min_pcnt_running(80.0)
        .soft_limits([("task-clock*", 1000.0)])
        .hard_limits([
            ("task-clock*", Some(Unit::Seconds), Limit::Float(10.0)),
            ("page-faults*", None, Limit::Int(1_000_000)),
        ])
        .run_mode(PerfRunMode::Calibrate(Duration::from_millis(20)))
        .record(false)
        .record_args(["--freq=999"])
        .sample_duration(Duration::from_millis(200));
    perf
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(every_method()))]
#[bench::small(20_000)]
fn every_perf_method(n: u64) -> u64 {
    work(n)
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(
    Perf::default()
        .disable_entry_point(true)
        .run_mode(PerfRunMode::DefaultCalibrate)
        .record(true)
        .record_args(["--freq=499"])
        .sample_duration(Duration::from_millis(200))
))]
#[bench::bracketed(20_000)]
fn macros(n: u64) -> u64 {
    let before = work(n);
    let token = benchgrind::perf_enable!();
    let counted = work(n);
    benchgrind::perf_disable!(token);
    benchgrind::perf_log!("counted {}", PerfMetric::from("task-clock").name());
    before ^ counted
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(
    Perf::default().run_mode(PerfRunMode::Direct).enable(false)
))]
#[bench::off(1_000)]
fn perf_off(n: u64) -> u64 {
    work(n)
}

library_benchmark_group!(name = perf_library; benchmarks = every_perf_method, macros, perf_off);

main!(library_benchmark_groups = perf_library);
