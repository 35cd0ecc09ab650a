//! The part of benchgrind that touches Valgrind and files, linked into every bench binary.
//!
//! The pipeline of `cargo bench`, one module per stage, each importing only the stages above it
//! (no module imports one that imports it back):
//!
//! | stage | module | what it does |
//! | --- | --- | --- |
//! | configure | [`config`] | every type users configure (older generations' API in `config::compat`, on top); imports nothing else of the crate but [`error`] |
//! | register | [`spec`] | the benchmarks `main!` registers |
//! | arguments | [`cli`] | flags and `BENCHGRIND_*` variables, each defined once, into one value |
//! | plan | [`plan`] | registered benchmarks, levels of config and filters become jobs |
//! | count natively | [`perf`] | Linux perf beside Valgrind: hardware and software counters of the window in the bench process, samples for a time budget, their summaries (its settings and text forms are in `config::perf`, its comparison in `compare::perf`) |
//! | execute | [`execute`] | one [`Executor`](execute::Executor) trait: fork servers, a process per benchmark, test mode, canned profiles; parallel workers; Ctrl-C and the leftovers of killed runs |
//! | parse | [`parse`] | Valgrind's files to counts, errors at `path:line` |
//! | derive | [`metrics`] | counts to the metrics users read, of Callgrind and the other tools |
//! | compare | [`compare`] | changes, one regression check for every tool, perf's interval, verdict and limits, flamegraphs |
//! | explain | [`explain`] | why Callgrind's counts changed: exact attribution to functions and lines |
//! | result | [`result`] | what one benchmark produced |
//! | report | [`report`] | the terminal, JSON (with its wire types), Markdown and Bencher reports, the summaries, the history of runs |
//! | run | [`harness`] | the only module that knows every stage: parse, plan, execute, report, exit code |
//!
//! Beside the pipeline: [`store`] owns the files on disk and the lock that lets one run at a
//! time write them; [`measured`] is the bench binary as the child the executors start (measured
//! process, fork server, hooks), speaking [`protocol`] with them; [`random`] makes the measured
//! process's random bytes and [`clock`] its wall clock repeatable; [`fingerprint`] is the machine a count was measured on
//! (and the revision); [`messages`] is what the harness says on stderr, [`error`] what ends a
//! run; [`duration`] and [`dates`] read and write times as every stage does. Users depend on the `benchgrind` crate, which re-exports
//! what they need from here; the macros' generated code names `__private`.

#![warn(missing_docs)]

pub mod cli;
pub mod clock;
pub mod compare;
pub mod config;
pub mod dates;
pub mod duration;
pub mod error;
pub mod execute;
pub mod explain;
pub mod fingerprint;
pub mod harness;
pub mod measured;
pub mod messages;
pub mod metrics;
pub mod parse;
pub mod perf;
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
    BenchmarkId, Direction, EntryPoint, EventKind, FlamegraphConfig, FlamegraphKind,
    LibraryBenchmarkConfig, OutputFormat, RegressionConfig, Tool, ToolMetric, ValgrindTool,
};

/// What the macros' generated code names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::private::*;
}
