//! The pipeline of a bench binary, end to end: parse, plan, execute, parse profiles, derive,
//! compare, report, exit. `main!` calls [`run`]; the same binary, started by Valgrind with
//! [`child::FLAG`], is the measured process.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use crate::args::{self, Cli, Color};
use crate::child;
use crate::execute::{Executor, ProcessExecutor, Status};
use crate::metrics::Metrics;
use crate::parse::callgrind;
use crate::plan::{self, Job, Plan};
use crate::report::terminal::{self, Style};
use crate::spec::Main;
use crate::store::{self, Which};
use crate::valgrind;

/// Exit codes, decided in one place.
mod exit {
    pub const OK: i32 = 0;
    pub const ERROR: i32 = 1;
    pub const USAGE: i32 = 2;
}

/// Runs the bench binary: measured-process mode when Valgrind started it, else the harness.
pub fn run(main: Main) -> ! {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let code = match child::requested(&args) {
        Some(request) => match request.and_then(|index| child::run(&main, index)) {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("benchgrind: {e}");
                exit::ERROR
            }
        },
        None => harness(&main, &args),
    };
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
    let plan = match plan::plan(main, &cli, store::default_home(&exe, &manifest_dir)) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    if cli.list {
        for job in &plan.jobs {
            println!("{}: benchmark", job.id.full());
        }
        return exit::OK;
    }
    if plan.jobs.is_empty() {
        println!(
            "benchgrind: no benchmark of {} matches the filter",
            main.bench_file
        );
        return exit::OK;
    }
    let valgrind = match valgrind::locate() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    let mut executor = ProcessExecutor {
        valgrind: valgrind.path,
        exe,
        cwd: manifest_dir,
        nocapture: cli.nocapture,
        cli_args: cli.callgrind_args.clone(),
    };
    let style = style(&cli);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let summary = execute_plan(main, &plan, &mut executor, &mut out, style);
    let _ = summary.print(&mut out, main.bench_file);
    if summary.failed.is_empty() {
        exit::OK
    } else {
        exit::ERROR
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

/// What a whole run did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Benchmarks measured.
    pub measured: usize,
    /// `(full id, reason, log)` of each failed benchmark.
    pub failed: Vec<(String, String, PathBuf)>,
    /// Wall time of the run.
    pub seconds: f64,
}

impl Summary {
    fn print(&self, out: &mut dyn Write, file: &str) -> std::io::Result<()> {
        let total = self.measured + self.failed.len();
        writeln!(
            out,
            "\nbenchgrind: {file}: {total} benchmark{} in {:.2}s: {} measured, {} failed",
            if total == 1 { "" } else { "s" },
            self.seconds,
            self.measured,
            self.failed.len()
        )?;
        for (id, reason, log) in &self.failed {
            writeln!(out, "  FAILED {id}: {reason} (log: {})", log.display())?;
        }
        Ok(())
    }
}

/// A measured bench kept for `compare_by_id` within its group.
struct Measured {
    function: &'static str,
    id_and_args: String,
    metrics: Metrics,
}

/// Runs every job, group by group (group setup and teardown around them), and reports each as
/// it finishes. A failing benchmark is recorded and the run goes on.
pub fn execute_plan(
    main: &Main,
    plan: &Plan,
    executor: &mut dyn Executor,
    out: &mut dyn Write,
    style: Style,
) -> Summary {
    let start = Instant::now();
    let mut summary = Summary::default();
    for (g, group) in main.groups.iter().enumerate() {
        let jobs: Vec<&Job> = plan.jobs.iter().filter(|j| j.index[0] == g).collect();
        if jobs.is_empty() {
            continue;
        }
        if let Some(setup) = group.setup {
            setup();
        }
        let mut by_id: HashMap<&str, Vec<Measured>> = HashMap::new();
        for job in jobs {
            let _ = terminal::header(out, style, &job.id.path(), &job.id.id_and_args());
            match measure(executor, job) {
                Ok((new, old)) => {
                    let _ = terminal::metrics(out, style, &new, old.as_ref());
                    summary.measured += 1;
                    if let (true, Some(id)) = (group.compare_by_id, job.id.id) {
                        let earlier = by_id.entry(id).or_default();
                        for other in earlier.iter().filter(|m| m.function != job.id.function) {
                            let _ = writeln!(
                                out,
                                "  Comparison with {} {}",
                                other.function, other.id_and_args
                            );
                            let _ = terminal::metrics(out, style, &other.metrics, Some(&new));
                        }
                        earlier.push(Measured {
                            function: job.id.function,
                            id_and_args: job.id.id_and_args(),
                            metrics: new,
                        });
                    }
                }
                Err((reason, log)) => {
                    let _ = writeln!(out, "  FAILED: {reason}\n  log: {}", log.display());
                    summary.failed.push((job.id.full(), reason, log));
                }
            }
            let _ = out.flush();
        }
        if let Some(teardown) = group.teardown {
            teardown();
        }
    }
    summary.seconds = start.elapsed().as_secs_f64();
    summary
}

/// Runs one job and reads its profile and the previous one; on success the new files replace
/// the current ones. On failure nothing good is replaced and the log of the failed run is named.
fn measure(
    executor: &mut dyn Executor,
    job: &Job,
) -> Result<(Metrics, Option<Metrics>), (String, PathBuf)> {
    let paths = &job.paths;
    let new_log = paths.file("callgrind.log", Which::New);
    let output = executor.run(job);
    if let Status::Failed(reason) = output.status {
        let _ = std::fs::remove_file(paths.file("callgrind.out", Which::New));
        return Err((reason, new_log));
    }
    let new = callgrind::parse_file(&paths.file("callgrind.out", Which::New))
        .map_err(|e| (e.to_string(), new_log.clone()))?;
    let old = paths
        .previous("callgrind.out")
        .and_then(|p| callgrind::parse_file(&p).ok());
    let promoted = paths
        .promote("callgrind.out")
        .and_then(|()| paths.promote("callgrind.log"));
    if let Err(e) = promoted {
        return Err((
            format!(
                "cannot move the new profile into {}: {e}",
                paths.dir.display()
            ),
            new_log,
        ));
    }
    Ok((
        Metrics::from_profile(&new),
        old.as_ref().map(Metrics::from_profile),
    ))
}
