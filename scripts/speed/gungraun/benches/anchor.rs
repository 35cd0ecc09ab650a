// The library half of the anchor suite, for gungraun 0.20: the same benchmarks as
// examples/benches/anchor.rs, in one group (gungraun runs only a group's benchmarks in parallel).
use gungraun::{library_benchmark, library_benchmark_group, main};
use anchor_gungraun::{bubble_sort, count_substring, fibonacci};
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

fn haystack(needle: &'static str) -> (String, &'static str) {
    let words = ["lorem", "ipsum", "dolor", "sit", "amet", "needle", "hay", "stack"];
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
