//! Binary benchmarks in the macro forms of iai-callgrind 0.15/0.16 and gungraun 0.17-0.20:
//! `benchmarks = [a, b]`, `binary_benchmark_groups = [g1, g2]`, `,` separators, trailing
//! commas, `max_parallel`, `#[benches::id(iter = ...)]` and `consts = ...`. (A bench file holds
//! one kind of benchmark, library or binary, as in gungraun: `gen20_macros` has the library
//! side.) The e2e test `gen20` runs it under Valgrind with two workers. Warnings are errors here.

#![deny(warnings)]

use std::time::Duration;

use benchgrind::{binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Command};

const ECHO_EXE: &str = env!("CARGO_BIN_EXE_echo");

#[binary_benchmark]
#[benches::pairs(iter = vec![("a", 1u8), ("b", 2)])]
#[bench::plain("plain", 0)]
fn bench_echo(word: &str, count: u8) -> Command {
    Command::new(ECHO_EXE)
        .args([word.to_owned(), count.to_string()])
        .build()
}

#[binary_benchmark]
#[benches::words(iter = ["x", "y"])]
fn bench_word(word: &str) -> Command {
    Command::new(ECHO_EXE).arg(word).build()
}

/// Const generic parameters, given with `consts`.
#[binary_benchmark]
#[bench::three(consts = (3))]
#[benches::many(consts = [1, 2])]
fn bench_repeat<const N: usize>() -> Command {
    Command::new(ECHO_EXE).args(vec!["r"; N]).build()
}

/// Held by the benches of the `serial` group from their setup to their teardown: two of them
/// at once would find it taken and fail.
const LOCK: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/gen20_macros_bin_serial.lock");

fn hold_lock() {
    if let Err(e) = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(LOCK)
    {
        panic!("{LOCK}: {e}: two benches of a group with max_parallel = 1 ran at once");
    }
    std::thread::sleep(Duration::from_millis(400));
}

fn release_lock() {
    std::fs::remove_file(LOCK).unwrap();
}

#[binary_benchmark(setup = hold_lock(), teardown = release_lock())]
#[benches::serial(iter = ["s1", "s2", "s3"])]
fn bench_serial(word: &str) -> Command {
    Command::new(ECHO_EXE).arg(word).build()
}

binary_benchmark_group!(
    name = echo_group,
    config = BinaryBenchmarkConfig::default(),
    compare_by_id = true,
    max_parallel = 2,
    benchmarks = [bench_echo, bench_word],
);

binary_benchmark_group!(
    name = generic_group;
    benchmarks = bench_repeat,
);

binary_benchmark_group!(
    name = serial_group,
    max_parallel = 1,
    benchmarks = [bench_serial]
);

main!(
    config = BinaryBenchmarkConfig::default(),
    binary_benchmark_groups = [echo_group, generic_group, serial_group],
);
