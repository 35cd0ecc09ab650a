//! The part of benchgrind that touches Valgrind and files, linked into every bench binary.
//!
//! The pipeline of `cargo bench` reads top to bottom in [`harness`]: [`args`] and [`plan`] turn
//! the registered [`spec`] into jobs, [`execute`] runs them under Valgrind, [`parse`] reads the
//! profiles, [`metrics`] derives what users read, [`compare`] relates runs and [`report`] prints.
//! [`store`] owns the files on disk. Users depend on the `benchgrind` crate, which re-exports
//! what they need from here.

pub mod args;
pub mod binary;
pub mod child;
pub mod compare;
pub mod compat;
pub mod config;
pub mod delay;
pub mod execute;
mod execute_binary;
pub mod execute_fork;
pub mod flamegraph;
pub mod harness;
pub mod legacy;
pub mod measure;
pub mod measured;
pub mod metrics;
pub mod parse;
pub mod plan;
pub mod random;
pub mod regression;
pub mod report;
pub mod result;
pub mod schedule;
pub mod spec;
pub mod store;
pub mod summary;
mod test_mode;
pub mod tools;
pub mod valgrind;

/// The client-request primitive of the measured window ([`measure`]); it lives in
/// `benchgrind-client-requests`, shared with the users' `benchgrind::client_requests`.
pub use benchgrind_client_requests::raw as client_request;

pub use compat::{BenchmarkId, EntryPoint, OutputFormat};
pub use config::LibraryBenchmarkConfig;
pub use flamegraph::{Direction, FlamegraphConfig, FlamegraphKind};
pub use metrics::EventKind;
pub use regression::RegressionConfig;
pub use tools::{Tool, ToolMetric, ValgrindTool};

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::binary::{
        Bench, BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Command,
    };
    pub use crate::config::LibraryBenchmarkConfig;
    pub use crate::harness::run;
    pub use crate::legacy::{__legacy_benchmarks, Arg, Fixtures, LegacyGroup, Run};
    pub use crate::measure::measure;
    pub use crate::measured::measured_process;
    pub use crate::spec::{BinaryGroup, Function, Group, LibBench, Main};
    pub use std::hint::black_box;
}
