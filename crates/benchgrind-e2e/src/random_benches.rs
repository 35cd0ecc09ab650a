//! Benchmarks whose code draws random numbers: a `HashMap` with std's `RandomState` and a regex
//! search (the lazy DFA keeps its states in such a map). Shared by `e2e_random` and
//! `e2e_random_variant`, so the same benchmark code is measured in two different binaries.

use benchgrind::{library_benchmark, LibraryBenchmarkConfig};
use std::collections::HashMap;
use std::hint::black_box;

/// Text of `words` words from a fixed linear congruential sequence: the same on every run.
pub fn generated_text(words: usize) -> String {
    let mut state: u32 = 12345;
    let mut text = String::new();
    for _ in 0..words {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let len = 2 + (state >> 16) as usize % 9;
        for _ in 0..len {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            text.push((b'a' + ((state >> 16) % 26) as u8) as char);
        }
        text.push(' ');
    }
    text
}

fn setup_search(words: usize) -> (regex::Regex, String) {
    let re = regex::Regex::new(r"\b[a-f][a-z]{2,5}(ing|ed|s)?\b").unwrap();
    (re, generated_text(words))
}

#[library_benchmark]
#[bench::fill(1000)]
#[bench::fill_random(args = (1000), config = LibraryBenchmarkConfig::default().deterministic_random(false))]
pub fn hashmap_fill(n: u64) -> HashMap<u64, u64> {
    let mut map = HashMap::new();
    for i in 0..n {
        map.insert(black_box(i.wrapping_mul(0x9e37_79b9)), i);
    }
    map
}

#[library_benchmark(setup = setup_search)]
#[bench::find(5000)]
#[bench::find_random(args = (5000), config = LibraryBenchmarkConfig::default().deterministic_random(false))]
pub fn regex_find_iter(input: (regex::Regex, String)) -> usize {
    let (re, text) = input;
    black_box(re.find_iter(&text).count())
}
