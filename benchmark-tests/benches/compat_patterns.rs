// By-value arguments destructured in the parameter list, with parts no name binds (issue 34):
// those parts are dropped at the end of the body, inside the window, as a named part is.

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

fn input() -> (u64, Vec<u8>) {
    (7, vec![1, 2, 3])
}

/// A struct with a heap part, for the `..` form.
pub struct Pair {
    /// Read by the benchmark.
    pub number: u64,
    /// Only dropped.
    pub bytes: Vec<u8>,
}

fn pair() -> Pair {
    Pair {
        number: 7,
        bytes: vec![1, 2, 3],
    }
}

#[library_benchmark]
#[bench::one(input())]
fn wild((a, _): (u64, Vec<u8>)) -> u64 {
    black_box(a)
}

#[library_benchmark]
#[bench::one(input())]
fn named((a, _v): (u64, Vec<u8>)) -> u64 {
    black_box(a)
}

#[library_benchmark]
#[bench::one(pair())]
fn rest(Pair { number, .. }: Pair) -> u64 {
    black_box(number)
}

#[library_benchmark]
#[bench::one(pair())]
fn all_named(
    Pair {
        number,
        bytes: _bytes,
    }: Pair,
) -> u64 {
    black_box(number)
}

library_benchmark_group!(name = patterns; benchmarks = wild, named, rest, all_named);

main!(library_benchmark_groups = patterns);
