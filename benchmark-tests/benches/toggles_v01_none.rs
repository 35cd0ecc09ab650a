//! `toggles_v01`'s benchmarks without its `--toggle-collect`: what `tests/compat.rs` compares
//! its counts with.

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

main!(plain, calls_helper);
