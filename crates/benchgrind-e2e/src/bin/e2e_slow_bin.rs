//! A binary benchmark that takes 30 s: in a sandbox, `sleep 30` under Valgrind beside a setup
//! (`setup_parallel`) that sleeps as long. For tests/signals.rs: Ctrl-C must stop the command,
//! the setup beside it and remove the sandbox.

use benchgrind::{
    binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Command, Sandbox, Stdio,
};

fn slow_setup() {
    std::thread::sleep(std::time::Duration::from_secs(30));
}

fn sandboxed() -> BinaryBenchmarkConfig {
    BinaryBenchmarkConfig::default()
        .sandbox(Sandbox::new(true).fixtures(["crates/benchgrind-e2e/fixtures/numbers.txt"]))
        .into()
}

#[binary_benchmark(config = sandboxed())]
#[bench::fed(setup = slow_setup())]
fn slow() -> Command {
    Command::new("sleep")
        .arg("30")
        .setup_parallel(true)
        .stdout(Stdio::Null)
        .build()
}

binary_benchmark_group!(name = slow_group; benchmarks = slow);

main!(binary_benchmark_groups = slow_group);
