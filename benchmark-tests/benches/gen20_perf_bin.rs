//! gungraun 0.20's `Perf` in a binary benchmark's config, only the crate path changed: the
//! command is sampled natively, each run from its exec to its end.
//! `benchmark-tests/tests/gen20.rs` runs it.

use benchgrind::prelude::*;
use benchgrind::Perf;

const ECHO: &str = env!("CARGO_BIN_EXE_echo");

#[binary_benchmark(config = BinaryBenchmarkConfig::default().tool(Perf::default()))]
#[bench::echo()]
fn binary_with_perf() -> Command {
    Command::new(ECHO).arg("perf").build()
}

binary_benchmark_group!(name = perf_binary, benchmarks = [binary_with_perf]);

main!(binary_benchmark_groups = [perf_binary]);
