//! The part of benchgrind that touches Valgrind and files, linked into every bench binary.
//!
//! The pipeline of `cargo bench` reads top to bottom in [`harness`]: [`args`] and [`plan`] turn
//! the registered [`spec`] into jobs, [`execute`] runs them under Valgrind, [`parse`] reads the
//! profiles, [`metrics`] derives what users read, [`compare`] relates runs and [`report`] prints.
//! [`store`] owns the files on disk. Users depend on the `benchgrind` crate, which re-exports
//! what they need from here.

#![warn(missing_docs)]

pub mod cli;
pub mod compare;
pub mod config;
pub mod execute;
pub mod harness;
pub mod measured;
pub mod metrics;
pub mod parse;
pub mod plan;
mod private;
pub mod protocol;
pub mod random;
pub mod report;
pub mod result;
pub mod spec;
pub mod store;

/// The client-request primitive of the measured window ([`measured::window`]); it lives in
/// `benchgrind-client-requests`, shared with the users' `benchgrind::client_requests`.
pub use benchgrind_client_requests::raw as client_request;

pub use config::{
    Direction, EventKind, FlamegraphConfig, FlamegraphKind, LibraryBenchmarkConfig,
    RegressionConfig, Tool, ToolMetric, ValgrindTool,
};

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::private::*;
}
