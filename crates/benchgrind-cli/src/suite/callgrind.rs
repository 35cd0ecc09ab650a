//! `measure --metric instructions`: run a runner program under Callgrind and count the
//! instructions it executes.
//!
//! Each benchmark runs twice, both with no warm-up: once with `max-iters` 0 (the baseline:
//! process start-up, reading KLV, setting up) and once with `max-iters` 1. The recorded value is
//! the difference, i.e. the instructions of one iteration (plus printing one sample line); the
//! gross count of the one-iteration run is kept in `total`. Callgrind counts are exact, so two
//! runs in the same environment give the same numbers; for that, what a runner program would
//! draw differently on each run is fixed: random bytes through `getrandom`/`getentropy` and the
//! time it reads (the runner's preload library, `LD_PRELOAD`, with `BENCHGRIND_RANDOM_SEED=0` and
//! a clock that advances one microsecond per reading; `PYTHONHASHSEED=0` too unless the engine or
//! the caller sets it), addresses (ASLR off), and, where real-time
//! scheduling is permitted, the order in which threads and processes take turns (one processor
//! under `SCHED_FIFO`, as the bench harness does). `--trace-children=yes` follows wrapper
//! scripts; the counts of all processes are summed, and where their turns may come in
//! another order (DAMON on, no `SCHED_FIFO`) the run says so with its figures ([`Several`]).
//! The KLV comes from a file, not a pipe, so the runner's reads do not depend on timing.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::{path::PathBuf, process, time::Duration};

use benchgrind_runner::execute::{self, Launcher};
use benchgrind_runner::parse::profile::{self, Read};

use super::{
    format::engines::Command,
    runner::{self, Finished},
};

/// The launcher of runner programs: the Valgrind chosen (`--valgrind-bin`, else the bench
/// binaries' `BENCHGRIND_VALGRIND`, else `PATH`'s), version checked, ASLR off, and one
/// processor under `SCHED_FIFO` where permitted (`SCHED_BATCH` where not), as the bench harness
/// runs its benchmarks. The preload library is added per run.
pub fn launcher(choice: &execute::valgrind::Choice) -> anyhow::Result<Launcher> {
    let found = choice
        .locate()
        .map_err(|e| anyhow::anyhow!("--metric instructions: {e}"))?;
    let placement = execute::launcher::placements(true).first().copied();
    Ok(Launcher::under(found).placed(placement))
}

/// A scratch directory for Callgrind's files, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Creates a fresh scratch directory under the system's temp directory. Its name has the same
/// length on every run (numbers padded): the preload library in it is named in the measured
/// process's environment, and the length of that path moves counts (Python 3.11 starting with
/// `LD_PRELOAD=/tmp/pl-123/lib.so` counts 10 instructions fewer than with `/tmp/pl-1234/lib.so`;
/// process ids here wrap at 32768, so a run now and then had a digit fewer).
fn temp_dir() -> Result<TempDir, Problem> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("benchgrind-suite-{:010}-{n:010}", process::id()));
    std::fs::create_dir_all(&dir).file_op("create", &dir)?;
    Ok(TempDir(dir))
}

/// The processes of a run: each one's command (Callgrind's `cmd:`) and instructions (`Ir`),
/// read from every Callgrind output file in `dir` with the runner's reader as far as its
/// totals; the most instructions first.
fn read_processes(dir: &std::path::Path) -> Result<Vec<(String, u64)>, Problem> {
    let mut processes = vec![];
    let entries = std::fs::read_dir(dir).file_op("read", dir)?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("callgrind.out."))
        {
            continue;
        }
        let profile = profile::parse_file(&path, Read::Totals).map_err(|e| problem!("{e}"))?;
        if profile.totals.is_none() {
            return Err(problem!(
                "{}: no `totals:` line (did Callgrind finish?)",
                path.display()
            ));
        }
        let ir = profile
            .total("Ir")
            .ok_or_else(|| problem!("{}: no `Ir` event", path.display()))?;
        let cmd = profile.cmd.as_deref().unwrap_or_default().trim().to_owned();
        processes.push((cmd, ir));
    }
    if processes.is_empty() {
        return Err(Problem::new("Callgrind wrote no output file"));
    }
    processes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(processes)
}

/// The last non-empty line of Valgrind's log files in `dir`, if any.
fn valgrind_log_tail(dir: &std::path::Path) -> Option<String> {
    let mut last = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("valgrind.log.")
        {
            let text = std::fs::read_to_string(entry.path()).ok()?;
            let line = text
                .lines()
                .rev()
                .map(|l| {
                    l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                        .trim()
                })
                .find(|l| !l.is_empty());
            last = line.map(str::to_string).or(last);
        }
    }
    last
}

/// What [`count`] found.
#[derive(Debug)]
pub struct Counted {
    /// The instructions of every process of the run that stood, summed.
    pub total: u64,
    /// The run that stood.
    pub finished: Finished,
    /// Its processes: command and instructions, the most first.
    pub processes: Vec<(String, u64)>,
    /// The totals of every run made, in order (more than one where it was made again).
    pub runs: Vec<u64>,
}

/// Runs `run` under Callgrind with `klv` on stdin and counts its instructions.
///
/// A runner of several processes (a wrapper script, a version manager's shim) takes its turns
/// on one processor in the same order on every run unless one of its processes waits for the
/// disk (a file not yet in the page cache), which lets the others run at other points: such a
/// run is made again, with the files in the cache by then, as the bench harness does
/// ([`execute::rerun::Rerun`], which also says what happens where DAMON runs: there the counts
/// may still move, and [`Several`] says so).
pub fn count(
    launcher: &Launcher,
    run: &Command,
    klv: Vec<u8>,
    timeout: Duration,
) -> Result<Counted, Problem> {
    let mut rerun = execute::rerun::Rerun::new(execute::machine::damon_on());
    let mut runs = vec![];
    loop {
        let (processes, finished) = count_once(launcher, run, klv.clone(), timeout)?;
        let total = processes
            .iter()
            .fold(0u64, |sum, (_, ir)| sum.saturating_add(*ir));
        runs.push(total);
        if rerun
            .again(processes.len(), finished.disk_reads, &[total])
            .is_none()
        {
            return Ok(Counted {
                total,
                finished,
                processes,
                runs,
            });
        }
    }
}

/// One run of [`count`]: its processes (command and instructions) and the run.
fn count_once(
    launcher: &Launcher,
    run: &Command,
    klv: Vec<u8>,
    timeout: Duration,
) -> Result<(Vec<(String, u64)>, Finished), Problem> {
    let tmp = temp_dir()?;
    let klv_path = tmp.0.join("input.klv");
    std::fs::write(&klv_path, &klv).file_op("write", &klv_path)?;
    let input = std::fs::File::open(&klv_path).file_op("open", &klv_path)?;
    // The preload library in the scratch directory, removed with it.
    let launcher = launcher
        .clone()
        .preloading(execute::preload::install(&tmp.0));
    let valgrind_args = [
        "--tool=callgrind".to_string(),
        "--trace-children=yes".to_string(),
        format!("--callgrind-out-file={}/callgrind.out.%p", tmp.0.display()),
        format!("--log-file={}/valgrind.log.%p", tmp.0.display()),
    ];
    let mut cmd = launcher.command(valgrind_args, &run.program());
    cmd.args(&run.args);
    if let Some(cwd) = &run.cwd {
        cmd.current_dir(cwd);
    }
    let engine_sets_seed = run.envs.iter().any(|(k, _)| k == "PYTHONHASHSEED");
    if !engine_sets_seed && std::env::var_os("PYTHONHASHSEED").is_none() {
        cmd.env("PYTHONHASHSEED", "0");
    }
    let existing = run
        .envs
        .iter()
        .rev()
        .find(|(k, _)| k == "LD_PRELOAD")
        .map(|(_, v)| std::ffi::OsString::from(v))
        .or_else(|| std::env::var_os("LD_PRELOAD"));
    if launcher.preload(&mut cmd, existing.as_deref()) {
        cmd.env(benchgrind_runner::protocol::RANDOM_SEED_ENV, "0");
        // The runner's time readings decide only what its own arithmetic and formatting cost.
        cmd.env(execute::preload::FIXED_CLOCK_ENV, "1");
    }
    cmd.envs(run.envs.iter().map(|(k, v)| (k, v)));
    let finished = runner::run(cmd, runner::Input::File(input), timeout)?;
    if let Err(e) = runner::check_status(&finished) {
        // Valgrind's own complaints (e.g. a program it cannot start) are in its log files.
        return Err(match valgrind_log_tail(&tmp.0) {
            Some(line) if finished.stderr.is_empty() => {
                problem!("under Callgrind, {e}; Valgrind says: {line}")
            }
            _ => problem!("under Callgrind, {e}"),
        });
    }
    Ok((read_processes(&tmp.0)?, finished))
}

/// A runner that ran as several processes where their turns are not promised to come in the
/// same order on every run (the kernel's memory monitor DAMON on, or no real-time scheduling):
/// its count may move, and `suite measure` says so with the figures, as the bench harness does
/// for a benchmark of several processes. Measured on a machine with DAMON on: `bin = "python3"`
/// found pyenv's shim on `PATH`, a bash script that runs about 40 processes before the
/// interpreter, and the instructions of one iteration moved by 120 in 1 of 5 runs; the same
/// engine with `bin` the interpreter itself (one process) counted the same on every run.
#[derive(Debug)]
pub struct Several {
    /// Why their turns may come in another order.
    why: Why,
    /// What the engine's `bin` is, found as Valgrind finds it.
    program: String,
    /// The program that counted most, as its process's command, and its instructions.
    main: (String, u64),
    /// The most processes of a run.
    processes: usize,
    /// The runs with one iteration and with none: every total.
    gross: Vec<u64>,
    base: Vec<u64>,
}

/// Why the processes of a run may take turns in another order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    Damon,
    NoRealtime,
}

impl Several {
    /// The warning about a run of `run` counted as `gross` (one iteration) and `base` (none),
    /// if it ran as several processes where their turns may move.
    pub fn of(
        launcher: &Launcher,
        run: &Command,
        gross: &Counted,
        base: &Counted,
    ) -> Option<Several> {
        let processes = gross.processes.len().max(base.processes.len());
        if processes < 2 {
            return None;
        }
        let why = if execute::machine::damon_on() {
            Why::Damon
        } else if !launcher.placement().is_some_and(|p| p.exact()) {
            Why::NoRealtime
        } else {
            return None;
        };
        Some(Several {
            why,
            program: describe_program(run),
            main: gross.processes[0].clone(),
            processes,
            gross: gross.runs.clone(),
            base: base.runs.clone(),
        })
    }

    /// The warning's first line, for the benchmark `job` of `engine`.
    pub fn headline(&self, job: &str, engine: &str) -> String {
        let why = match self.why {
            Why::Damon => "the kernel's memory monitor DAMON is on",
            Why::NoRealtime => "real-time scheduling is not permitted here",
        };
        format!(
            "{job} {engine}: its runner ran as {} processes under Callgrind while {why}, so \
             the order in which they take turns, and with it the count, may move from run to \
             run: {}",
            self.processes, self.program
        )
    }

    /// The figures: what the runs counted and where most of it was.
    pub fn figures(&self) -> Vec<String> {
        let runs = |totals: &[u64]| match totals {
            [one] => one.to_string(),
            many => format!(
                "{} runs: {}",
                many.len(),
                many.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let (gross, base) = (self.gross.last(), self.base.last());
        let net = gross.zip(base).map_or(0, |(g, b)| g.saturating_sub(*b));
        vec![
            format!(
                "counted {} instructions with one iteration ({}) and {} with none ({}): {net} \
                 recorded",
                gross.copied().unwrap_or_default(),
                runs(&self.gross),
                base.copied().unwrap_or_default(),
                runs(&self.base)
            ),
            format!(
                "most of them in one process: `{}` ({} instructions)",
                self.main.0, self.main.1
            ),
        ]
    }

    /// What makes the count exact, and why it moves.
    pub fn remedy(&self) -> Vec<String> {
        let program = self.main.0.split_whitespace().next().unwrap_or_default();
        let mut lines = vec![match self.why {
            Why::Damon => "DAMON's page checks now and then make one process wait, so that \
                           another runs at a point it would not have reached (pyenv's bash shim \
                           in front of Python counted 120 instructions more in 1 of 5 runs on \
                           such a machine; the interpreter alone, the same in every run)"
                .to_owned(),
            Why::NoRealtime => "without `SCHED_FIFO` the fair scheduler decides their turns \
                                (`sudo prlimit --pid $$ --rtprio=1:1` in the shell that runs \
                                benchgrind grants it, or run it as root)"
                .to_owned(),
        }];
        lines.push(format!(
            "to count exactly, point the engine's `bin` at the program itself (`{program}`), \
             so that the runner is one process{}",
            if self.why == Why::Damon {
                ", or turn DAMON off: `echo off | sudo tee /sys/kernel/mm/damon/admin/kdamonds/*/state`"
            } else {
                ""
            }
        ));
        lines
    }
}

/// What the engine's `bin` is, found as Valgrind finds it (on `PATH` unless it names a path):
/// "`python3` is /root/.pyenv/shims/python3, a script (`#!/usr/bin/env bash`)".
fn describe_program(run: &Command) -> String {
    const SHELLS: [&str; 7] = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"];
    // A path is where the runner runs (`program` has the engine's `cwd` joined already).
    let found = if run.bin.contains('/') {
        Some(run.program().components().collect::<std::path::PathBuf>())
    } else {
        let path = run
            .envs
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| std::ffi::OsString::from(v))
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(&run.bin))
            .find(|p| p.is_file())
    };
    let name = std::path::Path::new(&run.bin)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if SHELLS.contains(&name.as_str()) {
        return format!("`{}` is a shell", run.bin);
    }
    let Some(found) = found else {
        return format!("`{}` started other processes", run.bin);
    };
    let first_line = std::fs::read(&found).ok().and_then(|bytes| {
        let line = bytes.split(|b| *b == b'\n').next()?.to_vec();
        line.starts_with(b"#!")
            .then(|| String::from_utf8_lossy(&line).trim().to_owned())
    });
    match first_line {
        Some(shebang) => format!(
            "`{}` is {}, a script (`{shebang}`)",
            run.bin,
            found.display()
        ),
        None => format!(
            "`{}` ({}) started other processes",
            run.bin,
            found.display()
        ),
    }
}
