//! gungraun 0.20's Linux perf tool: [`Perf`] in `tool(...)` of a library benchmark's config
//! samples the benchmark with the kernel's counters, natively, beside Callgrind's exact counts:
//! `task-clock` (time on the CPU), context switches, migrations, page faults, and where the
//! machine has a PMU, cycles, instructions and branches. Each metric is reported with its mean,
//! spread and number of samples, compared with the previous run or a baseline by Welch's t-test;
//! a soft limit fails only on a significant change.
//!
//! The counters run in the benchmark function's window (not in setup or teardown), or, with
//! [`Perf::disable_entry_point`]`(true)`, between [`perf_enable!`](crate::perf_enable) and
//! [`perf_disable!`](crate::perf_disable). Outside a perf run (under Valgrind, or in production
//! code) the macros do nothing.
//!
//! ```rust
//! # #[cfg(feature = "runner")]
//! # mod bench {
//! use benchgrind::{library_benchmark, LibraryBenchmarkConfig, Perf};
//!
//! #[library_benchmark(config = LibraryBenchmarkConfig::default()
//!     .tool(Perf::default().disable_entry_point(true)))]
//! fn sum() -> u64 {
//!     let data: Vec<u64> = (0..1000).collect(); // not counted
//!     let token = benchgrind::perf_enable!();
//!     let total = data.iter().sum();
//!     benchgrind::perf_disable!(token);
//!     total
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! The cargo features `perf` and `perf_stubs` exist so that gungraun 0.20 manifests resolve;
//! perf is always there.

#[cfg(feature = "runner")]
pub use benchgrind_runner::config::{Perf, PerfMetric, PerfRunMode, Unit};

#[cfg(feature = "runner")]
#[doc(hidden)]
pub use benchgrind_runner::perf::{disable, enable, log, PerfToken};

/// Without the runner (production code with `default-features = false`): nothing to count.
#[cfg(not(feature = "runner"))]
#[doc(hidden)]
pub mod stubs {
    /// What `perf_enable!` returns.
    #[derive(Debug)]
    pub struct PerfToken(());

    /// Does nothing.
    pub fn enable() -> PerfToken {
        PerfToken(())
    }

    /// Does nothing.
    pub fn disable(_token: PerfToken) {}

    /// Writes to standard error.
    pub fn log(message: &str) {
        eprintln!("perf: {message}");
    }
}

#[cfg(not(feature = "runner"))]
#[doc(hidden)]
pub use stubs::{disable, enable, log, PerfToken};

/// Turns perf's counters on (in a perf run of a benchmark configured with
/// `Perf::disable_entry_point(true)`); returns the token [`perf_disable!`](crate::perf_disable)
/// takes. Does nothing elsewhere.
#[macro_export]
macro_rules! perf_enable {
    () => {
        $crate::perf::enable()
    };
}

/// Turns perf's counters off again: `perf_disable!(token)`.
#[macro_export]
macro_rules! perf_disable {
    ($token:expr) => {
        $crate::perf::disable($token)
    };
}

/// A line in the benchmark's output (standard error, prefixed `perf: `), formatted like
/// `println!`.
#[macro_export]
macro_rules! perf_log {
    ($($arg:tt)*) => {
        $crate::perf::log(&format!($($arg)*))
    };
}
