//! Running the other tools on one benchmark after Callgrind: one Valgrind process per tool,
//! then the same steps as for Callgrind (read what to compare with first, run, read the new
//! files, rotate them into place, save a baseline, check limits).

use crate::cli::Cli;
use crate::compare::regression::check;
use crate::config::{RegressionConfig, Tool, ValgrindTool};
use crate::execute::{Executor, RunOutput, Status};
use crate::messages;
use crate::metrics::Metrics;
use crate::metrics::{add_children, describe_errors, dhat_second_ballast, read_metrics, Context};
use crate::plan::{Job, JobKind};
use crate::result::{EventValues, Source, ToolOutcome, ToolResult};
use crate::store::Which;

use super::baseline::{old_file, promote_and_save};

/// Runs every tool the benchmark's configuration and `--tools` ask for.
pub fn run_all(
    job: &Job,
    cli: &Cli,
    executor: &mut dyn Executor,
    compare_with: &Source,
    regression: Option<&RegressionConfig>,
    reused: bool,
) -> Vec<ToolResult> {
    job.config
        .tools
        .iter()
        .map(|tool| {
            let ran = Ran {
                executor: &mut *executor,
                reused,
            };
            run_one(job, cli, ran, tool, compare_with, regression)
        })
        .collect()
}

/// What runs a tool: the executor, or nothing when the benchmark's last results are reused.
struct Ran<'a> {
    executor: &'a mut dyn Executor,
    reused: bool,
}

/// Runs the tool; under DHAT a library benchmark runs with a one-byte ballast around its
/// window, and once more with a ballast larger than the first run's global peak if that peak
/// fell outside the window (see [`crate::protocol::DHAT_BALLAST_ENV`]).
fn run(
    job: &Job,
    executor: &mut dyn Executor,
    tool: &Tool,
    new_file: &std::path::Path,
) -> RunOutput {
    if tool.kind() != ValgrindTool::DHAT || !matches!(job.kind, JobKind::Library(_)) {
        return executor.run_tool(job, tool);
    }
    let first = executor.run_tool(job, &tool.with_ballast(1));
    if first.status != Status::Ok {
        return first;
    }
    match dhat_second_ballast(new_file) {
        Some(ballast) => {
            messages::debug!(
                "{}: DHAT's peak fell outside the window; again with a ballast of {ballast} bytes",
                job.id.full()
            );
            executor.run_tool(job, &tool.with_ballast(ballast))
        }
        None => first,
    }
}

fn run_one(
    job: &Job,
    cli: &Cli,
    ran: Ran,
    tool: &Tool,
    compare_with: &Source,
    regression: Option<&RegressionConfig>,
) -> ToolResult {
    let kind = tool.kind();
    let paths = &job.paths;
    let save = cli.save_baseline.as_deref();
    // A library benchmark's function, a binary benchmark's entry point, or (empty) the whole
    // process of a binary benchmark.
    let function = match &job.kind {
        JobKind::Binary(binary) => binary.entry_point.as_deref().unwrap_or(""),
        JobKind::Library(_) => job.function_path,
    };
    let cx = Context { function };
    let metrics_file = kind.metrics_file();
    // What to compare with, read before the run replaces it; an unreadable old file only
    // means there is nothing to compare with.
    // Its child processes' files are the previous run's until this run replaces them.
    let children = paths.dir.join(crate::execute::parts::CHILDREN);
    let old = old_file(paths, &metrics_file, compare_with)
        .and_then(|p| read_metrics(kind, &p, cx).ok())
        .map(|mut old| {
            if *compare_with == Source::PreviousRun {
                add_children(kind, &children, &metrics_file, cx, &mut old);
            }
            old
        });

    let old_events = (kind == ValgrindTool::Cachegrind)
        .then(|| old_file(paths, &metrics_file, compare_with))
        .flatten()
        .and_then(|p| read_events(&p));

    let new_file = paths.file(&metrics_file, Which::New);
    let output = if ran.reused {
        // Its last files, put in place of a run's.
        let status = match job.paths.current_as_new(&kind.files()) {
            Ok(()) => Status::Ok,
            Err(e) => Status::Failed(format!("its last results could not be reused: {e}")),
        };
        RunOutput {
            status,
            duration: std::time::Duration::ZERO,
            output: Default::default(),
            reuse: Default::default(),
        }
    } else {
        run(job, ran.executor, tool, &new_file)
    };
    let new_events = (kind == ValgrindTool::Cachegrind)
        .then(|| read_events(&new_file))
        .flatten();
    let new = read_metrics(kind, &new_file, cx).map(|mut new| {
        add_children(kind, &children, &metrics_file, cx, &mut new);
        new
    });
    let mut result = ToolResult {
        tool: kind,
        outcome: ToolOutcome::Failed {
            reason: String::new(),
            new: None,
        },
        regressions: Vec::new(),
        out: kind.out_file().map(|f| paths.file(f, Which::New)),
        log: paths.file(&kind.log_file(), Which::New),
        events: None,
    };
    match (output.status, new) {
        (Status::Failed(how), new) => {
            let reason = match &new {
                Ok(metrics) if kind.reports_errors() => describe_errors(kind, metrics, &how),
                _ => format!("{} {how}", kind.title()),
            };
            result.outcome = ToolOutcome::Failed {
                reason,
                new: new.ok(),
            };
        }
        (Status::Ok, Err(e)) => {
            result.outcome = ToolOutcome::Failed {
                reason: format!("{}: {e}", kind.title()),
                new: None,
            };
        }
        (Status::Ok, Ok(new)) => {
            match promote_and_save(paths, &kind.files(), &metrics_file, save) {
                Ok(()) => {
                    result.out = kind.out_file().map(|f| paths.file(f, Which::Current));
                    result.log = paths.file(&kind.log_file(), Which::Current);
                    if let Some(config) = regression {
                        result.regressions = check(config, &new, old.as_ref());
                    }
                    if let Some(new) = new_events {
                        let limits = tool.value.as_deref().filter(|v| v.has_limits);
                        let regressions = limits
                            .map(|v| check(&v.limits, &new, old_events.as_ref()))
                            .unwrap_or_default();
                        result.events = Some(EventValues {
                            new,
                            old: old_events,
                            regressions,
                        });
                    }
                    result.outcome = ToolOutcome::Ran { new, old };
                }
                Err(reason) => {
                    result.outcome = ToolOutcome::Failed {
                        reason: reason.into(),
                        new: Some(new),
                    }
                }
            }
        }
    }
    result
}

/// Cachegrind's counts from its file, as Callgrind's metrics; `None` when it cannot be read.
fn read_events(path: &std::path::Path) -> Option<Metrics> {
    let profile = crate::parse::profile::parse_file(path, crate::parse::profile::Read::Totals);
    profile.ok().map(|p| Metrics::from_profile(&p))
}
