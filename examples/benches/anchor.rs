// The library half of the anchor suite that `scripts/speed.py` measures: fibonacci 10 and 30,
// bubble sorts of 100 to 2000 elements, substring counts in a 1 MiB haystack (14 benchmarks).
// `scripts/speed/gungraun/benches/anchor.rs` is the same suite for gungraun.
use benchgrind::{library_benchmark, library_benchmark_group, main};
use benchgrind_examples::{bubble_sort, count_substring, fibonacci};
use std::hint::black_box;

#[library_benchmark]
#[bench::ten(10)]
#[bench::thirty(30)]
fn fib(n: u64) -> u64 {
    black_box(fibonacci(n))
}

fn reversed(len: i32) -> Vec<i32> {
    (0..len).rev().collect()
}

fn sorted(len: i32) -> Vec<i32> {
    (0..len).collect()
}

#[library_benchmark]
#[benches::worst(args = [100, 200, 500, 1000, 2000], setup = reversed)]
#[benches::best(args = [100, 1000, 2000], setup = sorted)]
fn sort(input: Vec<i32>) -> Vec<i32> {
    black_box(bubble_sort(input))
}

/// 1 MiB of text with some structure, the same on every run.
fn haystack(needle: &'static str) -> (String, &'static str) {
    let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "needle", "hay", "stack",
    ];
    let mut text = String::with_capacity(1 << 20);
    let mut i = 0usize;
    while text.len() < 1 << 20 {
        text.push_str(words[(i * 7 + i / 3) % words.len()]);
        text.push(' ');
        i += 1;
    }
    text.truncate(1 << 20);
    (text, needle)
}

#[library_benchmark]
#[benches::mib(args = ["needle", "ipsum dolor", "zzz", "a"], setup = haystack)]
fn substrings(input: (String, &'static str)) -> usize {
    black_box(count_substring(&input.0, input.1))
}

library_benchmark_group!(name = anchor; benchmarks = fib, sort, substrings);

main!(library_benchmark_groups = anchor);
