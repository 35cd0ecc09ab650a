//! A user's library benchmarks, as the README shows them.

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

#[library_benchmark]
#[bench::short(10)]
#[bench::long(30)]
fn bench_fibonacci(n: u64) -> u64 {
    black_box(benchgrind_user_package::fibonacci(n))
}

library_benchmark_group!(name = library; benchmarks = bench_fibonacci);

main!(library_benchmark_groups = library);
