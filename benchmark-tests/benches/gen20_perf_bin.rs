//! gungraun 0.20's `Perf` in a binary benchmark's config, only the crate path changed: the
//! command is sampled natively, each run from its exec to its end; one that reads its setup's
//! output is said not to be sampled.
//! `benchmark-tests/tests/gen20.rs` runs it.

use benchgrind::prelude::*;
use benchgrind::{Perf, Pipe, Stdin};

const ECHO: &str = env!("CARGO_BIN_EXE_echo");
const PIPE: &str = env!("CARGO_BIN_EXE_pipe");

#[binary_benchmark(config = BinaryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::echo()]
fn binary_with_perf() -> Command {
    Command::new(ECHO).arg("perf").build()
}

fn feed() {
    println!("fed by the setup");
}

/// A command that reads its setup's output cannot be sampled natively (its setup runs once a
/// round): said, not failed.
#[binary_benchmark(config = BinaryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::piped(setup = feed())]
fn reads_its_setup() -> Command {
    Command::new(PIPE).stdin(Stdin::Setup(Pipe::Stdout)).build()
}

binary_benchmark_group!(
    name = perf_binary,
    benchmarks = [binary_with_perf, reads_its_setup]
);

main!(binary_benchmark_groups = [perf_binary]);
