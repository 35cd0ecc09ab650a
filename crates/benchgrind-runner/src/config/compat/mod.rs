//! The configuration API of older generations, one module per generation, on top of benchgrind's
//! own model (the rest of [`crate::config`], which imports nothing from here; `scripts/deps.py`
//! checks that): each module's types and methods only build the core's values, so code written
//! for that generation builds unchanged and means what it meant there.
//!
//! - Iai and iai-callgrind 0.1 have no configuration: `main!` over plain functions is the macros'.
//! - [`v0_10`]: iai-callgrind 0.9 to 0.12's binary benchmarks, `Run`, `Arg`, `Options`, `Fixtures`.
//! - [`v0_13`] and `v0_13_methods`: iai-callgrind 0.13/0.14's `BenchmarkId`, `OutputFormat` and
//!   the config methods that set the core's [`Extra`](super::library::Extra).
//! - `v0_15`: iai-callgrind 0.15/0.16 and gungraun 0.17 to 0.20's conversions of binary
//!   benchmarks' I/O and exit types. Their tools as values and metric groups are the core's own
//!   ([`super::tool_values`], [`super::tool_metrics`]): benchgrind's model is built on them.

pub mod v0_10;
pub mod v0_13;
mod v0_13_methods;
mod v0_15;
