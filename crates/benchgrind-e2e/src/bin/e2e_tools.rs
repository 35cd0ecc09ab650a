//! A bench program for the other Valgrind tools and flamegraphs: a benchmark allocating 1 MiB
//! with 10 MiB allocated in its setup (DHAT, Massif), one reading uninitialised memory
//! (Memcheck), a clean one, and the seed's fibonacci with a second function whose amount of
//! work comes from `E2E_EXTRA` (read in setup), so a test can change it without rebuilding.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, FlamegraphConfig, LibraryBenchmarkConfig,
    Tool, ValgrindTool,
};
use std::hint::black_box;
use std::mem::MaybeUninit;

fn make_bytes(len: usize) -> Vec<u8> {
    vec![7u8; black_box(len)]
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT))
    .tool(Tool::new(ValgrindTool::Massif)))]
#[bench::one_mib(args = (10 << 20), setup = make_bytes)]
fn alloc_one_mib(big: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    let small = vec![1u8; black_box(1 << 20)];
    (big, small)
}

#[inline(never)]
fn fill_and_drop(len: usize) {
    black_box(vec![9u8; black_box(len)]);
}

/// Its one call would be a tail call (a jump) in a plain function; the measured window inside
/// the benchmark function keeps it a call, so DHAT sees the allocation under its frame.
#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT)))]
#[bench::four_kib(4096)]
fn alloc_in_tail_call(len: usize) {
    fill_and_drop(len)
}

static TABLE: [u64; 8] = [3, 1, 4, 1, 5, 9, 2, 6];

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::Memcheck)))]
#[bench::eight_words(8)]
#[bench::tolerated(args = (8), config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::Memcheck).args(["--error-exitcode=0"])))]
fn read_uninit(len: usize) -> u64 {
    let v: Vec<MaybeUninit<u64>> = Vec::with_capacity(len);
    // SAFETY: deliberately not: the words were never written; Memcheck is meant to see the read.
    let word = unsafe { std::ptr::read_volatile(v.as_ptr().cast::<u64>().add(len / 2)) };
    // An undefined value as an address: Memcheck reports every such use, whatever the compiler
    // makes of a comparison (a conditional move would go unreported).
    TABLE[black_box(word) as usize % TABLE.len()]
}

#[library_benchmark(config = LibraryBenchmarkConfig::default().tools([
    Tool::new(ValgrindTool::Memcheck),
    Tool::new(ValgrindTool::Helgrind),
    Tool::new(ValgrindTool::DRD),
]))]
#[bench::sum(1000)]
fn clean(n: u64) -> u64 {
    let v: Vec<u64> = (0..black_box(n)).collect();
    v.iter().sum()
}

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

#[inline(never)]
fn extra_work(n: u64) -> u64 {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(31) ^ i);
    }
    x
}

fn extra_from_env(n: u64) -> (u64, u64) {
    let extra = std::env::var("E2E_EXTRA")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(100);
    (n, extra)
}

#[library_benchmark]
#[bench::short(10)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

#[library_benchmark(setup = extra_from_env)]
#[bench::with_extra(15)]
fn fibonacci_and_extra(input: (u64, u64)) -> u64 {
    black_box(fibonacci(input.0)) ^ extra_work(input.1)
}

library_benchmark_group!(
    name = memory;
    benchmarks = alloc_one_mib, alloc_in_tail_call, read_uninit, clean
);

library_benchmark_group!(
    name = flame;
    // The default config draws the regular graph, and the differential one once there is a
    // run before.
    config = LibraryBenchmarkConfig::default()
        .flamegraph(FlamegraphConfig::default())
        .pass_through_env("E2E_EXTRA");
    benchmarks = bench_fibonacci, fibonacci_and_extra
);

main!(library_benchmark_groups = memory, flame);
