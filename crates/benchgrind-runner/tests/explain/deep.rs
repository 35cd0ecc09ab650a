// explain fixture: `rustc -O -g deep.rs` and `rustc -O -g --cfg extra deep.rs` differ only in
// helper::<u32>, two calls below work(): main -> work -> step -> helper.
use std::hint::black_box;

#[inline(never)]
fn helper<T: Copy + Into<u64>>(x: T) -> u64 {
    let mut acc: u64 = x.into();
    for i in 0..100u64 {
        acc = black_box(acc.wrapping_mul(31).wrapping_add(i));
    }
    #[cfg(extra)]
    for i in 0..50u64 {
        acc = black_box(acc ^ (acc >> 3) ^ i);
    }
    acc
}

#[inline(never)]
fn step(x: u32) -> u64 {
    helper::<u32>(x) + 1
}

#[inline(never)]
fn work(n: u32) -> u64 {
    (0..n).map(step).fold(0, u64::wrapping_add)
}

fn main() {
    black_box(work(black_box(1000)));
}
