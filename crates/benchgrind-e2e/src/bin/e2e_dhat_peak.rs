//! A bench program for DHAT's peak of the measured window: a benchmark allocating 1 KiB after a
//! setup that allocated 10 MiB (kept alive, or freed before the window), and one whose two
//! allocation sites peak at different moments.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Tool, ValgrindTool,
};
use std::hint::black_box;

fn ten_mib_kept(len: usize) -> (Vec<u8>, usize) {
    (vec![7u8; black_box(len)], 1024)
}

fn ten_mib_freed(len: usize) -> usize {
    let temporary = vec![7u8; black_box(len)];
    black_box(&temporary);
    drop(temporary);
    1024
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT)))]
#[bench::kept(args = (10 << 20), setup = ten_mib_kept)]
fn one_kib_after_kept_setup(input: (Vec<u8>, usize)) -> (Vec<u8>, Vec<u8>) {
    let (big, len) = input;
    let small = vec![1u8; black_box(len)];
    (big, small)
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT)))]
#[bench::freed(args = (10 << 20), setup = ten_mib_freed)]
fn one_kib_after_freed_setup(len: usize) -> Vec<u8> {
    vec![1u8; black_box(len)]
}

#[inline(never)]
fn first_site(len: usize) -> Vec<u8> {
    vec![2u8; black_box(len)]
}

#[inline(never)]
fn second_site(len: usize) -> Vec<u8> {
    vec![3u8; black_box(len)]
}

/// 1000 bytes from one site, freed; then 600 and 700 from another, live together: the window's
/// peak is 1300 bytes (not 1000, nor the 2300 of each site's own maximum added up).
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT)))]
#[bench::peaks(args = (1000, 600, 700))]
fn two_sites(first: usize, second: usize, third: usize) -> usize {
    let first = first_site(first);
    let mut sum = black_box(&first).len();
    drop(first);
    let a = second_site(second);
    let b = second_site(third);
    sum += black_box(&a).len() + black_box(&b).len();
    sum
}

library_benchmark_group!(
    name = peak;
    benchmarks = one_kib_after_kept_setup, one_kib_after_freed_setup, two_sites
);

main!(library_benchmark_groups = peak);
