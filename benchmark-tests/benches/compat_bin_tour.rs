//! A tour of the 0.13/0.14 binary benchmark API, written for benchgrind from the seed README and
//! the API's documentation: a `#[binary_benchmark]` without benches, `#[bench]` and `#[benches]`
//! (also `file = ...`, whose lines arrive as `String`s), setup and teardown given as paths and as
//! calls, `Sandbox` with fixtures, a command fed by its setup (`Stdin::Setup(Pipe::Stdout)`) with
//! its output in a file, `BinaryBenchmarkConfig` at main, group, function and bench level, and the
//! low-level `BinaryBenchmarkGroup` API. The programs (`echo`, `read-file`, `pipe`) are this
//! package's own; the e2e test `compat` runs the file twice under Valgrind.

use std::path::PathBuf;

use benchgrind::{
    binary_benchmark, binary_benchmark_group, main, Bench, BinaryBenchmark, BinaryBenchmarkConfig,
    BinaryBenchmarkGroup, Command, Pipe, Sandbox, Stdin, Stdio,
};

const ECHO: &str = env!("CARGO_BIN_EXE_echo");
const READ_FILE: &str = env!("CARGO_BIN_EXE_read-file");
const PIPE: &str = env!("CARGO_BIN_EXE_pipe");
const HAS_ENV: &str = env!("CARGO_BIN_EXE_has-env");

/// The variable every level of configuration below sets, to show which one a command sees.
const LEVEL: &str = "TOUR_LEVEL";

/// No `#[bench]` at all: the function itself is the one benchmark.
#[binary_benchmark]
fn bare() -> Command {
    Command::new(ECHO).build()
}

/// One benchmark per `#[bench]`, and one per element of a `#[benches]`.
#[binary_benchmark]
#[bench::alone("lily")]
#[benches::several("rose", "daisy")]
fn single(word: &str) -> Command {
    Command::new(ECHO).arg(word).build()
}

/// In a group without a config, the main level's `TOUR_LEVEL` (see `levels_env` below).
#[binary_benchmark]
fn main_level() -> Command {
    Command::new(HAS_ENV).args([LEVEL, "main"]).build()
}

binary_benchmark_group!(
    name = echoes;
    benchmarks = bare, single, main_level
);

/// A setup called as written (`write_note()`), one given by path (called with the bench's
/// arguments), and a teardown by path that checks what the command left.
fn write_note() {
    std::fs::write("note.txt", "written by the setup").unwrap();
}

fn write_file(path: &str, content: &str) {
    std::fs::write(path, content).unwrap();
}

fn still_there(path: &str, content: &str) {
    assert_eq!(std::fs::read_to_string(path).unwrap(), content);
}

#[binary_benchmark(config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)))]
#[bench::called(args = ("note.txt", "written by the setup"), setup = write_note())]
#[bench::by_path(args = ("p.txt", "path setup"), setup = write_file, teardown = still_there)]
#[benches::pairs(
    args = [("x.txt", "ex"), ("y.txt", "why")],
    setup = write_file,
    teardown = still_there
)]
fn check_file(path: &str, content: &str) -> Command {
    Command::new(READ_FILE).args([path, content]).build()
}

/// Each line of the file (`name;content`) is a benchmark; the line is given as a `String` to
/// the setup (a path) and to the function.
fn split(line: &str) -> (&str, &str) {
    line.split_once(';').expect("a line is `name;content`")
}

fn write_line(line: String) {
    let (path, content) = split(&line);
    write_file(path, content);
}

#[binary_benchmark(config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)))]
#[benches::orchard(file = "benchmark-tests/benches/fixtures/orchard.inputs", setup = write_line)]
fn from_lines(line: String) -> Command {
    let (path, content) = split(&line);
    Command::new(READ_FILE).args([path, content]).build()
}

/// Fixtures are copied into the sandbox before the setup runs: the command reads them where
/// they were put, relative to the sandbox.
#[binary_benchmark(
    config = BinaryBenchmarkConfig::default().sandbox(
        Sandbox::new(true).fixtures(["benchmark-tests/benches/fixtures/tour"])
    )
)]
#[bench::shelf("tour/shelf.txt", "first shelf\n")]
#[bench::count("tour/count.txt", "seven\n")]
fn fixture(path: &str, content: &str) -> Command {
    Command::new(READ_FILE).args([path, content]).build()
}

binary_benchmark_group!(
    name = files;
    benchmarks = check_file, from_lines, fixture
);

/// The setup's standard output is the command's standard input; the command's output goes to a
/// file that the teardown reads. Setup and command run at the same time.
fn say(word: &str) {
    println!("a line before the word");
    println!("{word}");
}

fn heard(word: &str) {
    let text = std::fs::read_to_string("heard").unwrap();
    assert_eq!(text, format!("a line before the word\n{word}\n"));
}

#[binary_benchmark(setup = say, teardown = heard)]
#[bench::hello("hello")]
#[bench::goodbye("goodbye")]
fn piped(_: &str) -> Command {
    Command::new(PIPE)
        .stdin(Stdin::Setup(Pipe::Stdout))
        .stdout(Stdio::File(PathBuf::from("heard")))
        .stderr(Stdio::Null)
        .build()
}

binary_benchmark_group!(
    name = pipes;
    config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true));
    benchmarks = piped
);

/// Configuration at every level: main, group, function and bench, each setting `TOUR_LEVEL`. The
/// most specific level wins, which `has-env` checks in the command's environment.
fn levels_env(level: &str) -> BinaryBenchmarkConfig {
    BinaryBenchmarkConfig::default().env(LEVEL, level).clone()
}

#[binary_benchmark(config = levels_env("function"))]
#[bench::function_level("function")]
#[bench::bench_level(args = ("bench"), config = levels_env("bench"))]
fn seen_level(level: &str) -> Command {
    Command::new(HAS_ENV).args([LEVEL, level]).build()
}

/// Without a function or bench config, the group's level.
#[binary_benchmark]
#[bench::group_level("group")]
fn group_default(level: &str) -> Command {
    Command::new(HAS_ENV).args([LEVEL, level]).build()
}

binary_benchmark_group!(
    name = group_level;
    config = levels_env("group").sandbox(Sandbox::new(true)).clone();
    benchmarks = seen_level, group_default
);

/// The low-level API: the same kinds of benchmarks built by hand, with setup and teardown at
/// the benchmark and at the bench, and configs at both.
fn low_level_setup() {
    write_file("low.txt", "made by the benchmark's setup");
}

/// The bench's own setup replaces the benchmark's, so either file is there.
fn low_level_teardown() {
    let removed = ["low.txt", "bench.txt"].map(|f| std::fs::remove_file(f).is_ok());
    assert_eq!(removed.iter().filter(|r| **r).count(), 1, "{removed:?}");
}

fn bench_setup() {
    write_file("bench.txt", "made by the bench's setup");
}

binary_benchmark_group!(
    name = low_level;
    config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true));
    benchmarks = |group: &mut BinaryBenchmarkGroup| {
        group
            .binary_benchmark(
                BinaryBenchmark::new("by_hand")
                    .setup(low_level_setup)
                    .teardown(low_level_teardown)
                    .config(levels_env("function"))
                    .bench(
                        Bench::new("benchmark_setup")
                            .command(Command::new(READ_FILE).args(["low.txt", "made by the benchmark's setup"])),
                    )
                    .bench(
                        Bench::new("bench_setup")
                            .setup(bench_setup)
                            .config(levels_env("bench"))
                            .command(Command::new(READ_FILE).args(["bench.txt", "made by the bench's setup"])),
                    ),
            )
            .binary_benchmark(
                BinaryBenchmark::new("levels")
                    .config(levels_env("function"))
                    .bench(Bench::new("function").command(Command::new(HAS_ENV).args([LEVEL, "function"])))
                    .bench(
                        Bench::new("bench")
                            .config(levels_env("bench"))
                            .command(Command::new(HAS_ENV).args([LEVEL, "bench"])),
                    ),
            )
            .binary_benchmark(
                BinaryBenchmark::new("several_commands").bench(
                    Bench::new("numbered")
                        .commands([Command::new(ECHO).arg("one").build(), Command::new(ECHO).arg("two").build()]),
                ),
            )
    }
);

main!(
    config = levels_env("main");
    binary_benchmark_groups = echoes, files, pipes, group_level, low_level
);
