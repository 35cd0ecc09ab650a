//! Google Benchmark's `--benchmark_out` in the run: the file's directory checked before
//! anything runs, the reporter that collects the run ([`crate::report::gbench::BenchmarkOut`]),
//! and the JSON context, built after the run from what only the harness knows: the Valgrind
//! that ran, the CPU it shows the bench binary (asked once per machine and Valgrind with
//! [`crate::fingerprint::PROBE_FLAG`]), the cache arguments of the plan's Callgrind command
//! line and how this binary was built.

use crate::error::Problem;
use crate::problem;
use std::path::PathBuf;

use crate::cli::Cli;
use crate::execute::valgrind::cpu_under_valgrind;
use crate::execute::{args::callgrind_args, Mode, Setup};
use crate::plan::Plan;
use crate::report::gbench::{context, BenchmarkOut, Context};

/// What a JSON file says of how its counts were taken.
const COUNTING: &str = "one call of each benchmark: a library benchmark's function between \
benchgrind's client requests (its setup and teardown outside), a binary benchmark's command as \
configured";

/// Fails when the `--benchmark_out` file's directory does not exist: before anything runs.
pub(super) fn check(cli: &Cli) -> Result<(), Problem> {
    let Some(path) = &cli.benchmark_out else {
        return Ok(());
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir.filter(|d| !d.is_dir()) {
        return Err(problem!(
            "--benchmark_out={}: the directory {} does not exist; create it or write elsewhere",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// The `--benchmark_out` reporter and its file, when asked for ([`check`]ed). The JSON context
/// is made at the end of the run, when the reporter asks for it.
pub(super) fn reporter<'a>(
    plan: &'a Plan,
    cli: &'a Cli,
    setup: &'a Setup,
) -> Result<Option<(BenchmarkOut<'a>, PathBuf)>, Problem> {
    check(cli)?;
    let Some(path) = &cli.benchmark_out else {
        return Ok(None);
    };
    let date = context::local_date();
    let context = move || context(plan, cli, setup, date);
    let out = BenchmarkOut::new(
        path,
        cli.benchmark_out_format,
        cli.benchmark_metric(),
        Box::new(context),
    );
    Ok(Some((out, path.clone())))
}

/// The JSON context of a run that started at `date`. Valgrind's version and CPU are left
/// empty when the run used no Valgrind (canned profiles) or it cannot be found.
fn context(plan: &Plan, cli: &Cli, setup: &Setup, date: String) -> Context {
    let valgrind = match setup.mode {
        Mode::Valgrind(_) | Mode::Nothing => setup.valgrind.as_ref(),
        Mode::Native | Mode::Canned(_) => None,
    };
    let (version, cpu) = match valgrind {
        Some(v) => (v.name(), cpu_under_valgrind(v, &setup.exe, &plan.home)),
        None => (String::new(), String::new()),
    };
    let args = plan.jobs.first().map(callgrind_args).unwrap_or_default();
    Context {
        date,
        host_name: context::host_name(),
        executable: setup.exe.display().to_string(),
        cpu,
        library_build_type: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
        .to_owned(),
        valgrind: version,
        cache_args: context::cache_args(&args),
        metric: cli.benchmark_metric(),
        counting: COUNTING.to_owned(),
    }
}
