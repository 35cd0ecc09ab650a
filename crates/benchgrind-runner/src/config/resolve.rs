//! How the four levels of configuration (`main!`, group, function, bench) fold into the
//! configuration one benchmark runs with.

use std::ffi::OsString;

use super::entry_point::EntryPoint;
use super::flamegraph::FlamegraphConfig;
use super::library::LibraryBenchmarkConfig;
use super::metric::EventKind;
use super::regression::RegressionConfig;
use super::tool::{Tool, ValgrindTool};

/// How many characters of a bench's arguments the header shows by default, as in iai-callgrind
/// 0.13.
pub const DEFAULT_TRUNCATE: usize = 50;

/// The seed of the fixed stream of random bytes unless one is configured.
pub const DEFAULT_SEED: u64 = 0;

/// How long a run's processes may all be asleep (neither running nor waiting for a processor)
/// before it is stopped, unless `--stall-limit` says otherwise ([`crate::execute::watch`]).
pub const DEFAULT_STALL_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// The default tool unless a level or the command line chooses one: Callgrind, or Cachegrind
/// with the `cachegrind` feature.
pub const BUILT_IN_DEFAULT_TOOL: ValgrindTool = if cfg!(feature = "cachegrind") {
    ValgrindTool::Cachegrind
} else {
    ValgrindTool::Callgrind
};

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
    /// Whether a regression of this benchmark stops the run (`fail_fast` of the limits, unless
    /// the command line says).
    pub regression_fail_fast: bool,
    /// Whether the benchmark process' random bytes come from a fixed stream.
    pub deterministic_random: bool,
    /// The seed of that stream.
    pub random_seed: u64,
    /// The other tools, one per kind, the most specific level's (disabled ones included until
    /// the command line is folded in: then the ones that run, in
    /// [`ValgrindTool::OTHERS`](super::ValgrindTool::OTHERS)
    /// order).
    pub tools: Vec<Tool>,
    /// The flamegraphs, if any level asked for them.
    pub flamegraph: Option<FlamegraphConfig>,
    /// How many characters of the description the header shows (`None`: all).
    pub truncate_description: Option<usize>,
    /// Where Callgrind counts, if a level said so.
    pub entry_point: Option<EntryPoint>,
    /// How long one run of the benchmark may take; `None` (the default, as in iai-callgrind
    /// and gungraun): as long as it takes. A wall-clock limit by default failed benchmarks that
    /// were still making progress (three of csidh's took over 300 s under Callgrind), and
    /// whether one passed depended on the machine's load.
    pub timeout: Option<std::time::Duration>,
    /// How long its processes may all be asleep before the run is stopped (a process waiting on
    /// something that never comes); `--stall-limit`.
    pub stall_limit: std::time::Duration,
    /// Whether the report shows each thread's and process's counts besides the total.
    pub separate_threads: bool,
    /// Which of Callgrind's metrics the report shows, in order (`Callgrind::format`); `None`:
    /// the default ones.
    pub callgrind_format: Option<Vec<EventKind>>,
    /// Whether Callgrind runs, where a level said (`Callgrind::enable`); by default it runs
    /// when it is the default tool.
    pub callgrind_enable: Option<bool>,
    /// The tool that benchmarks (`default_tool`): Callgrind unless a level chose another.
    pub default_tool: ValgrindTool,
    /// Changes within this many percent show as `(Tolerance)` (`OutputFormat::tolerance`,
    /// `--tolerance`).
    pub tolerance: Option<f64>,
    /// Grid marks in the terminal report (`OutputFormat::show_grid`, `--show-grid`).
    pub show_grid: bool,
    /// Valgrind's core arguments from the code (`valgrind_args`), already at the front of
    /// every tool's arguments: for the tools the command line adds.
    pub valgrind_args: Vec<String>,
    /// The sandbox a library benchmark's process runs in, if a level gave one.
    pub sandbox: Option<super::sandbox::Sandbox>,
    /// The working directory of a library benchmark's process, if a level gave one.
    pub current_dir: Option<std::path::PathBuf>,
    /// Linux perf, the levels' values merged, if any level configured it.
    pub perf: Option<super::perf::Perf>,
    /// What the perf step does, folded from [`ResolvedConfig::perf`] and the command line when
    /// the job is planned; `None`: perf does not sample the benchmark.
    pub perf_run: Option<super::perf::run::PerfRun>,
}

impl ResolvedConfig {
    /// Whether Callgrind runs: where a level (or, once folded, the command line) said so, else
    /// when it is the default tool.
    pub fn runs_callgrind(&self) -> bool {
        self.callgrind_enable
            .unwrap_or(self.default_tool == ValgrindTool::Callgrind)
    }
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
        regression_fail_fast: false,
        deterministic_random: true,
        random_seed: DEFAULT_SEED,
        tools: Vec::new(),
        flamegraph: None,
        truncate_description: Some(DEFAULT_TRUNCATE),
        entry_point: None,
        timeout: None,
        stall_limit: DEFAULT_STALL_LIMIT,
        separate_threads: false,
        callgrind_format: None,
        callgrind_enable: None,
        tolerance: None,
        show_grid: false,
        default_tool: BUILT_IN_DEFAULT_TOOL,
        valgrind_args: Vec::new(),
        sandbox: None,
        current_dir: None,
        perf: None,
        perf_run: None,
    };
    let mut valgrind_args = Vec::new();
    for level in levels.into_iter().flatten() {
        fold(&mut out, level);
        valgrind_args.extend(level.compat.valgrind_args.iter().cloned());
    }
    // Valgrind's core arguments come first, so that tool arguments can still override them.
    for tool in &mut out.tools {
        tool.args.splice(0..0, valgrind_args.iter().cloned());
    }
    out.raw_callgrind_args
        .splice(0..0, valgrind_args.iter().cloned());
    out.valgrind_args = valgrind_args;
    // The limits of other tools' values (`Dhat::soft_limits`, ...), merged over the limits of
    // the levels. Not Cachegrind's: they name the same events as Callgrind's, and apply to
    // Cachegrind's counts alone (checked where Cachegrind runs).
    for tool in out
        .tools
        .iter()
        .filter(|t| t.kind() != ValgrindTool::Cachegrind)
    {
        if let Some(value) =
            (tool.value.as_deref()).filter(|v| v.has_limits || v.limits.fail_fast.is_some())
        {
            let regression = out.regression.get_or_insert_with(RegressionConfig::default);
            regression.merge(&value.limits);
            out.regression_fail_fast = regression.is_fail_fast();
        }
    }
    out
}

/// One level over the more general ones folded so far.
fn fold(out: &mut ResolvedConfig, level: &LibraryBenchmarkConfig) {
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
        out.regression_fail_fast = regression.is_fail_fast();
        out.regression = Some(regression.clone());
    }
    // Limits of tool values merge with the more general levels' (a `RegressionConfig` above
    // replaced them whole).
    if let Some(limits) = &level.values.limits {
        let regression = out.regression.get_or_insert_with(RegressionConfig::default);
        regression.merge(limits);
        out.regression_fail_fast = regression.is_fail_fast();
    }
    if level.values.callgrind_format.is_some() {
        out.callgrind_format
            .clone_from(&level.values.callgrind_format);
    }
    if level.values.callgrind_enable.is_some() {
        out.callgrind_enable = level.values.callgrind_enable;
    } else if level.values.callgrind_given && out.callgrind_enable.is_none() {
        // A Callgrind value configures Callgrind, so it runs; a general level's `enable(false)`
        // stays until a level turns it on again.
        out.callgrind_enable = Some(true);
    }
    if let Some(tool) = level.values.default_tool {
        out.default_tool = tool;
    }
    if level.values.sandbox.is_some() {
        out.sandbox.clone_from(&level.values.sandbox);
    }
    if level.values.current_dir.is_some() {
        out.current_dir.clone_from(&level.values.current_dir);
    }
    // `tool_override` replaces the tools of the more general levels and this level's `tool`s.
    let tools = match &level.compat.tools_override {
        Some(tools) => {
            out.tools.clear();
            tools
        }
        None => &level.tools,
    };
    for tool in tools {
        // A value (iai-callgrind 0.15+, gungraun) merges into the tool of its kind; a 0.13
        // `Tool` replaces it.
        match out.tools.iter_mut().find(|t| t.kind() == tool.kind()) {
            Some(general) if tool.value.is_some() => general.merge(tool),
            _ => {
                out.tools.retain(|t| t.kind() != tool.kind());
                out.tools.push(tool.clone());
            }
        }
    }
    if let Some(perf) = &level.perf {
        match &mut out.perf {
            Some(general) => general.merge(perf),
            None => out.perf = Some(perf.clone()),
        }
    }
    if let Some(flamegraph) = &level.flamegraph {
        out.flamegraph = Some(flamegraph.clone());
    }
    if let Some(timeout) = level.timeout {
        out.timeout = Some(timeout);
    }
    if let Some(separate) = level.separate_threads {
        out.separate_threads = separate;
    }
    if let Some(truncate) = level.compat.truncate_description {
        out.truncate_description = truncate;
    }
    if let Some(entry_point) = &level.compat.entry_point {
        out.entry_point = Some(entry_point.clone());
    }
    if level.compat.tolerance.is_some() {
        out.tolerance = level.compat.tolerance;
    }
    if let Some(grid) = level.compat.show_grid {
        out.show_grid = grid;
    }
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
        assert_eq!(random(&[]), (true, DEFAULT_SEED));
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
    fn limits_of_tool_values_join_the_regression_config_but_cachegrinds() {
        use crate::config::{Cachegrind, CachegrindMetric, Dhat, DhatMetric, ToolMetric};
        let mut main = LibraryBenchmarkConfig::default();
        main.tool(Dhat::default().soft_limits([(DhatMetric::TotalBytes, 3.0)]))
            .tool(Cachegrind::default().soft_limits([(CachegrindMetric::Ir, 1.0)]));
        let r = resolve([Some(&main)]);
        let regression = r.regression.unwrap();
        assert_eq!(regression.tool_limits, [(ToolMetric::TotalBytes, 3.0)]);
        assert!(regression.limits.is_empty());
    }

    #[test]
    fn callgrind_runs_as_default_tool_or_when_given_and_not_turned_off() {
        use crate::config::{Callgrind, ValgrindTool};
        let runs = |levels: &[&LibraryBenchmarkConfig]| {
            resolve(levels.iter().copied().map(Some)).runs_callgrind()
        };
        let mut dhat = LibraryBenchmarkConfig::default();
        dhat.default_tool(ValgrindTool::DHAT);
        let mut given = LibraryBenchmarkConfig::default();
        given.tool(Callgrind::with_args(["--dump-instr=yes"]));
        let mut off = LibraryBenchmarkConfig::default();
        off.tool(Callgrind::default().enable(false));
        let mut on = LibraryBenchmarkConfig::default();
        on.tool(Callgrind::default().enable(true));
        assert_eq!(runs(&[]), BUILT_IN_DEFAULT_TOOL == ValgrindTool::Callgrind);
        assert!(!runs(&[&dhat]));
        assert!(runs(&[&given, &dhat]) && runs(&[&dhat, &given]));
        assert!(!runs(&[&off]) && !runs(&[&off, &given]) && !runs(&[&given, &off]));
        assert!(runs(&[&off, &on]) && runs(&[&dhat, &on]));
    }

    #[test]
    fn a_specific_levels_tool_replaces_the_general_one() {
        use crate::config::ValgrindTool;
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
}
