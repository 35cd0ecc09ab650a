//! The pipeline of a bench binary, end to end: parse, plan, execute, parse profiles, derive,
//! compare, report, save, exit. `main!` calls [`run`]; the same binary, started by Valgrind with
//! [`child::FLAG`], is the measured process.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::args::{self, Cli, Color, Isolation, JsonStyle, LogLevel, OutputFormat};
use crate::child;
use crate::execute::{Captured, Executor, ProcessExecutor, Status};
use crate::execute_fork::ForkExecutor;
use crate::flamegraph;
use crate::metrics::Metrics;
use crate::parse::callgrind;
use crate::plan::{self, Job, Plan};
use crate::regression::{self, RegressionConfig};
use crate::report::json::Json;
use crate::report::markdown::Markdown;
use crate::report::progress::Progress;
use crate::report::terminal::{Style, Terminal};
use crate::report::{Reporter, RunSummary};
use crate::result::{BenchResult, Comparison, Outcome, Source};
use crate::spec::Main;
use crate::store::{self, Which};
use crate::summary::Summary;
use crate::tools::{self, Tool};
use crate::valgrind;

/// Exit codes, decided in one place.
mod exit {
    pub const OK: i32 = 0;
    pub const ERROR: i32 = 1;
    pub const USAGE: i32 = 2;
    pub const REGRESSION: i32 = 3;
}

/// Runs the bench binary: measured-process mode when Valgrind started it, else the harness.
pub fn run(main: Main) -> ! {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if let Some(result) = child::hook(&main, &args) {
        let code = match result {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("benchgrind: {e}");
                exit::ERROR
            }
        };
        let _ = std::io::stdout().flush();
        std::process::exit(code);
    }
    let code = harness(&main, &args);
    let _ = std::io::stdout().flush();
    std::process::exit(code)
}

fn harness(main: &Main, args: &[OsString]) -> i32 {
    let cli = match args::parse(args, &|key| std::env::var(key).ok()) {
        Ok(cli) => cli,
        Err(e) => {
            eprintln!("error: {}\n\n{}", e.0, args::USAGE);
            return exit::USAGE;
        }
    };
    if cli.help {
        print!("{}", args::USAGE);
        return exit::OK;
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("error: cannot find the path of this bench binary: {e}");
            return exit::ERROR;
        }
    };
    let manifest_dir = PathBuf::from(main.manifest_dir);
    let mut home = cli
        .home
        .clone()
        .unwrap_or_else(|| store::default_home(&exe, &manifest_dir));
    if cli.separate_targets {
        home = home.join(env!("BENCHGRIND_TARGET_TRIPLE"));
    }
    let plan = match plan::plan(main, &cli, home) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    if cli.list {
        if !cli.ignored {
            for job in &plan.jobs {
                println!("{}: benchmark", job.id.full());
            }
        }
        return exit::OK;
    }
    if plan.jobs.is_empty() {
        let selecting = !cli.filters.is_empty() || !cli.skip.is_empty() || cli.partition.is_some();
        if selecting {
            println!(
                "benchgrind: no benchmark of {} matches the filter",
                main.bench_file
            );
        } else {
            // An empty group, as iai-callgrind 0.10's `benchmark = |"my-exe", group| {}`.
            println!("benchgrind: {} has no benchmarks", main.bench_file);
        }
        return exit::OK;
    }
    if cli.test_mode || (!cli.bench_flag && std::env::var_os("CARGO_PKG_NAME").is_some()) {
        // `cargo test --benches` runs bench targets without `--bench`: check, don't measure.
        return crate::test_mode::run(main, &plan, &exe, &manifest_dir);
    }
    let mut executors: Vec<Box<dyn Executor + Send>> = if cli.load_baseline.is_some() {
        vec![Box::new(NoExecutor)]
    } else {
        let valgrind = match valgrind::locate() {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::ERROR;
            }
        };
        let process = ProcessExecutor {
            valgrind: valgrind.path,
            exe,
            cwd: manifest_dir,
            cli_args: cli.callgrind_args.clone(),
            log: cli.log,
            workspace_root: PathBuf::from(main.workspace_root),
            native: false,
        };
        let workers = cli
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(plan.jobs.len())
            .max(1);
        (0..workers)
            .map(|_| -> Box<dyn Executor + Send> {
                match cli.isolation {
                    Isolation::Process => Box::new(process.clone()),
                    Isolation::Fork => {
                        Box::new(ForkExecutor::new(process.clone(), plan.home.clone()))
                    }
                }
            })
            .collect()
    };
    crate::report::terminal::set_labels(cli.labels);
    let mut reporter: Box<dyn Reporter> = match cli.output_format {
        OutputFormat::Default => Box::new(Terminal { style: style(&cli) }),
        OutputFormat::Json => Box::new(Json { pretty: false }),
        OutputFormat::PrettyJson => Box::new(Json { pretty: true }),
        OutputFormat::Markdown => Box::new(Markdown::default()),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let progress = Progress::new(
        cli.output_format == OutputFormat::Default && std::io::stderr().is_terminal(),
        plan.jobs.len(),
    );
    let runs = cli.load_baseline.is_none();
    if let (true, Some(setup)) = (runs, main.setup) {
        setup();
    }
    let summary = execute_plan(
        main,
        &plan,
        &cli,
        &mut executors,
        reporter.as_mut(),
        &mut out,
        progress,
    );
    drop(executors);
    if let (true, Some(teardown)) = (runs, main.teardown) {
        teardown();
    }
    let _ = reporter.finish(&mut out, &summary);
    let _ = out.flush();
    if !summary.failed.is_empty() {
        exit::ERROR
    } else if !summary.regressions.is_empty() {
        exit::REGRESSION
    } else {
        exit::OK
    }
}

fn style(cli: &Cli) -> Style {
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal(),
    };
    Style { color }
}

/// With `--load-baseline` nothing runs.
struct NoExecutor;

impl Executor for NoExecutor {
    fn run(&mut self, _job: &Job) -> crate::execute::RunOutput {
        unreachable!("--load-baseline reads saved profiles and never runs a benchmark")
    }

    fn run_tool(&mut self, _job: &Job, _tool: &Tool) -> crate::execute::RunOutput {
        unreachable!("--load-baseline reads saved profiles and never runs a benchmark")
    }
}

/// Reports results as they are handed over in plan order: `compare_by_id` comparisons, the
/// reporter, the summary file, the tally and the recorded duration.
struct Emitter<'a> {
    cli: &'a Cli,
    runs: bool,
    reporter: &'a mut dyn Reporter,
    out: &'a mut dyn Write,
    progress: &'a mut Progress,
    summary: &'a mut RunSummary,
    by_id: HashMap<(usize, String), Vec<Comparison>>,
}

impl Emitter<'_> {
    /// Reports one result; returns whether fail-fast asks to stop.
    fn emit(&mut self, job: &Job, mut result: BenchResult, compare_by_id: bool) -> bool {
        if let (true, Some(id), Outcome::Measured { new, .. }) =
            (compare_by_id, &job.id.id, &result.outcome)
        {
            let earlier = self.by_id.entry((job.group, id.clone())).or_default();
            result.comparisons = earlier
                .iter()
                .filter(|c| c.function != job.id.function)
                .cloned()
                .collect();
            earlier.push(Comparison {
                function: job.id.function.clone(),
                id_and_args: job.id.id_and_args(),
                metrics: new.clone(),
            });
        }
        self.progress.clear();
        let _ = self.reporter.bench(self.out, &result);
        let _ = self.out.flush();
        save_summary(self.cli, job, &result);
        let summary = &mut *self.summary;
        match &result.outcome {
            Outcome::Failed { reason } => {
                summary
                    .failed
                    .push((job.id.full(), reason.clone(), result.log.clone()));
            }
            Outcome::Measured { .. } => {
                match tools::run::failure(&result.tools) {
                    Some((reason, log)) => {
                        summary.failed.push((job.id.full(), reason, Some(log)));
                    }
                    None => summary.measured += 1,
                }
                if self.runs {
                    crate::schedule::record_duration(&job.paths.dir, result.duration);
                }
            }
        }
        for r in &result.regressions {
            summary.regressions.push((job.id.full(), r.describe()));
        }
        for (tool, r) in tools::run::regressions(&result.tools) {
            summary.regressions.push((job.id.full(), r.describe(tool)));
        }
        self.progress.done(&job.id.full());
        result.regressed() && fail_fast(self.cli, job)
    }
}

/// A group's `compare_by_id`, setup and teardown.
type GroupHooks = (bool, Option<fn()>, Option<fn()>);

/// Runs every job and reports each in plan order. Groups with a setup or teardown run on their
/// own, with their hooks around them; consecutive groups without hooks form one phase whose
/// benchmarks run in parallel. A failing benchmark is recorded and the run goes on; a regression
/// with fail-fast ends it.
pub fn execute_plan(
    main: &Main,
    plan: &Plan,
    cli: &Cli,
    executors: &mut [Box<dyn Executor + Send>],
    reporter: &mut dyn Reporter,
    out: &mut dyn Write,
    mut progress: Progress,
) -> RunSummary {
    let start = Instant::now();
    let mut summary = RunSummary {
        file: main.bench_file.to_owned(),
        ..RunSummary::default()
    };
    // Library groups first, then binary groups, as numbered in `Job::group`.
    let hooks: Vec<GroupHooks> = main
        .groups
        .iter()
        .map(|g| (g.compare_by_id, g.setup, g.teardown))
        .chain(
            main.binary_groups
                .iter()
                .map(|g| (g.compare_by_id, g.setup, g.teardown)),
        )
        .collect();
    let runs = cli.load_baseline.is_none();
    let mut phases: Vec<Vec<usize>> = Vec::new();
    let mut previous_alone = true;
    for (g, (_, setup, teardown)) in hooks.iter().enumerate() {
        let alone = setup.is_some() || teardown.is_some();
        if alone || previous_alone || phases.is_empty() {
            phases.push(Vec::new());
        }
        phases.last_mut().expect("just pushed").push(g);
        previous_alone = alone;
    }
    let mut emitter = Emitter {
        cli,
        runs,
        reporter,
        out,
        progress: &mut progress,
        summary: &mut summary,
        by_id: HashMap::new(),
    };
    let mut stopped = false;
    for phase in phases {
        let jobs: Vec<&Job> = plan
            .jobs
            .iter()
            .filter(|j| phase.contains(&j.group))
            .collect();
        if jobs.is_empty() {
            continue;
        }
        if stopped {
            emitter.summary.skipped += jobs.len();
            continue;
        }
        let single = phase.len() == 1;
        if let (true, true, Some(setup)) = (runs, single, hooks[phase[0]].1) {
            setup();
        }
        let mut pending: BTreeMap<usize, BenchResult> = BTreeMap::new();
        let mut next = 0;
        let mut emitted = 0;
        crate::schedule::run(
            &jobs,
            executors,
            |job, executor| bench(main, job, cli, executor),
            |i, result| {
                pending.insert(i, result);
                while let Some(result) = pending.remove(&next) {
                    let job = jobs[next];
                    next += 1;
                    emitted += 1;
                    let compare = hooks[job.group].0;
                    stopped |= emitter.emit(job, result, compare);
                }
                // After a fail-fast stop, benchmarks already running still finish and are
                // reported; only those not yet started are left out.
                !stopped
            },
        );
        // What ran after a stop, in plan order, around the benchmarks that never started.
        for (i, result) in std::mem::take(&mut pending) {
            emitted += 1;
            emitter.emit(jobs[i], result, hooks[jobs[i].group].0);
        }
        if stopped {
            emitter.summary.skipped += jobs.len() - emitted;
        }
        if let (true, true, Some(teardown)) = (runs, single, hooks[phase[0]].2) {
            teardown();
        }
    }
    progress.clear();
    summary.seconds = start.elapsed().as_secs_f64();
    summary
}

fn regression_config<'a>(cli: &'a Cli, job: &'a Job) -> Option<&'a RegressionConfig> {
    cli.regression.as_ref().or(job.config.regression.as_ref())
}

fn fail_fast(cli: &Cli, job: &Job) -> bool {
    cli.regression_fail_fast
        .unwrap_or_else(|| regression_config(cli, job).is_some_and(|r| r.is_fail_fast()))
}

/// Measures (or loads) one benchmark and relates it to what it is compared with.
fn bench(main: &Main, job: &Job, cli: &Cli, executor: &mut dyn Executor) -> BenchResult {
    let paths = &job.paths;
    let compare_with = cli
        .baseline
        .clone()
        .or_else(|| cli.save_baseline.clone())
        .map_or(Source::PreviousRun, Source::Baseline);
    let mut result = BenchResult {
        package: main.package.to_owned(),
        id: job.id.clone(),
        command: match &job.kind {
            crate::plan::JobKind::Binary(binary) => Some(binary.command.display()),
            crate::plan::JobKind::Library(_) => None,
        },
        outcome: Outcome::Failed {
            reason: String::new(),
        },
        new_source: Source::Run,
        old_source: compare_with.clone(),
        regressions: Vec::new(),
        comparisons: Vec::new(),
        dir: paths.dir.clone(),
        profile: paths.file("callgrind.out", Which::Current),
        log: None,
        duration: Duration::ZERO,
        tools: Vec::new(),
        flamegraphs: Vec::new(),
        output: Captured::default(),
    };
    // Read before the run replaces it: the old call graph of a differential flamegraph.
    let flame = match (&cli.load_baseline, &job.config.flamegraph) {
        (None, Some(config)) => {
            let old = old_profile(job, &compare_with);
            Some(flamegraph::prepare(
                config,
                old.as_deref(),
                &compare_with.describe(),
            ))
        }
        _ => None,
    };
    let measured = match &cli.load_baseline {
        Some(name) => {
            result.new_source = Source::Baseline(name.clone());
            result.profile = paths.baseline(name);
            load(&result.profile, name, job).and_then(|new| {
                let old = read_old(job, &compare_with)?;
                Ok((new, old))
            })
        }
        None => {
            // Read what to compare with before the run replaces it, and before spending a
            // Valgrind run on a comparison that cannot be made.
            let replaced = match &compare_with {
                Source::Baseline(name) => cli.save_baseline.as_ref() == Some(name),
                _ => true,
            };
            let old = match read_old(job, &compare_with) {
                Ok(old) => Ok(old),
                // The run replaces it: say so and compare with nothing.
                Err(e) if replaced => {
                    eprintln!(
                        "warning: {}: {e}; it is replaced by this run",
                        job.id.full()
                    );
                    Ok(None)
                }
                Err(e) => Err(e),
            };
            match old {
                Err(e) => Err(e),
                Ok(old) => {
                    // Leftovers of an earlier run that died must not pass for this run's files.
                    for name in ["callgrind.out", "callgrind.log"] {
                        let _ = std::fs::remove_file(paths.file(name, Which::New));
                    }
                    let output = executor.run(job);
                    result.duration = output.duration;
                    result.output = output.output.shown(cli.nocapture, cli.log);
                    result.log = Some(paths.file("callgrind.log", Which::Current));
                    match output.status {
                        Status::Failed(reason) => {
                            // No log when the benchmark failed before Valgrind ran (in setup).
                            result.log = Some(paths.file("callgrind.log", Which::New))
                                .filter(|l| l.exists());
                            let _ = std::fs::remove_file(paths.file("callgrind.out", Which::New));
                            Err(reason)
                        }
                        Status::Ok => promote_and_save(job, cli).map(|new| (new, old)),
                    }
                }
            }
        }
    };
    match measured {
        Ok((new, old)) => {
            if let Some(config) = regression_config(cli, job) {
                result.regressions = regression::check(config, &new, old.as_ref());
            }
            result.outcome = Outcome::Measured { new, old };
        }
        Err(reason) => result.outcome = Outcome::Failed { reason },
    }
    if cli.load_baseline.is_none() && !result.failed() {
        let limits = regression_config(cli, job);
        result.tools = tools::run::run_all(job, cli, executor, &compare_with, limits);
        if let (Some(config), Some(prepared)) = (&job.config.flamegraph, &flame) {
            let title = format!("{} {}", job.id.path(), job.id.id_and_args());
            match flamegraph::write(config, &job.paths, title.trim(), prepared) {
                Ok(files) => result.flamegraphs = files,
                Err(e) => eprintln!("warning: {}: no flamegraph: {e}", job.id.full()),
            }
        }
    }
    result
}

/// The profile of the new run becomes current (the current one old) and, with
/// `--save-baseline`, is copied into the baseline; returns its metrics.
fn promote_and_save(job: &Job, cli: &Cli) -> Result<Metrics, String> {
    let paths = &job.paths;
    let new = callgrind::parse_file(&paths.file("callgrind.out", Which::New))
        .map_err(|e| e.to_string())?;
    paths
        .promote("callgrind.out")
        .and_then(|()| paths.promote("callgrind.log"))
        .map_err(|e| {
            format!(
                "cannot move the new profile into {}: {e}",
                paths.dir.display()
            )
        })?;
    if let Some(name) = &cli.save_baseline {
        let current = paths.file("callgrind.out", Which::Current);
        store::copy_atomic(&current, &paths.baseline(name)).map_err(|e| {
            format!(
                "cannot save baseline `{name}` to {}: {e}",
                paths.baseline(name).display()
            )
        })?;
    }
    Ok(Metrics::from_profile(&new))
}

/// The values to compare with: the previous run or a baseline. A missing one is `None` (first
/// run); a damaged one is an error that says how to replace it.
fn read_old(job: &Job, source: &Source) -> Result<Option<Metrics>, String> {
    let Some(path) = old_profile(job, source) else {
        return Ok(None);
    };
    callgrind::parse_file(&path)
        .map(|p| Some(Metrics::from_profile(&p)))
        .map_err(|e| match source {
            Source::Baseline(name) => damaged_baseline(name, &e),
            _ => format!("the previous run's profile is damaged ({e})"),
        })
}

/// The profile of the previous run or the baseline, if it exists.
fn old_profile(job: &Job, source: &Source) -> Option<PathBuf> {
    match source {
        Source::Baseline(name) => Some(job.paths.baseline(name)).filter(|p| p.exists()),
        _ => job.paths.previous("callgrind.out"),
    }
}

fn load(path: &Path, name: &str, job: &Job) -> Result<Metrics, String> {
    if !path.exists() {
        return Err(format!(
            "there is no baseline `{name}` for {}; save one with --save-baseline={name}",
            job.id.full()
        ));
    }
    callgrind::parse_file(path)
        .map(|p| Metrics::from_profile(&p))
        .map_err(|e| damaged_baseline(name, &e))
}

/// A saved baseline that cannot be read, and how to replace it.
fn damaged_baseline(name: &str, e: &crate::parse::ParseError) -> String {
    format!("baseline `{name}` is damaged ({e}); save it again with --save-baseline={name}")
}

fn save_summary(cli: &Cli, job: &Job, result: &BenchResult) {
    let Some(style) = cli.save_summary else {
        return;
    };
    let json = Summary::from_result(result).to_json(style == JsonStyle::Pretty);
    let path = job.paths.summary();
    let written = std::fs::create_dir_all(&job.paths.dir)
        .and_then(|()| store::write_atomic(&path, json.as_bytes()));
    if let Err(e) = written {
        eprintln!("warning: cannot write {}: {e}", path.display());
    }
    if cli.log >= LogLevel::Debug {
        eprintln!("benchgrind: wrote {}", path.display());
    }
}
