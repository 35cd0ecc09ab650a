//! `e2e_random` rebuilt with unrelated code added: a group setup that sorts and formats strings
//! (it runs in the harness, never in the measured process) moves every function and constant of
//! the shared benchmarks in the binary. The set of benchmarks is the same, so the benchmark
//! process starts in the same state; the shared benchmarks must count exactly as in
//! `e2e_random`.

#[path = "../random_benches.rs"]
mod random_benches;

use benchgrind::{library_benchmark_group, main};
use std::hint::black_box;

/// Unrelated code, linked into the binary but not run by any benchmark.
#[inline(never)]
fn unrelated(words: usize) {
    let mut words: Vec<String> = random_benches::generated_text(black_box(words))
        .split(' ')
        .map(|w| format!("unrelated code, moved in the binary: {w}"))
        .collect();
    words.sort();
    black_box(words);
}

library_benchmark_group!(
    name = random_group;
    setup = unrelated(200);
    benchmarks = random_benches::hashmap_fill, random_benches::regex_find_iter
);

main!(library_benchmark_groups = random_group);
