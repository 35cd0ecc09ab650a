//! Library benchmarks in the macro forms of iai-callgrind 0.15/0.16 and gungraun 0.17-0.20:
//! lists in brackets (`benchmarks = [a, b]`, `library_benchmark_groups = [g1, g2]`), `,` as the
//! key separator, trailing commas, `compare_by_id`, `max_parallel`, `#[benches::id(iter =
//! ...)]` and `consts = ...` for const generic parameters. The e2e test `gen20` runs it under
//! Valgrind (with two workers) and checks the ids it reports. Warnings are errors here: no lint
//! may fire on what the macros add.

#![deny(warnings)]

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// One item per bench; evaluated when the benchmarks are planned and again in each bench.
fn sizes() -> Vec<u64> {
    vec![4, 8, 12]
}

fn double(n: u64) -> u64 {
    n * 2
}

#[library_benchmark]
#[benches::range(iter = 1..4u64)]
#[benches::vector(iter = sizes())]
#[benches::setup(iter = [5u64, 6], setup = double)]
#[bench::plain(10)]
fn bench_fibonacci(n: u64) -> u64 {
    black_box(fibonacci(n))
}

/// Several parameters: each item is a tuple of the arguments.
#[library_benchmark]
#[benches::pairs(iter = vec![(2u64, 3u64), (4, 5)])]
fn bench_product(a: u64, b: u64) -> u64 {
    black_box(a * b)
}

/// Const generic parameters, given with `consts`.
#[library_benchmark]
#[bench::eight(consts = (8, 1))]
#[bench::both(consts = (2, { 1 + 2 }))]
#[benches::many(consts = [(4, 1), (16, 2)])]
fn bench_array<const N: usize, const M: u8>() -> u64 {
    let array = [M; N];
    black_box(array.iter().map(|&x| u64::from(x)).sum())
}

/// `consts` next to arguments: one instantiation for every argument, or one each.
#[library_benchmark]
#[bench::single(7, consts = (2))]
#[benches::shared(args = [1, 2], consts = [3])]
#[benches::paired(args = [3, 4], consts = [5, 6])]
fn bench_repeat<const N: usize>(x: u64) -> u64 {
    black_box([x; N].iter().sum())
}

/// Where the benches of the `serial` group note that they run: each holds this lock file from
/// its setup to its teardown, so two of them at once would find it taken and fail.
const LOCK: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/gen20_macros_serial.lock");

fn hold_lock(n: u64) -> u64 {
    if let Err(e) = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(LOCK)
    {
        panic!("{LOCK}: {e}: two benches of a group with max_parallel = 1 ran at once");
    }
    // Long enough for another worker to start a bench meanwhile, if it were let.
    std::thread::sleep(Duration::from_millis(400));
    n
}

fn release_lock(out: u64) {
    black_box(out);
    std::fs::remove_file(Path::new(LOCK)).unwrap();
}

#[library_benchmark(setup = hold_lock, teardown = release_lock)]
#[benches::serial(iter = [5u64, 6, 7, 8])]
fn bench_serial(n: u64) -> u64 {
    black_box(fibonacci(n))
}

fn group_setup() {
    println!("gen20 group setup ran");
}

// The `,` form with brackets and a trailing comma, as gungraun 0.17+ writes it.
library_benchmark_group!(
    name = fib_group,
    config = LibraryBenchmarkConfig::default(),
    compare_by_id = true,
    max_parallel = 1 + 1,
    setup = group_setup(),
    teardown = println!("gen20 group teardown ran"),
    benchmarks = [bench_fibonacci, bench_product,],
);

// The `;` form with the old bare list.
library_benchmark_group!(
    name = generic_group;
    benchmarks = bench_array, bench_repeat
);

// At most one bench at a time: the lock above checks it.
library_benchmark_group!(
    name = serial_group,
    max_parallel = 1,
    benchmarks = [bench_serial]
);

main!(
    config = LibraryBenchmarkConfig::default(),
    setup = println!("gen20 main setup ran"),
    teardown = println!("gen20 main teardown ran"),
    library_benchmark_groups = [fib_group, generic_group, serial_group,],
);
