//! What the macros' generated code names (`::benchgrind::__private::...`), re-exported as
//! [`crate::__private`]: the registration types, the harness entry points, and the helpers
//! that build the low-level API's values from attribute forms. Not a stable API; users never
//! name it.

pub use std::hint::black_box;

pub use crate::config::{
    Bench, BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Command,
    LibraryBenchmarkConfig,
};
pub use crate::harness::run;
pub use crate::measured::measured_process;
pub use crate::measured::window::measure;
pub use crate::spec::{BinaryGroup, Function, Group, LibBench, Main};

/// A bench without id, for a `#[binary_benchmark]` function without `#[bench]`.
pub fn bench_without_id() -> Bench {
    Bench {
        id: None,
        ..Bench::new("")
    }
}

/// The benchmarks a `binary_benchmark_group!` closure that returns the group adds
/// (`|group| group.binary_benchmark(..)`); the bound tells the compiler that the returned
/// reference is the one passed in.
pub fn benchmarks_from_chain<F>(f: F) -> Vec<BinaryBenchmark>
where
    F: for<'a> FnOnce(&'a mut BinaryBenchmarkGroup) -> &'a mut BinaryBenchmarkGroup,
{
    let mut group = BinaryBenchmarkGroup::default();
    f(&mut group);
    group.benchmarks
}

/// The benchmarks a `binary_benchmark_group!` closure that returns nothing adds.
pub fn benchmarks_from_statements<F>(f: F) -> Vec<BinaryBenchmark>
where
    F: FnOnce(&mut BinaryBenchmarkGroup),
{
    let mut group = BinaryBenchmarkGroup::default();
    f(&mut group);
    group.benchmarks
}
