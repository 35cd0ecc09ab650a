//! The pipeline of a bench binary, end to end, and the only module that knows every stage: the
//! command line ([`crate::cli`]), the plan ([`crate::plan`]), the executors
//! ([`crate::execute`]), each benchmark measured and related to its previous run ([`bench`]:
//! [`crate::parse`], [`crate::metrics`], [`crate::compare`]), the report ([`crate::report`]) and
//! the exit code. `main!` calls [`run`]; the same binary, started with a flag of
//! [`crate::protocol`], is a measured process or a hook ([`crate::measured`]).

mod baseline;
mod bench;
mod benchmark_out;
mod checks;
mod emit;
mod explain;
mod perf;
mod phases;
mod replay;
mod spread;
mod test_mode;
mod toggles;
mod tools;
mod units;

use crate::error::Problem;
use crate::problem;
pub use phases::execute_plan;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::cli::{self, Cli, NoMatch, ReportFormat};
use crate::error::Error;
use crate::execute::reuse::{self, Records};
use crate::execute::{self, Mode, Setup};
use crate::messages;
use crate::plan::{self, Plan};
use crate::report::progress::Progress;
use crate::report::{self, Reporters, RunSummary, Target};
use crate::spec::Main;
use crate::store;

/// Exit codes, decided in one place (`exit_code`, one `match`).
pub mod exit {
    /// Every benchmark measured, no limit passed.
    pub const OK: i32 = 0;
    /// A benchmark failed, or another error.
    pub const ERROR: i32 = 1;
    /// Bad command line or environment.
    pub const USAGE: i32 = 2;
    /// A regression limit was passed.
    pub const REGRESSION: i32 = 3;
    /// A benchmark was not compared with a baseline of its own machine and revision
    /// (`--uncompared=fail`).
    pub const UNCOMPARED: i32 = 4;
    /// Interrupted by Ctrl-C (SIGINT), as shells report a process ended by it.
    pub const SIGINT: i32 = 130;
    /// Stopped by SIGTERM.
    pub const SIGTERM: i32 = 143;
}

/// How a run ended.
enum End {
    /// Nothing went wrong (also `--help`, `--list`, nothing selected).
    Ok,
    /// An error before or instead of measuring (a bad command line included).
    Error(Error),
    /// A benchmark failed (reported already).
    Failed,
    /// A limit was passed (reported already).
    Regressed,
    /// A benchmark had no baseline of its own machine and revision, with `--uncompared=fail`.
    Uncompared,
    /// Ctrl-C or SIGTERM ended the run (the benchmarks not run listed already): the signal.
    Interrupted(i32),
}

/// Runs the bench binary: a hook process or measured process when started as one, else the
/// harness.
pub fn run(main: Main) -> ! {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let end = match crate::measured::hook::hook(&main, &args) {
        Some(Ok(())) => End::Ok,
        Some(Err(e)) => {
            messages::error!("{e}");
            End::Failed
        }
        None => {
            let stdout = std::io::stdout();
            let env = |key: &str| std::env::var(key).ok();
            harness(&main, &args, &env, &mut stdout.lock(), true).unwrap_or_else(End::Error)
        }
    };
    let code = exit_code(end);
    let _ = std::io::stdout().flush();
    std::process::exit(code)
}

/// The harness with the arguments (without the program name), the environment and the output
/// given: what [`run`] does in the bench binary, short of exiting; returns the exit code. The
/// pipeline tests run it with the canned executor (`BENCHGRIND_CANNED`).
pub fn run_with(
    main: &Main,
    args: &[OsString],
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
) -> i32 {
    let end = harness(main, args, env, out, false).unwrap_or_else(End::Error);
    let _ = out.flush();
    exit_code(end)
}

/// The exit code of a run, with the message of an error.
fn exit_code(end: End) -> i32 {
    match end {
        End::Ok => exit::OK,
        End::Error(Error::Usage(message)) => {
            messages::error!("{message}");
            exit::USAGE
        }
        End::Error(error) => {
            messages::error!("{error}");
            exit::ERROR
        }
        End::Failed => exit::ERROR,
        End::Regressed => exit::REGRESSION,
        End::Uncompared => exit::UNCOMPARED,
        End::Interrupted(libc::SIGTERM) => exit::SIGTERM,
        End::Interrupted(_) => exit::SIGINT,
    }
}

/// What an interrupted run says: the signal and the benchmarks it left out.
fn interrupted_message(signal: i32, not_run: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut message = format!(
        "stopped by {}; the benchmarks that finished kept their results; {} not run",
        execute::interrupt::name(signal),
        not_run.len()
    );
    for id in not_run.iter().take(SHOWN) {
        message.push_str(&format!("\n  not run: {id}"));
    }
    if not_run.len() > SHOWN {
        message.push_str(&format!("\n  ... and {} more", not_run.len() - SHOWN));
    }
    message
}

/// Parse, plan, execute, report into `out`; with `signals`, Ctrl-C and SIGTERM stop the run
/// ([`execute::interrupt`]).
fn harness(
    main: &Main,
    args: &[OsString],
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
    signals: bool,
) -> Result<End, Error> {
    let cli = match cli::parse(args, env) {
        Ok(cli) => cli,
        Err(e) => return Err(Error::Usage(e.report())),
    };
    messages::set_level(cli.log);
    if cli.help {
        let _ = write!(out, "{}", cli::usage());
        return Ok(End::Ok);
    }
    let exe = std::env::current_exe()
        .map_err(|e| problem!("cannot find the path of this bench binary: {e}"))?;
    let manifest_dir = PathBuf::from(main.manifest_dir);
    let plan = plan::plan(main, &cli, home(&cli, &exe, &manifest_dir))
        .map_err(|p| Error::Config(p.into()))?;
    if cli.list || cli.benchmark_list_tests {
        list(&plan, &cli, out);
        return Ok(End::Ok);
    }
    if plan.jobs.is_empty() {
        let (message, filtered) = nothing_to_run(main, &cli);
        if filtered && cli.no_match == NoMatch::Fail {
            let given: Vec<String> = (cli.filters.iter().map(|f| format!("`{f}`")))
                .chain(cli.skip.iter().map(|f| format!("--skip `{f}`")))
                .chain(
                    cli.benchmark_filter
                        .iter()
                        .map(|_| "--benchmark_filter".to_owned()),
                )
                .collect();
            return Err(Error::Config(format!(
                "{message} ({}); --list shows the benchmarks (--no-match=fail made this an error)",
                given.join(", ")
            )));
        }
        if filtered && cli.no_match == NoMatch::Pass {
            return Ok(End::Ok);
        }
        if cli.output_format == ReportFormat::Terminal && cli.output_file.is_none() {
            let _ = writeln!(out, "benchgrind: {message}");
        } else {
            // Stdout is a machine-readable report (no benchmark, no line).
            messages::note!("{message}");
        }
        return Ok(End::Ok);
    }
    // `cargo test --benches` runs bench targets without `--bench`: check, don't measure.
    let test_mode = cli.test_mode || (!cli.bench_flag && env("CARGO_PKG_NAME").is_some());
    let mode = if test_mode { Mode::Native } else { mode(&cli) };
    let choice = execute::valgrind::Choice {
        binary: cli.valgrind_bin.clone(),
        runner: match cli.tool_runner.as_slice() {
            [] => Vec::new(),
            given => [given, &cli.tool_runner_args].concat(),
        },
    };
    // Found once, for the run (`--load-baseline` names it in its reports where it is there).
    let valgrind = match &mode {
        Mode::Valgrind(_) if cfg!(target_os = "linux") => {
            Some(choice.locate().map_err(|p| Error::Valgrind(p.into()))?)
        }
        Mode::Nothing => choice.locate().ok(),
        _ => None,
    };
    let setup = Setup {
        mode,
        valgrind,
        allow_aslr: cli.allow_aslr,
        exe,
        cwd: manifest_dir,
        workspace_root: PathBuf::from(main.workspace_root),
        home: plan.home.clone(),
        log: cli.log,
        realtime: !cli.no_realtime,
        workers: cli
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(plan.jobs.len()),
    };
    if test_mode {
        if let Some(path) = &cli.benchmark_out {
            messages::note!(
                "test mode measures nothing; {} is not written",
                path.display()
            );
        }
        let records = Arc::new(Records::new(None, setup.cwd.clone(), plan.home.clone()));
        let mut executors =
            execute::executors(&setup, &records).map_err(|p| Error::Valgrind(p.into()))?;
        let passed = around(main, true, || {
            test_mode::run(main, &plan, executors[0].as_mut(), out)
        });
        return Ok(if passed { End::Ok } else { End::Failed });
    }
    if let Some(file) = &cli.perf_round {
        return perf_round(&plan, &setup, file);
    }
    if !cfg!(target_os = "linux") && matches!(setup.mode, Mode::Valgrind(_)) {
        return Err(Error::Valgrind(execute::not_linux()));
    }
    measure(main, &plan, &cli, &setup, out, signals)
}

/// `--perf-round=FILE`: one round of perf's sampling of every benchmark perf samples, the
/// round's means written to FILE; no Valgrind, no report, no stored results.
fn perf_round(plan: &Plan, setup: &Setup, file: &std::path::Path) -> Result<End, Error> {
    let records = Arc::new(Records::new(None, setup.cwd.clone(), plan.home.clone()));
    let mut executors =
        execute::executors(setup, &records).map_err(|p| Error::Valgrind(p.into()))?;
    perf::round(plan, executors[0].as_mut(), file).map_err(|p| Error::Files(p.into()))?;
    Ok(End::Ok)
}

/// A measured run of the plan: signals handled, this bench binary's lock held, and the end
/// of the run as its exit code says it.
fn measure(
    main: &Main,
    plan: &Plan,
    cli: &Cli,
    setup: &Setup,
    out: &mut dyn Write,
    signals: bool,
) -> Result<End, Error> {
    if signals {
        execute::interrupt::install();
    }
    // A `--benchmark_out` that cannot be written stops the run before anything is touched.
    benchmark_out::check(cli).map_err(|p| Error::Files(p.into()))?;
    let Some(_lock) = prepare(main, plan).map_err(|p| Error::Files(p.into()))? else {
        let ids: Vec<String> = plan.jobs.iter().map(|j| j.id.full()).collect();
        let signal = execute::interrupt::signal().unwrap_or(libc::SIGINT);
        messages::note!("{}", interrupted_message(signal, &ids));
        return Ok(End::Interrupted(signal));
    };
    let runs = cli.load_baseline.is_none();
    let summary = around(main, runs, || {
        measure_and_report(main, plan, cli, setup, out)
    })?;
    // Once per build, and only after a run that measured something (not one whose results
    // were all reused) and was not interrupted (which stops at once: reading the binary can take
    // a second).
    if runs && summary.measured > 0 && summary.interrupted.is_none() {
        if let Some(note) = units::note_once(&setup.exe, &plan.home, &setup.workspace_root) {
            messages::note!("{note}");
        }
    }
    Ok(if let Some(signal) = summary.interrupted {
        execute::interrupt::wait_for_killed(std::time::Duration::from_millis(500));
        messages::note!("{}", interrupted_message(signal, &summary.not_run));
        End::Interrupted(signal)
    } else if !summary.failed.is_empty() {
        End::Failed
    } else if !summary.regressions.is_empty() {
        End::Regressed
    } else if cli.uncompared_fails && !summary.uncompared.is_empty() {
        End::Uncompared
    } else {
        End::Ok
    })
}

/// `--list` as libtest (and nextest) reads it, or `--benchmark_list_tests` as Google
/// Benchmark prints it: one id per line.
fn list(plan: &Plan, cli: &Cli, out: &mut dyn Write) {
    if cli.ignored {
        return;
    }
    let suffix = if cli.list { ": benchmark" } else { "" };
    for job in &plan.jobs {
        let _ = writeln!(out, "{}{suffix}", job.id.full());
    }
}

/// Why a plan has no jobs: the filters selected none, or the bench file has no benchmarks (an
/// empty group, as iai-callgrind 0.10's `benchmark = |"my-exe", group| {}`); and whether
/// filters did it (`--no-match` decides about those; an empty share of `--partition` is not
/// one: a small file has them).
fn nothing_to_run(main: &Main, cli: &Cli) -> (String, bool) {
    let filtered =
        !cli.filters.is_empty() || !cli.skip.is_empty() || cli.benchmark_filter.is_some();
    if filtered || cli.partition.is_some() {
        let message = format!("no benchmark of {} matches the filter", main.bench_file);
        (message, filtered)
    } else {
        (format!("{} has no benchmarks", main.bench_file), false)
    }
}

/// `body` between `main!`'s `setup` and `teardown`, which run in the harness, not measured, and
/// only when benchmarks run (`runs`; not for `--load-baseline`).
fn around<T>(main: &Main, runs: bool, body: impl FnOnce() -> T) -> T {
    if let (true, Some(setup)) = (runs, main.setup) {
        setup();
    }
    let out = body();
    if let (true, Some(teardown)) = (runs, main.teardown) {
        teardown();
    }
    out
}

/// The root of the output files: `--home`, else below the target directory; per target triple
/// with `--separate-targets`.
fn home(cli: &Cli, exe: &std::path::Path, manifest_dir: &std::path::Path) -> PathBuf {
    let home = cli
        .home
        .clone()
        .unwrap_or_else(|| store::default_home(exe, manifest_dir));
    if cli.separate_targets {
        home.join(env!("BENCHGRIND_TARGET_TRIPLE"))
    } else {
        home
    }
}

/// The machine of this run: Valgrind, the CPU it shows the bench binary, and the rest.
fn machine(plan: &Plan, setup: &Setup) -> Option<crate::fingerprint::Fingerprint> {
    use crate::execute::valgrind::cpu_under_valgrind;
    use crate::fingerprint::Fingerprint;
    let valgrind = setup.valgrind.as_ref()?;
    let cpu = cpu_under_valgrind(valgrind, &setup.exe, &plan.home);
    let cache = crate::execute::args::CACHE_GEOMETRY.join(" ");
    Some(Fingerprint::local(&valgrind.name(), &cache, cpu).at_revision(&setup.workspace_root))
}

/// Before measuring: this bench binary's lock (waiting for another run that holds it; `None`
/// if interrupted meanwhile), a check that its directory can be written, then the leftovers of
/// killed runs removed.
fn prepare(main: &Main, plan: &Plan) -> Result<Option<store::lock::RunLock>, Problem> {
    let path = store::lock::path(&plan.home, main.package, main.bench_file);
    let waiting = &mut |pid: Option<u32>| {
        let pid = pid.map(|p| format!(" (pid {p})")).unwrap_or_default();
        messages::note!(
            "waiting for another benchmark run on {}{pid} to finish",
            path.parent().unwrap_or(&path).display()
        );
    };
    let give_up = || execute::interrupt::signal().is_some();
    let Some(lock) = store::lock::acquire(&path, waiting, &give_up)? else {
        return Ok(None);
    };
    store::check_writable(path.parent().unwrap_or(&plan.home))?;
    let removed = execute::leftovers::remove(&plan.home);
    if !removed.is_empty() {
        messages::note!(
            "removed {} directories left by runs that were killed",
            removed.len()
        );
    }
    Ok(Some(lock))
}

/// How the command line asks benchmarks to run.
fn mode(cli: &Cli) -> Mode {
    match (&cli.load_baseline, &cli.canned) {
        (Some(_), _) => Mode::Nothing,
        (None, Some(dir)) => Mode::Canned(dir.clone()),
        (None, None) => Mode::Valgrind(cli.isolation),
    }
}

/// Runs the plan on the executors `setup` asks for and reports it into `out`.
fn measure_and_report(
    main: &Main,
    plan: &Plan,
    cli: &Cli,
    setup: &Setup,
    out: &mut dyn Write,
) -> Result<RunSummary, Error> {
    let mut reporters = Reporters::new();
    reporters.push(
        report::reporter(cli.output_format, cli.color, cli.labels),
        cli.output_file.clone().map_or(Target::Stdout, Target::File),
    );
    if let Some((file, path)) = benchmark_out::reporter(plan, cli, setup)? {
        reporters.push(Box::new(file), Target::File(path));
    }
    let fingerprint = match setup.mode {
        Mode::Valgrind(_) => machine(plan, setup),
        _ => None,
    };
    // Records of inputs name the machine; not the revision, which moves with every commit.
    let run = fingerprint
        .as_ref()
        .zip(setup.valgrind.as_ref())
        .map(|(f, valgrind)| reuse::Run::new(f.key(), cli.isolation, valgrind.clone()));
    let records = Arc::new(Records::new(run, setup.cwd.clone(), plan.home.clone()));
    let mut executors =
        execute::executors(setup, &records).map_err(|p| Error::Valgrind(p.into()))?;
    let progress = Progress::new(
        cli.output_format == ReportFormat::Terminal && std::io::stderr().is_terminal(),
        plan.jobs.len(),
    );
    let summary = execute_plan(
        main,
        plan,
        (cli, &records),
        &mut executors,
        (&mut reporters, &mut *out),
        progress,
        fingerprint,
    );
    drop(executors);
    // `--nosummary` leaves out the terminal report's closing tally (the other formats' end is
    // their report).
    let mut sink = std::io::sink();
    let end_out: &mut dyn Write = match (cli.nosummary, cli.output_format) {
        (true, ReportFormat::Terminal) => &mut sink,
        _ => &mut *out,
    };
    let ended = reporters.end(end_out, &summary);
    let _ = out.flush();
    ended.map_err(|e| Error::Files(format!("--benchmark_out: {e}")))?;
    Ok(summary)
}
