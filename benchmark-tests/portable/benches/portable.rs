//! Library benchmarks of real crates' hot paths, threads, random numbers and a DHAT run, in the
//! 0.13 API. Built for `x86_64-unknown-linux-musl` they count the same on every Linux userland.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Tool, ValgrindTool,
};
use benchgrind_portable::*;
use std::hint::black_box;

fn log() -> String {
    log_text(400)
}

fn json() -> String {
    json_text(300)
}

fn compiled() -> (regex::Regex, String) {
    (regex::Regex::new(ADDRESS).unwrap(), log_text(200))
}

#[library_benchmark]
#[bench::memmem_count(setup = log)]
fn memmem_count(text: String) -> usize {
    black_box(count_matches(black_box(&text), "ERROR"))
}

#[library_benchmark]
#[bench::json_parse(setup = json)]
fn json_parse(text: String) -> u64 {
    black_box(sum_ids(black_box(&text)))
}

#[library_benchmark]
#[bench::regex_find(setup = compiled)]
fn regex_find((re, text): (regex::Regex, String)) -> u64 {
    black_box(sum_addresses(&re, black_box(&text)))
}

#[library_benchmark]
fn regex_compile() -> regex::Regex {
    black_box(regex::Regex::new(black_box(ADDRESS)).unwrap())
}

#[library_benchmark]
#[bench::two(2)]
fn threads(count: u64) -> u64 {
    black_box(threaded_sum(black_box(20_000), count))
}

#[library_benchmark]
#[bench::words(500)]
fn random_keys(n: usize) -> u64 {
    black_box(hash_order(black_box(n)))
}

#[library_benchmark]
#[bench::keys(64)]
fn clock_seeded(n: usize) -> usize {
    black_box(foldhash_keys(black_box(n)))
}

#[library_benchmark]
fn wall_clock() -> u128 {
    black_box(stamp())
}

#[library_benchmark(config = LibraryBenchmarkConfig::default()
    .tool(Tool::new(ValgrindTool::DHAT)))]
#[bench::vectors(64)]
fn heap(n: usize) -> usize {
    black_box(allocations(black_box(n)))
}

library_benchmark_group!(
    name = crates;
    benchmarks = memmem_count, json_parse, regex_find, regex_compile
);
library_benchmark_group!(name = runtime; benchmarks = threads, random_keys, clock_seeded, wall_clock, heap);

main!(library_benchmark_groups = crates, runtime);
