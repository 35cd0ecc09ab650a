//! gungraun 0.20's Linux `perf` support, which benchgrind does not have: it measures with
//! Valgrind only. Code that configures perf fails to compile at the place it does so, with a
//! message that says what to use instead:
//!
//! - [`Perf::default()`](Perf::default) and [`Perf::with_args`]: error E0277, "benchgrind does
//!   not run perf", noting Callgrind (the default tool) and Cachegrind;
//! - [`perf_enable!`](crate::perf_enable), [`perf_disable!`](crate::perf_disable),
//!   [`perf_log!`](crate::perf_log): a `compile_error!` with the same advice.
//!
//! The cargo features `perf` and `perf_stubs` exist so that manifests naming them resolve; they
//! change nothing. `Tool::Perf`, `PerfRunMode`, `PerfMetric` and `Unit` do not exist (the
//! compiler names what it cannot find). Instruction counts of the same code come from Callgrind,
//! cache behaviour from Callgrind's or Cachegrind's cache simulation.
//!
//! ```compile_fail
//! use benchgrind::{LibraryBenchmarkConfig, Perf};
//!
//! let mut config = LibraryBenchmarkConfig::default();
//! config.tool(Perf::default());
//! ```

/// What benchgrind would need to run perf; no type has it (see the [module](self)).
#[diagnostic::on_unimplemented(
    message = "benchgrind does not run perf",
    label = "perf is not supported by benchgrind",
    note = "measure with Callgrind, the default tool (`.tool(Callgrind::with_args([...]))`), or \
            with Cachegrind (`.tool(Cachegrind::default())` or `default_tool(ValgrindTool::Cachegrind)`) \
            instead, and remove the Perf configuration"
)]
pub trait PerfSupported {}

/// gungraun 0.20's perf configuration; using it is a compile error (see the [module](self)).
/// There is no value of it.
#[derive(Debug)]
pub struct Perf(Never);

/// No value.
#[derive(Debug)]
enum Never {}

impl Perf {
    /// A compile error: benchgrind does not run perf.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Perf
    where
        for<'a> &'a Perf: PerfSupported,
    {
        unreachable!("no type is PerfSupported")
    }

    /// A compile error: benchgrind does not run perf.
    pub fn with_args<I, T>(_args: T) -> Perf
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
        for<'a> &'a Perf: PerfSupported,
    {
        unreachable!("no type is PerfSupported")
    }
}

/// So that `.tool(Perf::default())` fails on `Perf` alone, not on the conversion too.
#[cfg(feature = "runner")]
impl From<Perf> for benchgrind_runner::config::ToolSpec {
    fn from(perf: Perf) -> Self {
        match perf.0 {}
    }
}

/// gungraun 0.20 starts perf's measurement here; in benchgrind a compile error that says perf is
/// not supported.
#[macro_export]
macro_rules! perf_enable {
    ($($any:tt)*) => {
        compile_error!(
            "benchgrind does not run perf: remove perf_enable!; Callgrind (the default tool) \
             measures the benchmark function, and `client_requests::callgrind::toggle_collect` \
             narrows it"
        )
    };
}

/// gungraun 0.20 stops perf's measurement here; in benchgrind a compile error that says perf is
/// not supported.
#[macro_export]
macro_rules! perf_disable {
    ($($any:tt)*) => {
        compile_error!(
            "benchgrind does not run perf: remove perf_disable!; Callgrind (the default tool) \
             measures the benchmark function"
        )
    };
}

/// gungraun 0.20 writes to perf's log here; in benchgrind a compile error that says perf is not
/// supported.
#[macro_export]
macro_rules! perf_log {
    ($($any:tt)*) => {
        compile_error!(
            "benchgrind does not run perf: remove perf_log!, or print with \
             `client_requests::valgrind_println!` into Valgrind's log"
        )
    };
}
