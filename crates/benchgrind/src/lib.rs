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
//! Only the benchmark function's own execution is measured: the window opens inside the function,
//! with its arguments in place; building them, `setup` and `teardown` run before and after it,
//! uninstrumented, and every body starts with cold simulated caches. (A `const fn` benchmark is
//! measured around its call.)
//!
//! # Features
//!
//! - `benchmark` (default), also named `runner`: the benchmark API above (macros,
//!   configuration, harness).
//! - `client_requests`, also named `act` (gungraun 0.20): the module `client_requests`,
//!   Valgrind's client requests (Callgrind, Memcheck, DHAT, Helgrind, DRD and the core ones),
//!   live.
//! - `client_requests_defs`, also named `stubs` (gungraun 0.20): the same functions, compiled to
//!   nothing. For production code that keeps its requests, with `default-features = false` so no
//!   benchmark code comes along:
//!
//! ```toml
//! [dependencies]
//! benchgrind = { version = "0.1", default-features = false, features = ["client_requests_defs"] }
//!
//! [dev-dependencies]
//! benchgrind = { version = "0.1", features = ["client_requests"] }
//! ```

//!
//! - `cachegrind`: Cachegrind instead of Callgrind is every benchmark's default tool (a level's
//!   `default_tool` or `--default-tool` still choose another). Callgrind then runs only where a
//!   `Callgrind` value is given (`.tool(Callgrind::with_args([..]))`) or `--tools=callgrind`. benchgrind's Cachegrind
//!   runs cover the whole benchmark process: it has no Cachegrind window around the benchmark
//!   function, and the report shows no Cachegrind metrics yet.
//! - `perf`, `perf_stubs`: accepted so that gungraun 0.20 manifests resolve; perf is always
//!   there ([`perf`]: `Perf`, `perf_enable!`, `perf_disable!`, `perf_log!`).

#![warn(missing_docs)]

#[cfg(feature = "runner")]
mod bench;
#[cfg(feature = "runner")]
pub use bench::*;

pub mod perf;
#[cfg(feature = "runner")]
pub use perf::{Perf, PerfMetric, PerfRunMode, Unit};

#[cfg(feature = "client_requests_defs")]
#[doc(inline)]
pub use benchgrind_client_requests as client_requests;

/// Prevents the optimizer from seeing through a value (re-exported from `std::hint`).
pub use std::hint::black_box;
