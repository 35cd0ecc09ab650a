//! Benchmark functions of a crate still on edition 2018, where closures capture whole variables:
//! the window's closure must still let a body return a borrow of a `&mut` parameter. And return
//! types mixing `impl Trait` with types the body coerces to. Package `benchgrind-compat-2018`
//! (edition 2018), run by `benchmark-tests/tests/compat.rs`.

use std::fmt::Debug;
use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
#[bench::first(&mut vec![5u8, 6])]
fn borrows_from_mut(bytes: &mut Vec<u8>) -> &mut u8 {
    bytes.push(7);
    &mut bytes[0]
}

#[library_benchmark]
#[bench::both(&mut 1u8, &mut 2u8)]
fn two_mut<'a>(mut left: &'a mut u8, right: &'a mut u8) -> (&'a mut u8, &'a mut u8) {
    if *left > *right {
        left = black_box(left);
    }
    (left, right)
}

#[library_benchmark]
fn impl_and_coercion() -> (impl Debug, Box<dyn Debug>) {
    (1u8, Box::new(2u16))
}

#[library_benchmark]
#[bench::number("42")]
fn boxed_error(text: &str) -> Result<impl Debug, Box<dyn std::error::Error>> {
    let n: u32 = text.parse()?;
    Ok(n)
}

library_benchmark_group!(
    name = edition2018;
    benchmarks = borrows_from_mut, two_mut, impl_and_coercion, boxed_error
);

main!(library_benchmark_groups = edition2018);
