//! What the programs share: the workload whose cost Callgrind must find, and the output format.

use std::hint::black_box;

/// Iterations of [`work`] inside the measured region.
pub const REGION: u64 = 10_000;
/// Iterations of [`work`] outside it: ten times the region, so leaking it would show.
pub const OUTSIDE: u64 = 100_000;

/// A loop the optimizer cannot fold. Not inlined and not mangled, so the reference run can name
/// it in `--toggle-collect=creq_work`.
#[inline(never)]
#[no_mangle]
pub extern "C" fn creq_work(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..black_box(n) {
        acc = black_box(acc.wrapping_mul(31).wrapping_add(i));
    }
    acc
}

/// One `key=value` line on stdout, what the test reads.
pub fn report(key: &str, value: impl std::fmt::Display) {
    println!("{key}={value}");
}
