//! benchgrind: exact, repeatable benchmarks of Rust code under Valgrind.
//!
//! A benchmark runs once under Callgrind and reports instructions, cache hits per level and
//! estimated cycles. The counts do not depend on machine load, so a change of one instruction
//! is visible and the numbers match between a laptop and a shared CI runner. Every run is
//! compared with the previous one.
//!
//! Add `benchgrind` to `[dev-dependencies]`, a `[[bench]]` with `harness = false`, and run
//! `cargo bench`; Valgrind 3.16 or newer must be installed, nothing else.
//!
//! ```rust
//! # mod bench {
//! use benchgrind::{library_benchmark, library_benchmark_group, main};
//! use std::hint::black_box;
//!
//! fn fibonacci(n: u64) -> u64 {
//!     match n {
//!         0 | 1 => 1,
//!         n => fibonacci(n - 1) + fibonacci(n - 2),
//!     }
//! }
//!
//! #[library_benchmark]
//! #[bench::short(10)]
//! #[bench::long(30)]
//! fn bench_fibonacci(value: u64) -> u64 {
//!     black_box(fibonacci(value))
//! }
//!
//! library_benchmark_group!(name = bench_fibonacci_group; benchmarks = bench_fibonacci);
//! main!(library_benchmark_groups = bench_fibonacci_group);
//! # }
//! # fn main() {}
//! ```
//!
//! Only the call of the benchmark function is measured: arguments, `setup` and `teardown` run
//! before and after the measured window, uninstrumented, and every body starts with cold
//! simulated caches.

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

pub use benchgrind_runner::{EventKind, LibraryBenchmarkConfig};

/// Deterministic random bytes: on by default in library benchmarks
/// ([`LibraryBenchmarkConfig::deterministic_random`]), and
/// [`enable_from_env`](random::enable_from_env) for programs measured as binary benchmarks.
pub use benchgrind_runner::random;

/// Prevents the optimizer from seeing through a value (re-exported from `std::hint`).
pub use std::hint::black_box;

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use benchgrind_runner::__private::*;
}
