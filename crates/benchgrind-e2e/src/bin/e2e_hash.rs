//! A program linked with benchgrind that is not a benchmark: prints the hash of one value under
//! a fresh `RandomState`, then fills a `HashMap<u64, u64>` of 1,000 entries in `work` (a symbol
//! for `valgrind --toggle-collect`). It opts in to deterministic random bytes the way a program
//! measured as a binary benchmark would: `BENCHGRIND_RANDOM_SEED` in its environment.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::hint::black_box;

#[no_mangle]
#[inline(never)]
pub extern "C" fn work() -> usize {
    let mut map = HashMap::new();
    for i in 0..1000u64 {
        map.insert(black_box(i.wrapping_mul(0x9e37_79b9)), i);
    }
    map.len()
}

fn main() {
    let seed = benchgrind::random::enable_from_env();
    println!("hash {}", RandomState::new().hash_one(12345u64));
    println!("entries {}", black_box(work()));
    println!("seed {seed:?}");
}
