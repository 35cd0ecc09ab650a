//! What `benchgrind compare OLD NEW` is made of: line up two result sets, say what changed and
//! whether it is noise, and fail CI past a threshold. The command is `cmd::compare`.
//!
//! The pipeline: `args` (raw values) -> `config` (resolved; inputs looked at, nothing run) ->
//! `sides` (files read, binaries run, via `input/`) -> `diff` (the format-neutral comparison
//! core, over `model` types, with `stats` and `filter`) -> `threshold` -> `report`. Inputs of
//! every kind become `model::ResultSet`s, so the core and the reports do not know where results
//! came from.

pub mod args;
pub mod compare_py;
pub mod config;
pub mod diff;
pub mod filter;
pub mod gbench;
pub mod input;
pub mod model;
pub mod report;
pub mod sides;
pub mod stats;
pub mod threshold;
