// 41 trivial benchmarks, for the marginal cost of one more benchmark (`scripts/speed.py`).
use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

#[library_benchmark]
#[benches::n(
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40
)]
fn add_one(x: u64) -> u64 {
    black_box(x + 1)
}

library_benchmark_group!(name = trivial; benchmarks = add_one);

main!(library_benchmark_groups = trivial);
