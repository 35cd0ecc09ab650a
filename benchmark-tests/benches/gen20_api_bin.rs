//! Binary benchmarks in the shape code written for gungraun 0.17 to 0.20 takes (written here
//! from gungraun's documented API, only the crate path changed): the prelude, `ExitWith::Signal`
//! (0.20), standard input from a path, `Delay` built by value, `default_tool` with `Tool::DHAT`
//! and a `Dhat` value on a binary benchmark, and a group's `Sandbox`.
//! `benchmark-tests/tests/gen_api.rs` runs it twice.

use std::path::PathBuf;
use std::time::Duration;

use benchgrind::prelude::*;
use benchgrind::{Delay, DelayKind, Dhat, DhatMetric, ExitWith, Sandbox, Stdin, Tool};

const PIPE: &str = env!("CARGO_BIN_EXE_pipe");
const ECHO: &str = env!("CARGO_BIN_EXE_echo");
const ABORT: &str = env!("CARGO_BIN_EXE_abort");

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/fixtures/tour")
        .join(name)
}

/// A program that ends by a signal (SIGABRT): the benchmark expects it.
#[binary_benchmark]
#[bench::terminated()]
fn ends_by_signal() -> Command {
    Command::new(ABORT).exit_with(ExitWith::Signal(6)).build()
}

/// The standard input is a file given by its path.
#[binary_benchmark]
#[bench::from_path(fixture("count.txt"))]
fn reads_stdin(path: PathBuf) -> Command {
    Command::new(PIPE).stdin(Stdin::from(path)).build()
}

/// A delay built by value, as 0.20's `Delay` methods take `self`.
#[binary_benchmark]
#[bench::after_a_moment()]
fn delayed() -> Command {
    let delay = Delay::new(DelayKind::DurationElapse(Duration::from_millis(5)))
        .poll(Duration::from_millis(1))
        .timeout(Duration::from_secs(5));
    Command::new(ECHO).arg("later").delay(delay).build()
}

/// DHAT instead of Callgrind for this benchmark.
#[binary_benchmark(
    config = BinaryBenchmarkConfig::default()
        .default_tool(Tool::DHAT)
        .tool(Dhat::default().format([DhatMetric::TotalBytes, DhatMetric::TotalBlocks]))
)]
#[bench::dhat_only()]
fn under_dhat() -> Command {
    Command::new(ECHO).arg("heap").build()
}

binary_benchmark_group!(
    name = gungraun_shapes,
    config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)),
    benchmarks = [ends_by_signal, reads_stdin, delayed, under_dhat],
);

main!(binary_benchmark_groups = [gungraun_shapes]);
