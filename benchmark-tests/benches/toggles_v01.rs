//! A user's `--toggle-collect` in the plain-function form of iai 0.1 to iai-callgrind 0.8
//! (`main!(callgrind_args = ...; functions = ...)`, the argument without its dashes as
//! lambdaworks-math writes it): the benchmarks are counted, and the function the pattern names
//! is left out where a benchmark calls it. `tests/compat.rs` compares the counts with those of
//! the same bodies without the option (`toggles_v01_none`).

use benchgrind::{black_box, main};

fn work() -> u64 {
    (0..black_box(100u64)).map(|x| x * x).sum()
}

#[inline(never)]
fn helper_square_sum(n: u64) -> u64 {
    (0..black_box(n)).map(|x| x * x + 1).sum()
}

#[inline(never)]
fn plain() -> u64 {
    work()
}

#[inline(never)]
fn calls_helper() -> u64 {
    work() + helper_square_sum(black_box(50))
}

main!(
    callgrind_args = "toggle-collect=*helper_square_sum*";
    functions = plain, calls_helper
);
