// A bench file written for gungraun by a crate that turns `unused_qualifications` on: gungraun's
// `#[library_benchmark]` raises it, so the file expects it, for the whole file and for one module
// (issue 34). An expectation the expansion does not meet is a warning of its own
// (`unfulfilled_lint_expectations`), denied here: the file builds only if every one is met.
#![warn(unused_qualifications)]
#![deny(unfulfilled_lint_expectations)]
#![expect(unused_qualifications)]

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

fn fibonacci(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fibonacci(n - 1) + fibonacci(n - 2)
    }
}

#[library_benchmark]
#[bench::ten(10)]
fn top_level(n: u64) -> u64 {
    black_box(fibonacci(n))
}

#[expect(unused_qualifications)]
mod inner {
    use super::*;

    #[library_benchmark]
    pub fn no_arguments() -> u64 {
        black_box(fibonacci(5))
    }

    library_benchmark_group!(name = inner_group; benchmarks = no_arguments);
}

library_benchmark_group!(name = expecting; benchmarks = top_level);

main!(library_benchmark_groups = expecting, inner::inner_group);
