//! User-facing configuration of library benchmarks.
//!
//! The same type is given at `main!`, group, function and bench level;
//! [`resolve`](super::resolve()) folds them from the most general to the most specific. Builders take `&mut self` so that both
//! `LibraryBenchmarkConfig::default().env_clear(false)` in a macro argument and a `let mut`
//! binding with statements work; the macros convert either form with `Into`.

use std::ffi::OsString;

use super::flamegraph::FlamegraphConfig;
use super::regression::RegressionConfig;
use super::tool::{valgrind_args, Tool};

/// Configuration of library benchmarks, at `main!`, group, `#[library_benchmark]` or `#[bench]`
/// level.
///
/// A more specific level overrides single values of a more general one; lists such as
/// [`envs`](Self::envs) and [`raw_callgrind_args`](Self::raw_callgrind_args) add up, the more
/// specific entries coming last (and so winning where Valgrind or the environment would take the
/// last one).
///
/// ```rust
/// use benchgrind_runner::LibraryBenchmarkConfig;
///
/// let mut config = LibraryBenchmarkConfig::default();
/// config
///     .raw_callgrind_args(["--cache-sim=no"])
///     .env("MY_SEED", "42")
///     .pass_through_envs(["HOME"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryBenchmarkConfig {
    pub(crate) raw_callgrind_args: Vec<String>,
    pub(crate) envs: Vec<(OsString, Option<OsString>)>,
    pub(crate) env_clear: Option<bool>,
    pub(crate) regression: Option<RegressionConfig>,
    pub(crate) deterministic_random: Option<bool>,
    pub(crate) random_seed: Option<u64>,
    pub(crate) tools: Vec<Tool>,
    pub(crate) flamegraph: Option<FlamegraphConfig>,
    pub(crate) timeout: Option<std::time::Duration>,
    pub(crate) separate_threads: Option<bool>,
    /// What only the iai-callgrind-compatible methods set ([`super::compat`]).
    pub(crate) compat: super::compat::Extra,
}

impl LibraryBenchmarkConfig {
    /// Runs another Valgrind tool (DHAT, Massif, Memcheck, ...) on the benchmark, after
    /// Callgrind. A tool given again at a more specific level replaces the general one.
    pub fn tool(&mut self, tool: Tool) -> &mut Self {
        self.tools.push(tool);
        self
    }

    /// Runs other Valgrind tools; see [`tool`](Self::tool).
    pub fn tools<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.tools.extend(tools);
        self
    }

    /// Draws flamegraphs of the Callgrind profile; the most specific level's config wins whole.
    pub fn flamegraph<F: Into<FlamegraphConfig>>(&mut self, config: F) -> &mut Self {
        self.flamegraph = Some(config.into());
        self
    }

    /// Checks the benchmarks against regression limits; the most specific level's config wins
    /// whole. Without one, changes are reported but never fail the run (unless `--regression`
    /// is given).
    pub fn regression<R: Into<RegressionConfig>>(&mut self, config: R) -> &mut Self {
        self.regression = Some(config.into());
        self
    }

    /// Adds arguments for Callgrind, with or without the leading `--` (`"--cache-sim=no"` or
    /// `"cache-sim=no"`).
    pub fn raw_callgrind_args<I, T>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        self.raw_callgrind_args.extend(valgrind_args(args));
        self
    }

    /// Sets one environment variable of the benchmark process.
    pub fn env<K: Into<OsString>, V: Into<OsString>>(&mut self, key: K, value: V) -> &mut Self {
        self.envs.push((key.into(), Some(value.into())));
        self
    }

    /// Sets environment variables of the benchmark process.
    pub fn envs<K, V, I>(&mut self, envs: I) -> &mut Self
    where
        K: Into<OsString>,
        V: Into<OsString>,
        I: IntoIterator<Item = (K, V)>,
    {
        self.envs
            .extend(envs.into_iter().map(|(k, v)| (k.into(), Some(v.into()))));
        self
    }

    /// Passes one variable of the harness' environment through to the benchmark process (when
    /// it is set).
    pub fn pass_through_env<K: Into<OsString>>(&mut self, key: K) -> &mut Self {
        self.envs.push((key.into(), None));
        self
    }

    /// Passes variables of the harness' environment through to the benchmark process.
    pub fn pass_through_envs<K, I>(&mut self, keys: I) -> &mut Self
    where
        K: Into<OsString>,
        I: IntoIterator<Item = K>,
    {
        self.envs.extend(keys.into_iter().map(|k| (k.into(), None)));
        self
    }

    /// Whether the benchmark process starts with an empty environment (the default: `true`).
    ///
    /// A cleared environment makes counts independent of the shell they were started from: the
    /// environment's size moves the stack and with it start-up and cache behaviour.
    pub fn env_clear(&mut self, value: bool) -> &mut Self {
        self.env_clear = Some(value);
        self
    }

    /// Whether random bytes drawn through `getrandom` in the benchmark process come from a
    /// fixed stream (the default: `true`), so that `HashMap` seeds and everything else drawn
    /// from the operating system are the same on every run. See [`crate::random`] for what it
    /// covers. `--deterministic-random=no` turns it off for a whole run.
    pub fn deterministic_random(&mut self, value: bool) -> &mut Self {
        self.deterministic_random = Some(value);
        self
    }

    /// How long one run of the benchmark (under Callgrind or another tool) may take (the
    /// default: [`DEFAULT_TIMEOUT`](super::DEFAULT_TIMEOUT), 5 minutes): past it the benchmark's
    /// processes are killed and it fails, naming the limit; the other benchmarks run.
    /// `--timeout` overrides it.
    pub fn timeout(&mut self, limit: std::time::Duration) -> &mut Self {
        self.timeout = Some(limit);
        self
    }

    /// Shows the counts of each thread and process besides their total (the default: `false`,
    /// the total only), in the terminal and the JSON summary. Every thread and process is
    /// counted either way. `--separate-threads` overrides it.
    pub fn separate_threads(&mut self, value: bool) -> &mut Self {
        self.separate_threads = Some(value);
        self
    }

    /// The seed of the fixed stream of random bytes (the default:
    /// [`DEFAULT_SEED`](super::DEFAULT_SEED)). `--random-seed` overrides it.
    pub fn random_seed(&mut self, seed: u64) -> &mut Self {
        self.random_seed = Some(seed);
        self
    }
}

impl From<&mut LibraryBenchmarkConfig> for LibraryBenchmarkConfig {
    fn from(value: &mut LibraryBenchmarkConfig) -> Self {
        value.clone()
    }
}

impl From<&LibraryBenchmarkConfig> for LibraryBenchmarkConfig {
    fn from(value: &LibraryBenchmarkConfig) -> Self {
        value.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_by_reference_converts_into_a_value() {
        let cfg: LibraryBenchmarkConfig = LibraryBenchmarkConfig::default().env("X", "y").into();
        assert_eq!(cfg.envs.len(), 1);
    }
}
