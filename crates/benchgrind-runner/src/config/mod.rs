//! Everything users configure, and nothing that runs: library and binary benchmark configs,
//! the other Valgrind tools, the metrics users name, regression limits, flamegraphs, and how the
//! four levels (`main!`, group, function, bench) fold into one [`ResolvedConfig`]. Beside
//! benchgrind's own API, iai-callgrind's names for the same things ([`compat`]), its 0.14
//! command delays ([`delay`]) and its 0.10 binary benchmarks ([`legacy`]).
//!
//! The bottom of the crate: it imports nothing else of it, so every stage can depend on it. The
//! text forms of the command line (`--tools`, `--regression`) are `FromStr` on these types.

pub mod binary;
mod binary_io;
pub mod compat;
mod compat_methods;
pub mod delay;
pub mod entry_point;
pub mod explain;
pub mod flamegraph;
pub mod group;
pub mod groups;
pub mod legacy;
pub mod library;
pub mod metric;
pub mod regression;
pub mod resolve;
mod sandbox;
mod settings;
pub mod spec_text;
pub mod tool;
pub mod tools;

pub use binary::{
    Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, ExitWith, Hook, Pipe, Sandbox, Stdin,
    Stdio,
};
pub use compat::{BenchmarkId, EntryPoint, OutputFormat};
pub use delay::{Delay, DelayKind};
pub use explain::{ExplainPolicy, DEFAULT_EXPLAIN_PCT};
pub use flamegraph::{Direction, FlamegraphConfig, FlamegraphKind};
pub use group::BinaryBenchmarkGroup;
pub use groups::{
    CachegrindMetric, CachegrindMetrics, CallgrindMetrics, DhatMetric, DhatMetrics, ErrorMetric,
    Limit,
};
pub use legacy::{Arg, Fixtures, Options, Run, RunEnv};
pub use library::LibraryBenchmarkConfig;
pub use metric::{AnyMetric, EventKind, ToolMetric};
pub use regression::RegressionConfig;
pub use resolve::{resolve, ResolvedConfig, DEFAULT_SEED, DEFAULT_TIMEOUT};
pub use tool::{normalize_valgrind_arg, selected, Tool, ToolList, ValgrindTool};
pub use tools::{
    Bbv, Cachegrind, Callgrind, Dhat, Drd, Helgrind, Massif, Memcheck, SanitizeOutput, ToolSpec,
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
