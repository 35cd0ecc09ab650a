//! Binary benchmarks as iai-callgrind 0.13/0.14 users write them, with the items benchgrind
//! took over from those versions: `binary_benchmark_attribute!`, `BenchmarkId`, `Delay` with a
//! parallel setup, `EntryPoint`, and the config methods (`truncate_description`,
//! `with_raw_callgrind_args`, `callgrind_args`, `valgrind_args`, `output_format`,
//! `tool_override`). The e2e test `compat` runs it under Valgrind. Warnings are errors here: no
//! lint may fire on what the macros add (a body on one line included).

#![deny(warnings)]

use std::time::Duration;

use benchgrind::{
    binary_benchmark, binary_benchmark_attribute, binary_benchmark_group, main, Bench, BenchmarkId,
    BinaryBenchmark, BinaryBenchmarkConfig, Command, Delay, DelayKind, EntryPoint, OutputFormat,
    Sandbox, Tool, ValgrindTool,
};

const ECHO_EXE: &str = env!("CARGO_BIN_EXE_echo");
const READ_FILE_EXE: &str = env!("CARGO_BIN_EXE_read-file");

#[binary_benchmark(config = BinaryBenchmarkConfig::default().truncate_description(Some(8)))]
#[bench::cut("a long argument that the header cuts")]
fn bench_echo(arg: &str) -> Command {
    Command::new(ECHO_EXE).arg(arg).build()
}

/// Writes the file the command waits for, after a pause: the command must not start before.
fn write_later() {
    std::thread::sleep(Duration::from_millis(200));
    // Whole or not at all: the command starts as soon as the name exists, and a plain write
    // creates it empty first (the command once read "" in CI).
    std::fs::write("ready.txt.part", "ready").unwrap();
    std::fs::rename("ready.txt.part", "ready.txt").unwrap();
}

#[binary_benchmark(
    config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true))
)]
#[bench::waits(setup = write_later())]
fn bench_delay() -> Command {
    Command::new(READ_FILE_EXE)
        .args(["ready.txt", "ready"])
        .setup_parallel(true)
        .delay(
            Delay::new(DelayKind::PathExists("ready.txt".into()))
                .poll(Duration::from_millis(5))
                .timeout(Duration::from_secs(20)),
        )
        .build()
}

// On one line, as people write small benchmarks (rustfmt would spread it out).
#[rustfmt::skip]
#[binary_benchmark]
#[bench::one_line("x")]
fn bench_one_line(arg: &str) -> Command { Command::new(ECHO_EXE).arg(arg).build() }

/// The same with the parallel setup and the working directory given in the config (0.14).
#[binary_benchmark]
#[bench::config(
    setup = write_later(),
    config = BinaryBenchmarkConfig::default()
        .sandbox(Sandbox::new(true))
        .setup_parallel(true)
        .current_dir(".")
)]
fn bench_delay_config() -> Command {
    Command::new(READ_FILE_EXE)
        .args(["ready.txt", "ready"])
        .delay(Delay::from_path("ready.txt").timeout(Duration::from_secs(20)))
        .build()
}

/// A generic `#[binary_benchmark]` function, instantiated by its argument's type.
#[binary_benchmark]
#[bench::generic("generic")]
fn bench_generic<T: AsRef<std::ffi::OsStr>>(arg: T) -> Command {
    Command::new(ECHO_EXE).arg(arg.as_ref()).build()
}

fn nothing() {}

/// `args = [..]` in a `#[bench]` with a setup, as real benchmarks write it: the elements are the
/// arguments of the function.
#[binary_benchmark]
#[bench::array(setup = nothing(), args = [2, false, "w"])]
fn bench_array_args(count: u16, flag: bool, word: &str) -> Command {
    Command::new(ECHO_EXE)
        .args([count.to_string(), flag.to_string(), word.to_owned()])
        .build()
}

binary_benchmark_group!(
    name = attribute_group;
    config = BinaryBenchmarkConfig::with_raw_callgrind_args(["--branch-sim=yes"])
        .callgrind_args(["--dump-instr=yes"])
        .valgrind_args(["--fair-sched=no"])
        .output_format(OutputFormat::default().show_grid(true));
    benchmarks = bench_echo, bench_delay, bench_delay_config, bench_generic, bench_array_args,
        bench_one_line
);

binary_benchmark_group!(
    name = low_level_group;
    config = BinaryBenchmarkConfig::default().tool(Tool::new(ValgrindTool::Memcheck));
    benchmarks = |group: &mut BinaryBenchmarkGroup| {
        group
            .binary_benchmarks([binary_benchmark_attribute!(bench_echo)])
            .binary_benchmark(
                BinaryBenchmark::new(BenchmarkId::new("echo_ids"))
                    .config(
                        BinaryBenchmarkConfig::default()
                            .tool_override(Tool::new(ValgrindTool::DHAT))
                            .entry_point(EntryPoint::Custom("echo::main".to_owned())),
                    )
                    .bench(
                        Bench::new(BenchmarkId::with_parameter("words", 2))
                            .command(Command::new(ECHO_EXE).args(["one", "two"])),
                    ),
            )
            // An entry point no call matches: nothing is counted, and a warning says why.
            .binary_benchmark(
                BinaryBenchmark::new(BenchmarkId::new("misnamed"))
                    .config(
                        BinaryBenchmarkConfig::default()
                            .entry_point(EntryPoint::Custom("echo::no_such_function".to_owned())),
                    )
                    .bench(
                        Bench::new(BenchmarkId::new("nowhere"))
                            .command(Command::new(ECHO_EXE).arg("one")),
                    ),
            )
    }
);

/// The low-level form with the group filled by a function that returns nothing, as
/// iai-callgrind's documentation writes it.
fn setup_group(group: &mut BinaryBenchmarkGroup) {
    group.binary_benchmark(
        BinaryBenchmark::new("from_fn")
            .bench(Bench::new("hello").command(Command::new(ECHO_EXE).arg("hello"))),
    );
}

binary_benchmark_group!(
    name = function_group;
    benchmarks = |group: &mut BinaryBenchmarkGroup| setup_group(group)
);

main!(
    binary_benchmark_groups = attribute_group,
    low_level_group,
    function_group
);
