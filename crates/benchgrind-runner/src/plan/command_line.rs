//! The command line, the last and most specific level of every benchmark's configuration: folded
//! once, when the job is planned, so that executors and the harness read `job.config` alone (as
//! the code's levels are folded in [`crate::config::resolve`]). A flag that overrides or adds to
//! a configuration value is parsed in `cli` and folded here, and nowhere else needs to know it.

use crate::cli::Cli;
use crate::config::{
    selected, AnyMetric, RegressionConfig, ResolvedConfig, Tool, ToolMetric, ValgrindTool,
};

/// Folds what the command line says over a benchmark's configuration from the code.
pub(super) fn fold(config: &mut ResolvedConfig, cli: &Cli) {
    if let Some(on) = cli.deterministic_random {
        config.deterministic_random = on;
    }
    config.random_seed = cli.random_seed.unwrap_or(config.random_seed);
    config.timeout = cli.timeout.or(config.timeout);
    config.stall_limit = cli.stall_limit.unwrap_or(config.stall_limit);
    config.separate_threads = cli.separate_threads.unwrap_or(config.separate_threads);
    config.default_tool = cli.default_tool.unwrap_or(config.default_tool);
    let callgrind_listed = cli.tools.contains(&ValgrindTool::Callgrind);
    let others: Vec<ValgrindTool> = cli
        .tools
        .iter()
        .copied()
        .filter(|t| *t != ValgrindTool::Callgrind)
        .collect();
    let code_tools = std::mem::take(&mut config.tools);
    config.tools = selected(&code_tools, &others);
    default_tool_first(config, &code_tools);
    // The tools the code did not configure start with its Valgrind core arguments too.
    for tool in &mut config.tools {
        if !code_tools.iter().any(|t| t.kind == tool.kind) {
            tool.args.splice(0..0, config.valgrind_args.iter().cloned());
        }
    }
    // Callgrind runs when it is the default tool (unless a level turned it off), when a level
    // turned it on, or when `--tools` names it.
    config.callgrind_enable = Some(callgrind_listed || config.runs_callgrind());
    // Valgrind's core arguments for every tool, after the code's: the command line wins.
    for args in std::iter::once(&mut config.raw_callgrind_args)
        .chain(config.tools.iter_mut().map(|t| &mut t.args))
    {
        args.extend(cli.valgrind_args.iter().cloned());
    }
    config
        .raw_callgrind_args
        .extend(cli.callgrind_args.iter().cloned());
    // Each tool's `--*-args` after everything else given to that tool.
    for (kind, args) in &cli.tool_args {
        for tool in config.tools.iter_mut().filter(|t| t.kind == *kind) {
            tool.args.extend(args.iter().cloned());
        }
    }
    if let Some(clear) = cli.env_clear {
        config.env_clear = clear;
    }
    for (key, value) in &cli.envs {
        config
            .envs
            .push((key.into(), value.as_ref().map(|v| v.into())));
    }
    if let Some(truncate) = cli.truncate_description {
        config.truncate_description = truncate;
    }
    if let Some(regression) = &cli.regression {
        config.regression_fail_fast = regression.is_fail_fast();
        config.regression = Some(regression.clone());
    }
    fold_limits(config, cli);
    // Over whatever limits the levels and flags set; without limits there is nothing to fire.
    if let (Some(on), Some(regression)) = (cli.limit_layout, config.regression.as_mut()) {
        regression.limit_layout(on);
    }
    if let Some(fail_fast) = cli.regression_fail_fast {
        config.regression_fail_fast = fail_fast;
    }
    fold_report(config, cli);
    // Perf samples nothing where a baseline is loaded or in test mode (nothing runs).
    config.perf_run = if cli.load_baseline.is_some() || cli.test_mode {
        None
    } else {
        crate::config::perf::run::PerfRun::resolve(config.perf.as_ref(), &cli.perf)
    };
}

/// `--callgrind-limits` and `--dhat-limits`: each replaces the limits on its tool's metrics,
/// whether from the code or `--regression` (`--cachegrind-limits` replaces those of the
/// Cachegrind value, in [`fold_report`]).
fn fold_limits(config: &mut ResolvedConfig, cli: &Cli) {
    if cli.callgrind_limits.is_none() && cli.dhat_limits.is_none() {
        return;
    }
    let regression = config
        .regression
        .get_or_insert_with(RegressionConfig::default);
    if let Some(limits) = &cli.callgrind_limits {
        regression.limits.clear();
        regression.hard_limits.clear();
        (regression.float_hard_limits).retain(|(m, _)| !matches!(m, AnyMetric::Event(_)));
        regression.merge(limits);
    }
    if let Some(limits) = &cli.dhat_limits {
        let dhat = |m: &ToolMetric| ToolMetric::DHAT.contains(m);
        regression.tool_limits.retain(|(m, _)| !dhat(m));
        regression.tool_hard_limits.retain(|(m, _)| !dhat(m));
        (regression.float_hard_limits).retain(|(m, _)| !matches!(m, AnyMetric::Tool(t) if dhat(t)));
        regression.merge(limits);
    }
}

/// What the report shows: the metrics by tool, the tolerance, the grid; and Cachegrind's limits,
/// kept with its value.
fn fold_report(config: &mut ResolvedConfig, cli: &Cli) {
    if let Some(metrics) = &cli.callgrind_metrics {
        config.callgrind_format = Some(metrics.clone());
    }
    if let Some(tool) = (config.tools.iter_mut()).find(|t| t.kind() == ValgrindTool::Cachegrind) {
        let value = tool.value.get_or_insert_with(Default::default);
        if let Some(metrics) = &cli.cachegrind_metrics {
            value.format = Some(metrics.iter().map(|&e| AnyMetric::Event(e)).collect());
        }
        if let Some(limits) = &cli.cachegrind_limits {
            value.limits = limits.clone();
            value.has_limits = true;
        }
    }
    for (kind, metrics) in &cli.tool_metrics {
        if let Some(tool) = config.tools.iter_mut().find(|t| t.kind() == *kind) {
            let value = tool.value.get_or_insert_with(Default::default);
            value.format = Some(metrics.iter().map(|&m| AnyMetric::Tool(m)).collect());
        }
    }
    if cli.tolerance.is_some() {
        config.tolerance = cli.tolerance;
    }
    config.show_grid = cli.show_grid.unwrap_or(config.show_grid);
}

/// A default tool other than Callgrind runs, first, with what the code configured for it (on
/// even where a level turned it off).
fn default_tool_first(config: &mut ResolvedConfig, code_tools: &[Tool]) {
    let kind = config.default_tool;
    if kind == ValgrindTool::Callgrind {
        return;
    }
    let tool = match config.tools.iter().position(|t| t.kind == kind) {
        Some(i) => config.tools.remove(i),
        None => code_tools
            .iter()
            .find(|t| t.kind == kind)
            .map_or_else(|| Tool::new(kind), |t| t.clone().enable(true)),
    };
    config.tools.insert(0, tool);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{resolve, EventKind, LibraryBenchmarkConfig, RegressionConfig, Tool};
    use crate::config::{ValgrindTool, DEFAULT_SEED};

    fn from_code() -> ResolvedConfig {
        let mut code = LibraryBenchmarkConfig::default();
        let mut limits = RegressionConfig::default();
        limits.limits([(EventKind::Ir, 1.0)]).fail_fast(true);
        code.raw_callgrind_args(["--dump-instr=yes"])
            .valgrind_args(["--time-stamp=yes"])
            .tool(Tool::new(ValgrindTool::DHAT).args(["--mode=heap"]))
            .tool(Tool::new(ValgrindTool::Memcheck).enable(false))
            .regression(limits);
        resolve([Some(&code)])
    }

    #[test]
    fn limit_layout_folds_over_the_code_s_limits_and_makes_none() {
        let mut config = from_code();
        assert!(!config.regression.as_ref().unwrap().limits_layout());
        let cli = Cli {
            limit_layout: Some(true),
            ..Cli::default()
        };
        fold(&mut config, &cli);
        assert!(config.regression.as_ref().unwrap().limits_layout());
        // Without limits there is nothing to fire: no limit is made for it.
        let mut config = resolve([None]);
        fold(&mut config, &cli);
        assert_eq!(config.regression, None);
    }

    #[test]
    fn nothing_on_the_command_line_leaves_the_code_s_values() {
        let mut config = from_code();
        fold(&mut config, &Cli::default());
        assert_eq!(
            config.raw_callgrind_args,
            ["--time-stamp=yes", "--dump-instr=yes"]
        );
        // The disabled tool is gone; the other keeps its arguments.
        assert_eq!(config.tools.len(), 1);
        assert_eq!(config.tools[0].args, ["--time-stamp=yes", "--mode=heap"]);
        assert!(config.regression_fail_fast);
        assert_eq!(config.random_seed, DEFAULT_SEED);
    }

    #[test]
    fn limits_by_tool_replace_that_tools_and_report_flags_fold() {
        use crate::config::tool_metrics::text as spec_text;
        let mut config = from_code();
        let cli = Cli {
            callgrind_limits: Some(spec_text::callgrind_limits("ir=10000").unwrap()),
            dhat_limits: Some(spec_text::dhat_limits("tb=5%").unwrap()),
            callgrind_metrics: Some(vec![EventKind::I1MissRate]),
            tool_metrics: vec![(ValgrindTool::DHAT, vec![ToolMetric::TotalBytes])],
            tolerance: Some(2.0),
            show_grid: Some(true),
            ..Cli::default()
        };
        fold(&mut config, &cli);
        let r = config.regression.as_ref().unwrap();
        assert!(r.limits.is_empty(), "the code's Ir limit is replaced");
        assert_eq!(r.hard_limits, [(EventKind::Ir, 10_000)]);
        assert_eq!(r.tool_limits, [(ToolMetric::TotalBytes, 5.0)]);
        assert!(config.regression_fail_fast, "fail_fast stays the code's");
        assert_eq!(config.callgrind_format, Some(vec![EventKind::I1MissRate]));
        let format = config.tools[0].value.as_ref().unwrap().format.clone();
        assert_eq!(format, Some(vec![AnyMetric::Tool(ToolMetric::TotalBytes)]));
        assert_eq!((config.tolerance, config.show_grid), (Some(2.0), true));
    }

    #[test]
    fn the_command_line_comes_last_and_wins() {
        let mut config = from_code();
        let cli = Cli {
            callgrind_args: vec!["--dump-instr=no".into()],
            valgrind_args: vec!["--time-stamp=no".into()],
            tools: vec![ValgrindTool::Memcheck, ValgrindTool::Massif],
            regression: Some("ir=5%".parse().unwrap()),
            random_seed: Some(7),
            ..Cli::default()
        };
        fold(&mut config, &cli);
        assert_eq!(
            config.raw_callgrind_args,
            [
                "--time-stamp=yes",
                "--dump-instr=yes",
                "--time-stamp=no",
                "--dump-instr=no"
            ]
        );
        // Memcheck stays disabled by the code; Massif is added, with the core arguments.
        let kinds: Vec<ValgrindTool> = config.tools.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, [ValgrindTool::DHAT, ValgrindTool::Massif]);
        assert_eq!(
            config.tools[0].args,
            ["--time-stamp=yes", "--mode=heap", "--time-stamp=no"]
        );
        // Massif, which the code does not configure, gets the code's core arguments first.
        assert_eq!(
            config.tools[1].args,
            ["--time-stamp=yes", "--time-stamp=no"]
        );
        // `--regression` replaces the code's limits and their fail_fast.
        assert!(!config.regression_fail_fast);
        assert_eq!(config.random_seed, 7);
        let cli = Cli {
            regression_fail_fast: Some(true),
            ..cli
        };
        let mut config = from_code();
        fold(&mut config, &cli);
        assert!(config.regression_fail_fast);
    }

    #[test]
    fn another_default_tool_runs_first_and_callgrind_only_when_asked() {
        let mut config = from_code();
        let cli = Cli {
            default_tool: Some(ValgrindTool::Massif),
            tool_args: vec![(ValgrindTool::Massif, vec!["--stacks=yes".into()])],
            ..Cli::default()
        };
        fold(&mut config, &cli);
        let kinds: Vec<ValgrindTool> = config.tools.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, [ValgrindTool::Massif, ValgrindTool::DHAT]);
        assert_eq!(config.tools[0].args, ["--time-stamp=yes", "--stacks=yes"]);
        assert!(!config.runs_callgrind());
        // `--tools=callgrind` brings it back; the code's disabled Memcheck as default tool runs.
        let mut config = from_code();
        let cli = Cli {
            default_tool: Some(ValgrindTool::Memcheck),
            tools: vec![ValgrindTool::Callgrind],
            ..Cli::default()
        };
        fold(&mut config, &cli);
        assert!(config.runs_callgrind());
        assert_eq!(config.tools[0].kind, ValgrindTool::Memcheck);
        // Callgrind's `enable(false)` in the code.
        let mut config = from_code();
        config.callgrind_enable = Some(false);
        fold(&mut config, &Cli::default());
        assert!(!config.runs_callgrind());
        let mut config = from_code();
        fold(&mut config, &Cli::default());
        assert!(config.runs_callgrind());
    }

    #[test]
    fn environment_and_header_flags_fold_over_the_code() {
        let mut config = from_code();
        let cli = Cli {
            env_clear: Some(false),
            envs: vec![("A".into(), Some("1".into())), ("B".into(), None)],
            truncate_description: Some(None),
            ..Cli::default()
        };
        fold(&mut config, &cli);
        assert!(!config.env_clear);
        assert_eq!(
            config.envs,
            [("A".into(), Some("1".into())), ("B".into(), None)]
        );
        assert_eq!(config.truncate_description, None);
    }
}
