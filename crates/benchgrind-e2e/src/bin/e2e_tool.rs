//! A small program to measure as a binary benchmark: start-up, then `work`, then output.

use std::hint::black_box;

#[inline(never)]
fn work(n: u64) -> u64 {
    (0..n).fold(0, |acc, i| black_box(acc ^ i.wrapping_mul(2654435761)))
}

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    println!("{}", work(n));
}
