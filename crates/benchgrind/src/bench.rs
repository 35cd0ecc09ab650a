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
///   `file` makes one benchmark per line of a file (a `String`), relative to the workspace root;
/// - `#[benches::id(iter = expr)]`: one benchmark per item of any `IntoIterator` (ids `id_0`,
///   `id_1`, ...), evaluated when the benchmarks are planned and again in each benchmark, which
///   takes its item there (so it must give the same items every time); the item is the setup's
///   argument, else the function's (a tuple of them for several parameters);
/// - `consts = (c1, c2)` in `#[bench]`, `consts = [c, ...]` or `[(c1, c2), ...]` in
///   `#[benches]`: the values of the function's const generic parameters, in declaration order
///   (one instantiation per element; beside `args`, as many elements as arguments or one of
///   either for all).
///
/// Misuse (an unknown key, a wrong number of arguments, a duplicate id) is a compile error.
///
/// The function may be generic (type, lifetime and const parameters): each bench instantiates
/// it with its arguments' types.
///
/// ```rust
/// # mod bench {
/// use benchgrind::library_benchmark;
///
/// #[library_benchmark]
/// #[bench::bytes(vec![1u8, 2])]
/// #[bench::words(vec![1u64, 2])]
/// fn sum<T: Copy + Into<u64>>(values: Vec<T>) -> u64 {
///     values.iter().map(|&v| v.into()).sum()
/// }
/// # }
/// # fn main() {}
/// ```
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
/// benches with the same id across the group's functions), `max_parallel` (a `usize`: at most
/// that many of the group's benchmarks run at once with several workers, `--jobs`; 0 is no
/// limit), `setup` and `teardown` (expressions run once before and after the group's
/// benchmarks, not measured) and `benchmarks` (required: the `#[library_benchmark]` functions,
/// `[first, second]` or `first, second`).
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
/// `main!(config = LibraryBenchmarkConfig::default(); library_benchmark_groups = a, b)` (the
/// groups also as `[a, b]`, the keys also separated by `,`), or with
/// `binary_benchmark_groups` and a [`BinaryBenchmarkConfig`]; the two kinds need separate bench
/// files. `setup = ...;` and `teardown = ...;` (a function, called, or an expression, evaluated)
/// run once before and after all benchmarks, not measured. Run the binary with `cargo bench`;
/// `cargo bench -- --help` lists the options.
///
/// Iai's form, `main!(bench_a, bench_b)` (or `main!(callgrind_args = "..."; functions = bench_a,
/// bench_b)`), measures plain functions without arguments; each is a benchmark named after it.
///
/// ```rust
/// # mod bench {
/// use benchgrind::{black_box, main};
///
/// #[inline(never)]
/// fn bench_sum() -> u64 {
///     (0..black_box(100u64)).sum()
/// }
///
/// main!(bench_sum);
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::main;

/// Turns a function that returns a [`Command`] into a binary benchmark.
///
/// The function builds the command (it is not measured); the attributes below it are those of
/// [`library_benchmark`], except that `setup` and `teardown` run just before and after the
/// command, in a process of their own: given as a path (`setup = create_file`) they receive the
/// bench's arguments, given as an expression (`setup = create_file()`) they are evaluated as
/// written. Teardown runs only when the command exited as expected. `#[benches::id(iter = ...)]`
/// makes a bench per item when the benchmarks are registered; its `setup` and `teardown` must
/// then be expressions (a hook cannot be given the item).
///
/// ```rust
/// # mod bench {
/// use benchgrind::{binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Sandbox};
///
/// fn create_file(path: &str) {
///     std::fs::write(path, "3\n1\n2\n").unwrap();
/// }
///
/// #[binary_benchmark]
/// #[bench::numbers(
///     args = ("numbers.txt"),
///     config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)),
///     setup = create_file
/// )]
/// fn sort(path: &str) -> benchgrind::Command {
///     benchgrind::Command::new("/usr/bin/sort").arg("-n").arg(path).build()
/// }
///
/// binary_benchmark_group!(name = sorting; benchmarks = sort);
/// main!(binary_benchmark_groups = sorting);
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::binary_benchmark;

/// Declares a group of binary benchmarks for [`main!`]: the keys of
/// [`library_benchmark_group!`], where `benchmarks` also takes a closure receiving a
/// [`BinaryBenchmarkGroup`] (the low-level API).
///
/// iai-callgrind 0.9 to 0.12's form is accepted too: `name = ...; before = f; after = f;
/// setup = f; teardown = f; config = ...; benchmark = |"my-exe", group: &mut
/// BinaryBenchmarkGroup| ...`, filling the group with [`Run`]s. Its commands run in a sandbox
/// (unless `group.sandbox(false)`), `setup`/`teardown` around every command, `before`/`after`
/// once around the group, and `"my-exe"` is the package's binary of that name.
///
/// ```rust
/// # mod bench {
/// use benchgrind::{binary_benchmark_group, Arg, Run};
///
/// binary_benchmark_group!(
///     name = true_group;
///     benchmark = |group: &mut BinaryBenchmarkGroup| {
///         group.bench(Run::with_cmd("/bin/true", Arg::empty("no_args")));
///     }
/// );
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::binary_benchmark_group;

/// The [`BinaryBenchmark`] of a `#[binary_benchmark]` function, to add it to a group of the
/// low-level API.
///
/// ```rust
/// # mod bench {
/// use benchgrind::{binary_benchmark, binary_benchmark_attribute, binary_benchmark_group};
///
/// #[binary_benchmark]
/// fn bench_true() -> benchgrind::Command {
///     benchgrind::Command::new("/bin/true").build()
/// }
///
/// binary_benchmark_group!(
///     name = my_group;
///     benchmarks = |group: &mut BinaryBenchmarkGroup| {
///         group.binary_benchmark(binary_benchmark_attribute!(bench_true));
///     }
/// );
/// # }
/// # fn main() {}
/// ```
pub use benchgrind_macros::binary_benchmark_attribute;

/// iai-callgrind 0.10's binary benchmarks, for `binary_benchmark_group!(benchmark = |...| ...)`.
pub use benchgrind_runner::config::{Arg, Fixtures, Options, Run};
pub use benchgrind_runner::config::{
    Bench, BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Command, ExitWith, Pipe,
    Sandbox, Stdin, Stdio,
};
/// iai-callgrind 0.13/0.14 names: [`BenchmarkId`] for ids of the low-level API, [`EntryPoint`]
/// and [`OutputFormat`] for configs.
pub use benchgrind_runner::config::{BenchmarkId, EntryPoint, OutputFormat};
/// What a binary benchmark's command waits for before it starts ([`Command::delay`]).
pub use benchgrind_runner::config::{Delay, DelayKind};
/// Deterministic random bytes: on by default in library benchmarks
/// ([`LibraryBenchmarkConfig::deterministic_random`]), and
/// [`enable_from_env`](random::enable_from_env) for programs measured as binary benchmarks.
pub use benchgrind_runner::random;

pub use benchgrind_runner::{
    Direction, EventKind, FlamegraphConfig, FlamegraphKind, LibraryBenchmarkConfig,
    RegressionConfig, Tool, ToolMetric, ValgrindTool,
};

/// Tools configured as values, their metrics and limits (iai-callgrind 0.15+ and gungraun):
/// `.tool(Callgrind::with_args([...]).soft_limits([(EventKind::Ir, 5.0)]))`.
pub use benchgrind_runner::config::{
    Bbv, Cachegrind, CachegrindMetric, CachegrindMetrics, Callgrind, CallgrindMetrics, Dhat,
    DhatMetric, DhatMetrics, Drd, ErrorMetric, Helgrind, Limit, Massif, Memcheck, SanitizeOutput,
};

/// The macros and configuration types most benchmarks use, for `use benchgrind::prelude::*`
/// (gungraun 0.18+).
pub mod prelude {
    #[doc(no_inline)]
    pub use super::{
        binary_benchmark, binary_benchmark_group, library_benchmark, library_benchmark_group, main,
        BinaryBenchmarkConfig, Command, LibraryBenchmarkConfig,
    };
}

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use benchgrind_runner::__private::*;
}
