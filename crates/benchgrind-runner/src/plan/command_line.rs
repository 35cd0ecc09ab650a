//! The command line, the last and most specific level of every benchmark's configuration: folded
//! once, when the job is planned, so that executors and the harness read `job.config` alone (as
//! the code's levels are folded in [`crate::config::resolve`]). A flag that overrides or adds to
//! a configuration value is parsed in `cli` and folded here, and nowhere else needs to know it.

use crate::cli::Cli;
use crate::config::ValgrindTool;
use crate::config::{selected, AnyMetric, RegressionConfig, ResolvedConfig, ToolMetric};

/// Folds what the command line says over a benchmark's configuration from the code.
pub(super) fn fold(config: &mut ResolvedConfig, cli: &Cli) {
    if let Some(on) = cli.deterministic_random {
        config.deterministic_random = on;
    }
    config.random_seed = cli.random_seed.unwrap_or(config.random_seed);
    config.timeout = cli.timeout.unwrap_or(config.timeout);
    config.separate_threads = cli.separate_threads.unwrap_or(config.separate_threads);
    config.tools = selected(&config.tools, &cli.tools);
    // Valgrind's core arguments for every tool, after the code's: the command line wins.
    for args in std::iter::once(&mut config.raw_callgrind_args)
        .chain(config.tools.iter_mut().map(|t| &mut t.args))
    {
        args.extend(cli.valgrind_args.iter().cloned());
    }
    config
        .raw_callgrind_args
        .extend(cli.callgrind_args.iter().cloned());
    if let Some(regression) = &cli.regression {
        config.regression_fail_fast = regression.is_fail_fast();
        config.regression = Some(regression.clone());
    }
    fold_limits(config, cli);
    if let Some(fail_fast) = cli.regression_fail_fast {
        config.regression_fail_fast = fail_fast;
    }
    fold_report(config, cli);
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
        use crate::config::spec_text;
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
        assert_eq!(config.tools[1].args, ["--time-stamp=no"]);
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
}
