//! What the macros' generated code names (`::benchgrind::__private::...`), re-exported as
//! [`crate::__private`]: the registration types, the harness entry points, and the helpers
//! that build the low-level API's values from attribute forms. Not a stable API; users never
//! name it.

pub use std::hint::black_box;

pub use crate::config::{
    Arg, Bench, BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Command, Fixtures,
    Hook, LibraryBenchmarkConfig, Run,
};
pub use crate::harness::run;
pub use crate::measured::window::{armed, measure, window};
pub use crate::measured::{iter_item, iter_item_missing, measured_process};
pub use crate::spec::{BinaryGroup, Function, Group, HookKind, LibBench, Main, MeasuredHook};

/// What binary groups' generated code imports with a glob (`use ...::group_type::*;`), so that
/// a file's own import of the same name wins and counts as used.
pub mod group_type {
    pub use crate::config::BinaryBenchmarkGroup;
}

/// A bench without id, for a `#[binary_benchmark]` function without `#[bench]`.
pub fn bench_without_id() -> Bench {
    Bench {
        id: None,
        ..Bench::new("")
    }
}

/// A bench of a `#[binary_benchmark]` function with its `#[bench]` arguments as written, for the
/// header (`id:("arg") -> target/release/exe arg`).
pub fn bench_with_args_display(mut bench: Bench, args: &str) -> Bench {
    bench.args_display = Some(args.to_owned());
    bench
}

/// What an iai-callgrind 0.9/0.10 group (`binary_benchmark_group!(benchmark = |"my-exe", group|
/// ...)`) or the all-in-`main!` form gives besides its closure.
pub struct LegacyGroup {
    /// The group's command: `CARGO_BIN_EXE_<name>` when the package has that binary, else the
    /// name as written.
    pub cmd: Option<&'static str>,
    /// Runs before every command.
    pub setup: Option<Hook>,
    /// Runs after every command.
    pub teardown: Option<Hook>,
}

/// The benchmarks of an iai-callgrind 0.9/0.10 group: those its closure adds with
/// `binary_benchmark`, then one nameless benchmark with a bench per `Arg` of its `Run`s.
pub fn legacy_benchmarks<F>(legacy: LegacyGroup, f: F) -> Vec<BinaryBenchmark>
where
    F: FnOnce(&mut BinaryBenchmarkGroup),
{
    let mut group = BinaryBenchmarkGroup::default();
    f(&mut group);
    group.into_benchmarks(legacy.cmd, legacy.setup, legacy.teardown)
}

/// The benchmarks a `binary_benchmark_group!` closure adds (the macro drops whatever its body
/// ends in).
pub fn benchmarks_from_statements<F>(f: F) -> Vec<BinaryBenchmark>
where
    F: FnOnce(&mut BinaryBenchmarkGroup),
{
    let mut group = BinaryBenchmarkGroup::default();
    f(&mut group);
    group.benchmarks
}
