//! Every flag of a bench binary, each defined once: name, environment variable, how it takes
//! its value, its category and line in the help, and how its value becomes part of [`Cli`](super::Cli). The
//! parser and the help text are built from the one list [`ALL`]; a flag cannot lack a variable,
//! a help line or a conversion. The flags are kept in files by topic, and [`ALL`] puts them in
//! the order of the help: `run` (what runs and what it is compared with), `tools` (Valgrind and
//! its tools), `output` (what the report shows and where it goes), `compat` (Google Benchmark's
//! flags and gungraun's aliases); `libtest` holds libtest's flags, accepted and ignored.

mod compat;
pub(crate) mod flag;
mod layout;
mod libtest;
mod output;
mod perf;
mod run;
mod tools;

use flag::Flag;

pub(crate) use libtest::{LIBTEST_SWITCHES, LIBTEST_VALUES};

/// Every flag, in the order of the help.
pub(crate) static ALL: std::sync::LazyLock<Vec<&'static Flag>> = std::sync::LazyLock::new(|| {
    run::FLAGS
        .iter()
        .chain(layout::FLAGS)
        .chain(tools::FLAGS)
        .chain(perf::FLAGS)
        .chain(output::FLAGS)
        .chain(compat::FLAGS)
        .collect()
});

/// Older names of flags' variables, `(older, the flag's)`: read where the flag's own is not set.
pub(crate) const ENV_ALIASES: &[(&str, &str)] = &[
    ("BENCHGRIND_VALGRIND_BIN", "BENCHGRIND_VALGRIND"),
    // gungraun 0.20's variables of its perf flags.
    ("GUNGRAUN_PERF_ARGS", "BENCHGRIND_PERF_ARGS"),
    ("GUNGRAUN_PERF_EVENTS", "BENCHGRIND_PERF_EVENTS"),
    ("GUNGRAUN_PERF_LIMITS", "BENCHGRIND_PERF_LIMITS"),
    ("GUNGRAUN_PERF_RUN_MODE", "BENCHGRIND_PERF_RUN_MODE"),
    ("GUNGRAUN_PERF_SAMPLING", "BENCHGRIND_PERF_SAMPLING"),
];

/// Every flag, in the order of the help ([`ALL`]).
pub(crate) fn all() -> impl Iterator<Item = &'static Flag> {
    ALL.iter().copied()
}
