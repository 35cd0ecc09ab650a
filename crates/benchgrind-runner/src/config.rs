//! User-facing configuration of library benchmarks, and how the four levels combine.
//!
//! The same type is given at `main!`, group, function and bench level; [`resolve`] folds them
//! from the most general to the most specific. Builders take `&mut self` so that both
//! `LibraryBenchmarkConfig::default().env_clear(false)` in a macro argument and a `let mut`
//! binding with statements work; the macros convert either form with `Into`.

use std::ffi::OsString;

use crate::flamegraph::FlamegraphConfig;
use crate::regression::RegressionConfig;
use crate::tools::Tool;

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
    /// What only the iai-callgrind-compatible methods set ([`crate::compat`]).
    pub(crate) compat: crate::compat::Extra,
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
        self.raw_callgrind_args
            .extend(args.into_iter().map(|a| normalize_valgrind_arg(a.as_ref())));
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

    /// The seed of the fixed stream of random bytes (the default:
    /// [`random::DEFAULT_SEED`](crate::random::DEFAULT_SEED)). `--random-seed` overrides it.
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

/// Valgrind accepts only `--name=value`; users often leave the dashes out.
pub(crate) fn normalize_valgrind_arg(arg: &str) -> String {
    let arg = arg.trim();
    if arg.starts_with('-') {
        arg.to_owned()
    } else {
        format!("--{arg}")
    }
}

/// The configuration one benchmark runs with, all levels folded.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedConfig {
    /// Callgrind arguments from the code, most general first.
    pub raw_callgrind_args: Vec<String>,
    /// Environment entries in order; `None` values pass the harness' value through.
    pub envs: Vec<(OsString, Option<OsString>)>,
    /// Whether the environment is cleared first.
    pub env_clear: bool,
    /// The regression limits, if any level set them.
    pub regression: Option<RegressionConfig>,
    /// Whether the benchmark process' random bytes come from a fixed stream.
    pub deterministic_random: bool,
    /// The seed of that stream.
    pub random_seed: u64,
    /// The other tools, one per kind, the most specific level's (disabled ones included).
    pub tools: Vec<Tool>,
    /// The flamegraphs, if any level asked for them.
    pub flamegraph: Option<FlamegraphConfig>,
    /// How many characters of the description the header shows (`None`: all).
    pub truncate_description: Option<usize>,
    /// Where Callgrind counts, if a level said so.
    pub entry_point: Option<crate::compat::EntryPoint>,
}

/// Folds the levels, most general first (main, group, function, bench).
pub fn resolve<'a, I>(levels: I) -> ResolvedConfig
where
    I: IntoIterator<Item = Option<&'a LibraryBenchmarkConfig>>,
{
    let mut out = ResolvedConfig {
        raw_callgrind_args: Vec::new(),
        envs: Vec::new(),
        env_clear: true,
        regression: None,
        deterministic_random: true,
        random_seed: crate::random::DEFAULT_SEED,
        tools: Vec::new(),
        flamegraph: None,
        truncate_description: Some(crate::compat::DEFAULT_TRUNCATE),
        entry_point: None,
    };
    let mut valgrind_args = Vec::new();
    for level in levels.into_iter().flatten() {
        let tools = match &level.compat.tools_override {
            Some(tools) => {
                out.tools.clear();
                tools
            }
            None => &level.tools,
        };
        if let Some(truncate) = level.compat.truncate_description {
            out.truncate_description = truncate;
        }
        if let Some(entry_point) = &level.compat.entry_point {
            out.entry_point = Some(entry_point.clone());
        }
        valgrind_args.extend(level.compat.valgrind_args.iter().cloned());
        if let Some(on) = level.deterministic_random {
            out.deterministic_random = on;
        }
        if let Some(seed) = level.random_seed {
            out.random_seed = seed;
        }
        out.raw_callgrind_args
            .extend(level.raw_callgrind_args.iter().cloned());
        out.envs.extend(level.envs.iter().cloned());
        if let Some(clear) = level.env_clear {
            out.env_clear = clear;
        }
        if let Some(regression) = &level.regression {
            out.regression = Some(regression.clone());
        }
        for tool in tools {
            out.tools.retain(|t| t.kind() != tool.kind());
            out.tools.push(tool.clone());
        }
        if let Some(flamegraph) = &level.flamegraph {
            out.flamegraph = Some(flamegraph.clone());
        }
    }
    // Valgrind's core arguments come first, so that tool arguments can still override them.
    for tool in &mut out.tools {
        tool.args.splice(0..0, valgrind_args.iter().cloned());
    }
    out.raw_callgrind_args.splice(0..0, valgrind_args);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specific_levels_override_values_and_lists_add_up() {
        let mut main = LibraryBenchmarkConfig::default();
        main.env("A", "1").raw_callgrind_args(["cache-sim=no"]);
        let mut group = LibraryBenchmarkConfig::default();
        group.env_clear(false).env("B", "2");
        let mut bench = LibraryBenchmarkConfig::default();
        bench.env_clear(true).pass_through_env("HOME");

        let r = resolve([Some(&main), Some(&group), None, Some(&bench)]);
        assert!(r.env_clear);
        assert_eq!(r.raw_callgrind_args, vec!["--cache-sim=no"]);
        let keys: Vec<_> = r.envs.iter().map(|(k, _)| k.to_str().unwrap()).collect();
        assert_eq!(keys, ["A", "B", "HOME"]);

        let r = resolve([Some(&main), Some(&group)]);
        assert!(!r.env_clear);
        let r = resolve([None, None]);
        assert!(r.env_clear);
    }

    #[test]
    fn random_bytes_are_deterministic_by_default_and_levels_override() {
        let random = |levels: &[&LibraryBenchmarkConfig]| {
            let r = resolve(levels.iter().copied().map(Some));
            (r.deterministic_random, r.random_seed)
        };
        assert_eq!(random(&[]), (true, crate::random::DEFAULT_SEED));
        let mut off = LibraryBenchmarkConfig::default();
        off.deterministic_random(false);
        let mut seeded = LibraryBenchmarkConfig::default();
        seeded.random_seed(9);
        let mut on = LibraryBenchmarkConfig::default();
        on.deterministic_random(true);
        assert_eq!(random(&[&seeded, &off]), (false, 9));
        assert_eq!(random(&[&off, &seeded]), (false, 9));
        assert_eq!(random(&[&off, &seeded, &on]), (true, 9));
    }

    #[test]
    fn a_specific_levels_tool_replaces_the_general_one() {
        use crate::tools::ValgrindTool;
        let mut main = LibraryBenchmarkConfig::default();
        main.tool(Tool::new(ValgrindTool::DHAT))
            .tool(Tool::new(ValgrindTool::Memcheck));
        let mut bench = LibraryBenchmarkConfig::default();
        bench.tool(Tool::new(ValgrindTool::Memcheck).args(["--error-exitcode=0"]));
        let r = resolve([Some(&main), Some(&bench)]);
        assert_eq!(r.tools.len(), 2);
        assert_eq!(r.tools[0].kind(), ValgrindTool::DHAT);
        assert_eq!(r.tools[1].args, ["--error-exitcode=0"]);
    }

    #[test]
    fn builder_by_reference_converts_into_a_value() {
        let cfg: LibraryBenchmarkConfig = LibraryBenchmarkConfig::default().env("X", "y").into();
        assert_eq!(cfg.envs.len(), 1);
    }
}
