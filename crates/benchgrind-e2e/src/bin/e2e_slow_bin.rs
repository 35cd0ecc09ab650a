//! A binary benchmark that takes 30 s: in a sandbox, `cat` under Valgrind reads what a setup
//! prints after sleeping. For tests/signals.rs: Ctrl-C must stop the command, the setup beside
//! it and remove the sandbox.

use benchgrind::{
    binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Command, Pipe, Sandbox,
    Stdin, Stdio,
};

fn slow_setup() {
    std::thread::sleep(std::time::Duration::from_secs(30));
    println!("late");
}

fn sandboxed() -> BinaryBenchmarkConfig {
    BinaryBenchmarkConfig::default()
        .sandbox(Sandbox::new(true).fixtures(["crates/benchgrind-e2e/fixtures/numbers.txt"]))
        .into()
}

#[binary_benchmark(config = sandboxed())]
#[bench::fed(setup = slow_setup())]
fn slow() -> Command {
    Command::new("cat")
        .stdin(Stdin::Setup(Pipe::Stdout))
        .stdout(Stdio::Null)
        .build()
}

binary_benchmark_group!(name = slow_group; benchmarks = slow);

main!(binary_benchmark_groups = slow_group);
