//! Benchmark function bodies of every shape real code has, which the measured window (opened
//! inside the function, around its body) must leave meaning what they meant: early `return`,
//! `?`, `impl Trait` in both positions, references returned from arguments, `mut` arguments,
//! arguments the body consumes, a `const fn`, recursion into itself, bodies written on one line.
//! No lint may fire on what the macro adds: warnings are errors here (so the compat test's build
//! fails on one), and the workspace's `clippy -D warnings` builds it too. Run by the test
//! `compat`.

#![deny(warnings)]

use std::hint::black_box;
use std::num::ParseIntError;

use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
#[bench::small(2)]
#[bench::large(7)]
fn early_return(x: u64) -> Option<u64> {
    if x > 3 {
        return None;
    }
    Some(x * 2)
}

#[library_benchmark]
#[bench::number("1234")]
#[bench::not_a_number("12x")]
fn question_mark(text: &str) -> Result<u64, ParseIntError> {
    let n: u64 = text.parse()?;
    Ok(n + 1)
}

#[library_benchmark]
#[bench::words("a few words here")]
fn returns_impl(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.split(' ')
}

#[library_benchmark]
#[bench::range(0..100u32)]
fn takes_impl(numbers: impl Iterator<Item = u32>) -> u32 {
    numbers.sum()
}

#[library_benchmark]
#[bench::tail(&String::from("abcdef"))]
fn returns_borrow(text: &str) -> &str {
    &text[2..]
}

#[library_benchmark]
#[bench::explicit("abc")]
fn returns_lifetime<'a>(text: &'a str) -> &'a str {
    text.trim_start_matches('a')
}

#[library_benchmark]
#[bench::pushes(vec![1u8, 2, 3])]
fn mut_argument(mut bytes: Vec<u8>) -> usize {
    bytes.push(4);
    bytes.len()
}

/// The body consumes its argument: the drop is the function's work and is counted.
#[library_benchmark]
#[bench::dropped(vec![0u8; 64])]
fn consumes(bytes: Vec<u8>) {
    drop(black_box(bytes));
}

#[library_benchmark]
#[bench::ten(10)]
const fn const_body(n: u64) -> u64 {
    n * 3
}

/// Calls itself: only the outermost call opens the window.
#[library_benchmark]
#[bench::five(5)]
fn recursive(n: u64) -> u64 {
    if n == 0 {
        return 1;
    }
    n * recursive(black_box(n - 1))
}

#[library_benchmark]
fn unit_body() {
    black_box(());
}

// One line each, as people write small benchmarks (rustfmt would spread them out).
#[rustfmt::skip]
#[library_benchmark]
#[bench::text("abc")]
fn one_line(s: &str) -> usize { black_box(s.len()) }

#[rustfmt::skip]
#[library_benchmark]
#[bench::seven(7)]
fn one_line_unit(x: u64) { black_box(x); }

#[rustfmt::skip]
#[library_benchmark]
#[bench::pair(2, 3)]
fn one_line_tail(a: u64, b: u64) -> u64 { a + b }

library_benchmark_group!(
    name = bodies;
    benchmarks = early_return, question_mark, returns_impl, takes_impl, returns_borrow,
        returns_lifetime, mut_argument, consumes, const_body, recursive, unit_body, one_line,
        one_line_unit, one_line_tail
);

main!(library_benchmark_groups = bodies);
