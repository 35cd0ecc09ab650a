//! The benchmark API: the macros, the configuration types and what their generated code calls.
//! Behind the default `runner` feature, so that production code depending on benchgrind for its
//! client requests alone pulls in neither the macros nor the runner.

/// Marks a function as a library benchmark.
///
/// Below it, each `#[bench::id(args)]` makes one benchmark and each `#[benches::id(a, b, ...)]`
/// one per element (ids `id_0`, `id_1`, ...). Parameters of the attributes:
///
/// - `#[library_benchmark(config = ..., setup = ..., teardown = ...)]`: defaults for every bench
///   of the function;
/// - `#[bench::id(args = (a, b), config = ..., setup = ..., teardown = ...)]`, or the short form
///   `#[bench::id(a, b)]`; `setup` receives the arguments and its result is the function's one
///   argument; `teardown` receives the function's result;
/// - `#[benches::id(args = [a, b], setup = ..., teardown = ..., config = ..., file = "path")]`:
///   `file` makes one benchmark per line of a file (a `String`), relative to the workspace root.
///
/// Misuse (an unknown key, a wrong number of arguments, a duplicate id) is a compile error.
///
/// ```rust
/// # mod bench {
/// use benchgrind::{library_benchmark, LibraryBenchmarkConfig};
/// use std::hint::black_box;
///
/// fn setup_worst_case(len: u32) -> Vec<u32> {
///     (0..len).rev().collect()
/// }
///
/// #[library_benchmark(config = LibraryBenchmarkConfig::default().env_clear(true))]
/// #[bench::empty(Vec::new())]
/// #[bench::small(args = (vec![3, 1, 2]), teardown = drop)]
/// #[benches::worst(args = [10, 100], setup = setup_worst_case)]
/// fn sort(mut input: Vec<u32>) -> Vec<u32> {
///     input.sort();
///     black_box(input)
/// }
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::library_benchmark;

/// Declares a group of library benchmarks for [`main!`].
///
/// Keys, separated by `;` (or `,`): `name` (required), `config`, `compare_by_id` (compare
/// benches with the same id across the group's functions), `setup` and `teardown` (expressions
/// run once before and after the group's benchmarks, not measured) and `benchmarks` (required:
/// the `#[library_benchmark]` functions, separated by `,`).
///
/// ```rust
/// # mod bench {
/// use benchgrind::{library_benchmark, library_benchmark_group, LibraryBenchmarkConfig};
///
/// #[library_benchmark]
/// #[bench::one(1)]
/// fn first(x: u64) -> u64 { x + 1 }
///
/// #[library_benchmark]
/// #[bench::one(1)]
/// fn second(x: u64) -> u64 { x * 3 }
///
/// library_benchmark_group!(
///     name = my_group;
///     config = LibraryBenchmarkConfig::default();
///     compare_by_id = true;
///     setup = println!("before the group");
///     benchmarks = first, second
/// );
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::library_benchmark_group;

/// Generates the bench binary's `main` from groups and an optional top-level config.
///
/// `main!(config = LibraryBenchmarkConfig::default(); library_benchmark_groups = a, b)`. Run the
/// binary with `cargo bench`; `cargo bench -- --help` lists the options.
pub use benchgrind_macros::main;

pub use benchgrind_runner::{
    Direction, EventKind, FlamegraphConfig, FlamegraphKind, LibraryBenchmarkConfig,
    RegressionConfig, Tool, ToolMetric, ValgrindTool,
};

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use benchgrind_runner::__private::*;
}
