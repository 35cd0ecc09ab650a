//! The sides of a comparison: what a path on the command line is, and how it becomes a
//! [`ResultSet`](super::model::ResultSet).
//!
//! [`source::detect`] looks at a path once, before anything runs, so a wrong path fails fast. A
//! result file is read and recognised by its content ([`file::load`]: Google Benchmark JSON, a
//! benchgrind summary, or a file of summaries one per line); a directory is searched for
//! `summary.json` files ([`summary::load_dir`]); a word that is no path is a saved baseline
//! ([`baseline`]); an executable is run ([`run::run_gbench`] or [`bench_binary::run`]). A new
//! input kind adds a [`source::Source`] variant, a branch in [`source::detect`] or a recogniser in
//! [`file::load`], and nothing else.

pub mod baseline;
pub mod bench_binary;
pub mod file;
pub mod gbench;
pub mod lenient;
pub mod run;
pub mod source;
pub mod summary;
