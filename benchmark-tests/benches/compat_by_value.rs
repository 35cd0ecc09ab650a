// Arguments taken by value reach the body without a copy inside the window (issue 34): a u64, a
// struct of four words and one of 64 bytes, each read once.

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

/// Four words.
#[derive(Clone, Copy)]
pub struct Four {
    /// Read by the benchmark.
    pub a: u64,
    /// Carried.
    pub b: u64,
    /// Carried.
    pub c: u64,
    /// Carried.
    pub d: u64,
}

/// 64 bytes.
#[derive(Clone, Copy)]
pub struct Wide {
    /// Read by the benchmark.
    pub first: u64,
    /// Carried.
    pub rest: [u64; 7],
}

fn four() -> Four {
    Four {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    }
}

fn wide() -> Wide {
    Wide {
        first: 1,
        rest: [2; 7],
    }
}

#[library_benchmark]
#[bench::one(1)]
fn word(x: u64) -> u64 {
    black_box(x)
}

#[library_benchmark]
#[bench::one(four())]
fn four_words(x: Four) -> u64 {
    black_box(x.a)
}

#[library_benchmark]
#[bench::one(wide())]
fn sixty_four_bytes(x: Wide) -> u64 {
    black_box(x.first)
}

#[library_benchmark]
#[bench::one(1)]
fn word_ref(x: u64) -> u64 {
    *black_box(&x)
}

#[library_benchmark]
#[bench::one(four())]
fn four_words_ref(x: Four) -> u64 {
    black_box(&x).a
}

#[library_benchmark]
#[bench::one(wide())]
fn sixty_four_bytes_ref(x: Wide) -> u64 {
    black_box(&x).first
}

library_benchmark_group!(
    name = by_value;
    benchmarks = word, four_words, sixty_four_bytes, word_ref, four_words_ref, sixty_four_bytes_ref
);

main!(library_benchmark_groups = by_value);
