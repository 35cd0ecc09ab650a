// The library benchmarks of `e2e_lib` and `e2e_lib_more`, included by both.

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};
use std::hint::black_box;

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

#[library_benchmark]
#[bench::short(10)]
#[bench::medium(15)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

#[library_benchmark]
#[bench::boom(7)]
fn bench_panics(value: u64) -> u64 {
    if black_box(value) == 7 {
        panic!("the benchmark fell over at {value}");
    }
    value
}

fn make_vec(len: usize) -> Vec<u64> {
    (0..len as u64).rev().collect()
}

fn check_sorted(v: Vec<u64>) {
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "teardown: not sorted");
}

#[library_benchmark(setup = make_vec, teardown = check_sorted)]
#[benches::sort(100, 1000)]
fn bench_sort(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v
}

#[library_benchmark]
fn empty() {}

#[library_benchmark(config = LibraryBenchmarkConfig::default().env_clear(false))]
#[bench::env_size(())]
fn env_reader(_: ()) -> usize {
    black_box(std::env::vars_os().count())
}


/// Reads stdin and prints: the measured process must give it an empty stdin and keep what it
/// prints out of the harness' way.
#[library_benchmark]
fn reads_stdin_and_prints() -> usize {
    let mut line = String::new();
    let read = std::io::stdin().read_line(&mut line).unwrap_or(0);
    println!("read {read} bytes from stdin");
    black_box(read)
}
