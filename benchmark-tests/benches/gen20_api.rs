//! Library benchmarks in the shape code written for gungraun 0.17 to 0.20 takes (written here
//! from gungraun's documented API, only the crate path changed): the prelude, the tool values
//! of every tool (`Callgrind`, `Dhat`, `Memcheck`, `Helgrind`, `Drd`, `Massif`, `Bbv`) with
//! `format`, `entry_point`, `fail_fast`, `sanitize_output` and the metric groups, `default_tool`
//! with 0.20's `Tool`, and `LibraryBenchmarkConfig::sandbox` and `current_dir` (0.19).
//! `benchmark-tests/tests/gen_api.rs` runs it twice.

use std::hint::black_box;

use benchgrind::prelude::*;
use benchgrind::{
    Bbv, Callgrind, CallgrindMetrics, Dhat, DhatMetric, Drd, EntryPoint, ErrorMetric, EventKind,
    Helgrind, Massif, Memcheck, OutputFormat, Sandbox, SanitizeOutput, Tool,
};

fn squares(n: u64) -> Vec<u64> {
    (1..=n).map(|x| x * x).collect()
}

#[library_benchmark]
#[bench::hundred(squares(100))]
fn sum_squares(values: Vec<u64>) -> u64 {
    black_box(values.iter().sum())
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default()
            .entry_point(EntryPoint::Default)
            .fail_fast(false)
            .format([CallgrindMetrics::All]))
)]
#[bench::all_metrics(300)]
fn all_metrics(n: u64) -> u64 {
    black_box(squares(black_box(n)).iter().rev().sum())
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .default_tool(Tool::DHAT)
        .tool(Dhat::default()
            .sanitize_output(SanitizeOutput::KeepOrig)
            .format([DhatMetric::TotalBytes, DhatMetric::TotalBlocks]))
)]
#[bench::heap(200)]
fn dhat_is_the_default_tool(n: u64) -> usize {
    black_box(squares(n)).len()
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Helgrind::default().format([ErrorMetric::Errors]))
        .tool(Drd::default().format([ErrorMetric::Errors, ErrorMetric::Contexts]))
        .tool(Memcheck::default())
)]
#[bench::single_thread(4)]
fn checked(n: u64) -> u64 {
    // One thread: Helgrind and DRD see no synchronisation they would have to understand (Rust's
    // own, on atomics and futexes, reads to them as races).
    black_box(squares(n + 1).iter().sum())
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .tool(Massif::default())
        .tool(Bbv::default().enable(false))
)]
#[bench::massif(1000)]
fn with_massif(n: u64) -> usize {
    black_box(squares(n)).len()
}

/// Reads the fixture the sandbox copied into the working directory.
#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .sandbox(Sandbox::new(true).fixtures(["benchmark-tests/benches/fixtures/tour/count.txt"]))
)]
#[bench::fixture("count.txt")]
fn reads_in_sandbox(name: &str) -> usize {
    black_box(std::fs::read_to_string(name).expect("the sandbox has the fixture")).len()
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default().current_dir("benches/fixtures/tour")
)]
#[bench::relative("count.txt")]
fn reads_in_current_dir(name: &str) -> usize {
    black_box(std::fs::read_to_string(name).expect("the directory has the file")).len()
}

library_benchmark_group!(
    name = tools,
    config = LibraryBenchmarkConfig::default()
        .tool(Callgrind::default().soft_limits([(EventKind::Ir, 25.0)])),
    benchmarks = [
        sum_squares,
        all_metrics,
        dhat_is_the_default_tool,
        checked,
        with_massif
    ],
);

library_benchmark_group!(
    name = places,
    benchmarks = [reads_in_sandbox, reads_in_current_dir],
);

main!(
    config =
        LibraryBenchmarkConfig::default().output_format(OutputFormat::default().show_grid(false)),
    library_benchmark_groups = [tools, places],
);
