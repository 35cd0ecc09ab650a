//! iai-callgrind 0.2 to 0.8's spelling of the plain-function form:
//! `main!(callgrind_args = ...; functions = ...)`. Each function is one benchmark named after it;
//! the Callgrind arguments apply to all of them.

use benchgrind::{black_box, main};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

#[inline(never)]
fn bench_fibonacci_short() -> u64 {
    fibonacci(black_box(10))
}

#[inline(never)]
fn bench_empty() {}

main!(
    callgrind_args = "--branch-sim=yes";
    functions = bench_fibonacci_short, bench_empty
);
