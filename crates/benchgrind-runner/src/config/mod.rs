//! Everything users configure, and nothing that runs: library and binary benchmark configs,
//! the other Valgrind tools, the metrics users name, regression limits, flamegraphs, and how the
//! four levels (`main!`, group, function, bench) fold into one [`ResolvedConfig`]. The API of
//! older generations (iai-callgrind 0.10's binary benchmarks, 0.13's names for the same things,
//! gungraun's conversions) is in [`compat`], one module per generation, on top of this model.
//!
//! The bottom of the crate: it imports nothing else of it but [`crate::error`] (its errors are
//! [`Problem`](crate::error::Problem)s), so every stage can depend on it. The
//! text forms of the command line (`--tools`, `--regression`) are `FromStr` on these types.

pub mod binary;
pub mod binary_group;
pub mod compat;
pub mod delay;
pub mod entry_point;
pub mod explain;
pub mod flamegraph;
pub mod library;
pub mod limits;
pub mod metric;
pub mod perf;
pub mod regression;
pub mod resolve;
mod sandbox;
pub mod tool;
pub mod tool_metrics;
pub mod tool_values;

pub use binary::{
    Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, ExitWith, Hook, Pipe, Sandbox, Stdin,
    Stdio,
};
pub use binary_group::BinaryBenchmarkGroup;
pub use compat::v0_10::{Arg, Fixtures, Options, Run, RunEnv};
pub use compat::v0_13::{BenchmarkId, OutputFormat};
pub use delay::{Delay, DelayKind};
pub use entry_point::EntryPoint;
pub use explain::{ExplainPolicy, DEFAULT_EXPLAIN_PCT};
pub use flamegraph::{Direction, FlamegraphConfig, FlamegraphKind};
pub use library::LibraryBenchmarkConfig;
pub use metric::{AnyMetric, EventKind, ToolMetric};
pub use perf::{Perf, PerfMetric, PerfRunMode, Unit};
pub use regression::RegressionConfig;
pub use resolve::{resolve, ResolvedConfig, DEFAULT_SEED, DEFAULT_STALL_LIMIT, DEFAULT_TRUNCATE};
pub use tool::SanitizeOutput;
pub use tool::{normalize_valgrind_arg, selected, Tool, ToolList, ValgrindTool};
pub use tool_metrics::{
    CachegrindMetric, CachegrindMetrics, CallgrindMetrics, DhatMetric, DhatMetrics, ErrorMetric,
    Limit,
};
pub use tool_values::{
    Bbv, Cachegrind, Callgrind, Dhat, Drd, Helgrind, Massif, Memcheck, ToolSpec,
};

/// Whether a name users give (a baseline's, a binary benchmark's name or id) can be a file name
/// of its own below the home: letters, digits, `-`, `_` and `.` only, and not `.` or `..`.
pub fn is_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
