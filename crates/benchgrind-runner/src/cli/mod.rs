//! Stage 2a of the pipeline: the bench binary's command line (after `cargo bench -- ...`) and its
//! `BENCHGRIND_*` environment variables, validated into one [`Cli`] value. The command line wins
//! over the environment, which wins over the code.
//!
//! Every flag is defined once, in the one list `flags::ALL` (kept in files by topic): its name,
//! variable, category, help and conversion; the parser ([`parse`]) and the help text ([`usage`])
//! are built from that list. Depends on
//! [`crate::config`] only (the text forms of tools and limits).

mod flags;
mod gbfilter;
mod parse;
mod usage;
mod values;

pub use flags::flag::UsageError;
pub use gbfilter::GbFilter;
pub use parse::{parse, split_off};
pub use usage::usage;

pub use values::{
    BenchmarkOutFormat, Cli, Color, Isolation, JsonStyle, Labels, LogLevel, NoMatch, Nocapture,
    ReportFormat, Reuse,
};

#[cfg(test)]
mod tests;

/// The environment variables of every flag (`BENCHGRIND_FRESH`, ...): what the harness reads,
/// not what the benchmarks do.
pub fn flag_variables() -> impl Iterator<Item = &'static str> {
    (flags::all().map(|flag| flag.env)).chain(flags::ENV_ALIASES.iter().map(|(older, _)| *older))
}
