//! A binary-benchmark program for the end-to-end tests. Paths the tests choose arrive through
//! variables read when the commands are built (in the harness, not in the measured process):
//! `E2E_C_PROGRAM` (a C program the test compiled) and `E2E_PIPE_OUT` (where `cat` writes).

use benchgrind::{
    binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Command, ExitWith,
    FlamegraphConfig, Pipe, Sandbox, Stdin, Stdio, Tool, ValgrindTool,
};

fn sandboxed() -> BinaryBenchmarkConfig {
    BinaryBenchmarkConfig::default()
        .sandbox(Sandbox::new(true).fixtures(["crates/benchgrind-e2e/fixtures/numbers.txt"]))
        .into()
}

#[binary_benchmark(config = sandboxed())]
#[bench::numbers()]
fn sort() -> Command {
    Command::new("/usr/bin/sort")
        .args(["-n", "numbers.txt"])
        .stdout(Stdio::Null)
        .build()
}

#[binary_benchmark]
#[bench::thousand("1000")]
fn c_program(n: &str) -> Command {
    let program = std::env::var("E2E_C_PROGRAM").unwrap_or_else(|_| "/bin/true".into());
    Command::new(program).arg(n).build()
}

fn say_hello() {
    println!("piped through setup: 42");
}

#[binary_benchmark]
#[bench::cat(setup = say_hello())]
fn piped() -> Command {
    let out = std::env::var("E2E_PIPE_OUT").unwrap_or_else(|_| "/dev/null".into());
    Command::new("cat")
        .stdin(Stdin::Setup(Pipe::Stdout))
        .stdout(Stdio::File(out.into()))
        .build()
}

#[binary_benchmark(config = BinaryBenchmarkConfig::default().exit_with(ExitWith::Code(2)))]
#[bench::exits_2("exit 2")]
#[bench::exits_0("exit 0")]
fn expect_two(script: &str) -> Command {
    Command::new("/bin/sh").args(["-c", script]).build()
}

fn panicking_setup() {
    panic!("setup fell over");
}

#[binary_benchmark(config = sandboxed())]
#[bench::passes(args = ("/bin/true"))]
#[bench::fails(args = ("/bin/false"))]
#[bench::setup_panics(args = ("/bin/true"), setup = panicking_setup())]
fn in_sandbox(program: &str) -> Command {
    Command::new(program).build()
}

fn tool() -> Command {
    let program = std::env::var("E2E_TOOL").unwrap_or_else(|_| "/bin/true".into());
    Command::new(program).arg("5000").build()
}

#[binary_benchmark]
#[bench::whole()]
#[bench::work_only(config = BinaryBenchmarkConfig::default().entry_point("e2e_tool::work"))]
fn entry() -> Command {
    tool()
}

#[binary_benchmark(config = BinaryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT))
    .flamegraph(FlamegraphConfig::default()))]
#[bench::whole()]
#[bench::allocate_only(config = BinaryBenchmarkConfig::default().entry_point("e2e_tool::allocate"))]
fn with_tools() -> Command {
    let program = std::env::var("E2E_TOOL").unwrap_or_else(|_| "/bin/true".into());
    Command::new(program).args(["100", "256"]).build()
}

binary_benchmark_group!(name = entry_points; benchmarks = entry);
binary_benchmark_group!(name = tools; benchmarks = with_tools);
binary_benchmark_group!(name = programs; benchmarks = sort, c_program);
binary_benchmark_group!(name = pipes; benchmarks = piped);
binary_benchmark_group!(name = exits; benchmarks = expect_two);
binary_benchmark_group!(name = sandboxes; benchmarks = sort, in_sandbox);

main!(
    binary_benchmark_groups = entry_points,
    tools,
    programs,
    pipes,
    exits,
    sandboxes
);
