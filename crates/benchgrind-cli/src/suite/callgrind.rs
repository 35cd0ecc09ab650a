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
//! scripts; the counts of all processes are summed. The KLV comes from a file, not a pipe, so
//! the runner's reads do not depend on timing.

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

/// Sums the instructions (`Ir`) of every Callgrind output file in `dir`, each read with the
/// runner's reader as far as its totals; also how many files (processes) there were.
fn read_totals(dir: &std::path::Path) -> Result<(u64, usize), Problem> {
    let mut total = 0u64;
    let mut files = 0;
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
        total = total.saturating_add(ir);
        files += 1;
    }
    if files == 0 {
        return Err(Problem::new("Callgrind wrote no output file"));
    }
    Ok((total, files))
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

/// Runs `run` under Callgrind with `klv` on stdin; returns the instruction count and the run.
///
/// A runner of several processes (a wrapper script, a version manager's shim) takes its turns
/// on one processor in the same order on every run unless one of its processes waits for the
/// disk (a file not yet in the page cache), which lets the others run at other points: such a
/// run is made again, with the files in the cache by then, as the bench harness does
/// ([`execute::watch::Rerun`], which also says what happens where DAMON runs).
pub fn count(
    launcher: &Launcher,
    run: &Command,
    klv: Vec<u8>,
    timeout: Duration,
) -> Result<(u64, Finished), Problem> {
    let mut rerun = execute::watch::Rerun::default();
    loop {
        let (total, processes, finished) = count_once(launcher, run, klv.clone(), timeout)?;
        if rerun
            .again(processes, finished.disk_reads, &[total])
            .is_none()
        {
            return Ok((total, finished));
        }
    }
}

/// One run of [`count`]: the instructions, the number of processes and the run.
fn count_once(
    launcher: &Launcher,
    run: &Command,
    klv: Vec<u8>,
    timeout: Duration,
) -> Result<(u64, usize, Finished), Problem> {
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
    let (total, processes) = read_totals(&tmp.0)?;
    Ok((total, processes, finished))
}
