//! Google Benchmark's output formats for benchgrind's counts, so that Google Benchmark's tools
//! (compare.py) read a run as they read a C++ one: the JSON layout ([`mod@json`]), the CSV columns
//! ([`csv`]) and the context's facts ([`context`]). A bench binary writes them with
//! `--benchmark_out` ([`BenchmarkOut`], a reporter beside the one on stdout); `benchgrind
//! gbench --out` writes the counts of C++ binaries through the same [`mod@json`].
//!
//! Per benchmark, `real_time` and `cpu_time` both hold the chosen metric's count per iteration
//! with `time_unit` "ns", since those are the two fields the tools compare; every metric is
//! also a user counter under its own name (`Ir`, `L1hits`, `EstimatedCycles`, ...; another
//! tool's as `dhat.TotalBytes`), the chosen one too, so a reader finds each metric under the
//! same key whatever was chosen. A benchgrind benchmark runs its function once: `iterations` 1.
//! The `context` carries Google Benchmark's usual fields and a `benchgrind` object saying that
//! the numbers are counts, of what, and under which Valgrind, CPU and cache geometry. A failed
//! benchmark is written as Google Benchmark writes its own errors (`error_occurred`,
//! `error_message`).

pub mod context;
pub mod csv;
pub mod json;
mod out;

pub use json::{entries, json, Context, Entry, CONTEXT_VERSION};
pub use out::BenchmarkOut;
