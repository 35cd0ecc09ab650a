//! User-facing configuration of library benchmarks.
//!
//! The same type is given at `main!`, group, function and bench level;
//! [`resolve`](super::resolve()) folds them from the most general to the most specific. Builders take `&mut self` so that both
//! `LibraryBenchmarkConfig::default().env_clear(false)` in a macro argument and a `let mut`
//! binding with statements work; the macros convert either form with `Into`.

use std::ffi::OsString;

use super::entry_point::EntryPoint;
use super::flamegraph::FlamegraphConfig;
use super::regression::RegressionConfig;
use super::tool::{valgrind_args, Tool};
use super::tool_values::ToolSpec;

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
    /// What only the methods of older generations set ([`Extra`]).
    pub(crate) compat: Extra,
    /// What tools given as values set ([`super::tool_values`]).
    pub(crate) values: ValueSettings,
    /// Linux perf, if configured (`tool(Perf::default())`).
    pub(crate) perf: Option<super::perf::Perf>,
}

/// What the tool values of iai-callgrind 0.15+ and gungraun set on a config level: Callgrind's
/// metrics shown and on/off, the default tool, and limits that merge with the other levels'
/// (where a [`RegressionConfig`] replaces them whole).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ValueSettings {
    pub callgrind_format: Option<Vec<super::EventKind>>,
    pub callgrind_enable: Option<bool>,
    /// A Callgrind value was given (`tool(Callgrind::...)`): Callgrind runs, also beside another
    /// default tool, unless some level turned it off.
    pub callgrind_given: bool,
    pub default_tool: Option<super::ValgrindTool>,
    pub limits: Option<RegressionConfig>,
    pub sandbox: Option<super::sandbox::Sandbox>,
    pub current_dir: Option<std::path::PathBuf>,
}

impl LibraryBenchmarkConfig {
    /// Runs another Valgrind tool (DHAT, Massif, Memcheck, ...) on the benchmark, after
    /// Callgrind, or configures Callgrind: a 0.13 [`Tool`] (given again at a more specific level,
    /// it replaces the general one), or a value of iai-callgrind 0.15+ and gungraun
    /// ([`Callgrind`](super::Callgrind), [`Dhat`](super::Dhat), ...: merged with the value of the
    /// same tool at a more general level).
    pub fn tool<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
        match tool.into() {
            ToolSpec::Callgrind(callgrind) => self.callgrind(*callgrind),
            ToolSpec::Other(tool) => self.tools.push(tool),
            ToolSpec::Perf(perf) => match &mut self.perf {
                Some(general) => general.merge(&perf),
                None => self.perf = Some(*perf),
            },
        }
        self
    }

    /// Runs other Valgrind tools; see [`tool`](Self::tool).
    pub fn tools<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.tools.extend(tools);
        self
    }

    /// Benchmarks with this tool instead of Callgrind (iai-callgrind 0.15+ and gungraun):
    /// `ValgrindTool::DHAT` or gungraun 0.20's `Tool::DHAT`. Callgrind then runs only when a
    /// level gives a [`Callgrind`](super::Callgrind) value (not turned off with
    /// `enable(false)`), or `--tools=callgrind`.
    pub fn default_tool<T: Into<super::ValgrindTool>>(&mut self, tool: T) -> &mut Self {
        self.values.default_tool = Some(tool.into());
        self
    }

    /// Runs the benchmark's process in a new temporary directory, with the sandbox's fixtures
    /// copied in (relative fixture paths start at the workspace root), removed after each run;
    /// as binary benchmarks' [`BinaryBenchmarkConfig::sandbox`](super::BinaryBenchmarkConfig::sandbox)
    /// (gungraun 0.19+). The most specific level's sandbox wins whole. Without one, benchmarks
    /// run in the package's directory, as under `cargo bench`.
    ///
    /// ```rust
    /// use benchgrind_runner::config::Sandbox;
    /// use benchgrind_runner::LibraryBenchmarkConfig;
    ///
    /// let mut config = LibraryBenchmarkConfig::default();
    /// config.sandbox(Sandbox::new(true).fixtures(["benches/fixtures/input.txt"]));
    /// ```
    pub fn sandbox<T: Into<super::sandbox::Sandbox>>(&mut self, sandbox: T) -> &mut Self {
        self.values.sandbox = Some(sandbox.into());
        self
    }

    /// The working directory of the benchmark's process: a relative path starts at the sandbox
    /// when there is one, else at the package's directory (gungraun 0.19+).
    pub fn current_dir<T: Into<std::path::PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.values.current_dir = Some(dir.into());
        self
    }

    /// Takes over what a [`Callgrind`](super::Callgrind) value sets.
    pub(crate) fn callgrind(&mut self, callgrind: super::Callgrind) {
        let settings = callgrind.0;
        self.raw_callgrind_args.extend(settings.args);
        if let Some(entry_point) = settings.entry_point {
            self.compat.entry_point = Some(entry_point);
        }
        if let Some(flamegraph) = settings.flamegraph {
            self.flamegraph = Some(flamegraph);
        }
        if settings.format.is_some() {
            self.values.callgrind_format = settings.format;
        }
        if settings.enable.is_some() {
            self.values.callgrind_enable = settings.enable;
        }
        self.values.callgrind_given = true;
        if settings.has_limits || settings.limits.fail_fast.is_some() {
            self.values
                .limits
                .get_or_insert_with(RegressionConfig::default)
                .merge(&settings.limits);
        }
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

    /// How long one run of the benchmark (under Callgrind or another tool) may take (by
    /// default there is no limit, as in iai-callgrind and gungraun): past it the benchmark's
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

/// The settings of one configuration level that only the methods of older generations set
/// ([`crate::config::compat`]): they fold with the rest in [`super::resolve()`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra {
    /// `Some(None)`: never cut the header's description; `Some(Some(n))`: cut after `n`.
    pub(crate) truncate_description: Option<Option<usize>>,
    /// The tools of `tool_override`/`tools_override`: they replace the tools of more general
    /// levels and those given with `tool` at this level.
    pub(crate) tools_override: Option<Vec<Tool>>,
    /// Where Callgrind's collection is restricted to.
    pub(crate) entry_point: Option<EntryPoint>,
    /// Valgrind core arguments for Callgrind and every other tool.
    pub(crate) valgrind_args: Vec<String>,
    /// `OutputFormat::tolerance`: changes within this many percent show as `(Tolerance)`.
    pub(crate) tolerance: Option<f64>,
    /// `OutputFormat::show_grid`: grid marks in the terminal report.
    pub(crate) show_grid: Option<bool>,
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
