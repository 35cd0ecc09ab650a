//! A small program to measure as a binary benchmark: start-up, then `work`, then output.

use std::hint::black_box;

#[inline(never)]
fn work(n: u64) -> u64 {
    (0..n).fold(0, |acc, i| black_box(acc ^ i.wrapping_mul(2654435761)))
}

/// Allocates `kib` KiB, for DHAT's totals.
#[inline(never)]
fn allocate(kib: usize) -> usize {
    black_box(vec![1u8; kib * 1024]).len()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let kib = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    println!("{} {}", work(n), allocate(kib));
}
