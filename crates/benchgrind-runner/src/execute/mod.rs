//! Stage 3 of the pipeline, execute: a job becomes a process whose profile and log land in the
//! job's `*.new` files.
//!
//! Everything that starts processes is behind one trait, [`Executor`], and [`executors`] is the
//! one place that picks the implementation: a fork server per class of benchmarks ([`fork`]), a
//! Valgrind process per benchmark ([`process`], which also runs binary benchmarks and test mode
//! natively), none at all (`--load-baseline`), or, in tests of the pipeline, one that copies
//! canned profiles instead of running Valgrind ([`canned`]). Workers run them in parallel
//! ([`schedule`]). Executors never print: what a benchmark printed comes back [`Captured`] in
//! its [`RunOutput`], for the harness to show under the benchmark's header.

pub mod args;
mod binary;
pub mod canned;
mod delay;
pub mod ended;
pub mod fork;
pub mod process;
mod sandbox;
pub mod schedule;
pub mod valgrind;

pub use canned::CannedExecutor;
pub use fork::ForkExecutor;
pub use process::ProcessExecutor;

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::{Isolation, LogLevel, Nocapture};
use crate::config::Tool;
use crate::plan::Job;

/// How one run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The profile is in the job's `callgrind.out.new`.
    Ok,
    /// The benchmark failed; the text says how (panic message, exit code or signal).
    Failed(String),
}

/// The result of running one job.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// How it ended.
    pub status: Status,
    /// The wall time of the Valgrind process.
    pub duration: Duration,
    /// What the benchmark printed. Executors never print it themselves: with parallel workers
    /// it would land under another benchmark's header; the harness shows it under this one's.
    pub output: Captured,
}

/// A benchmark's output, captured: its process's (and, for binary benchmarks, its setup's and
/// teardown's) stdout and stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// What went to stdout.
    pub stdout: Vec<u8>,
    /// What went to stderr.
    pub stderr: Vec<u8>,
    /// Streams the benchmark itself asked to show (`Stdio::Inherit` of a binary benchmark's
    /// command), `[stdout, stderr]`, whatever `--nocapture` says.
    pub always_shown: [bool; 2],
}

impl Captured {
    /// Appends what another process of the same benchmark printed.
    pub fn append(&mut self, stdout: &[u8], stderr: &[u8]) {
        self.stdout.extend_from_slice(stdout);
        self.stderr.extend_from_slice(stderr);
    }

    /// The streams to show, `[stdout, stderr]`, under `--nocapture` (and `BENCHGRIND_LOG=info`,
    /// which shows both): the rest is emptied.
    pub fn shown(mut self, nocapture: Nocapture, log: LogLevel) -> Captured {
        let [mut out, mut err] = match nocapture {
            Nocapture::All => [true, true],
            Nocapture::Stdout => [true, false],
            Nocapture::Stderr => [false, true],
            Nocapture::None => [log >= LogLevel::Info; 2],
        };
        out |= self.always_shown[0];
        err |= self.always_shown[1];
        if !out {
            self.stdout.clear();
        }
        if !err {
            self.stderr.clear();
        }
        self
    }

    /// Nothing to show.
    pub fn is_empty(&self) -> bool {
        self.stdout.is_empty() && self.stderr.is_empty()
    }
}

/// Runs jobs. One implementation starts real Valgrind processes; tests may use another.
pub trait Executor {
    /// Runs one job to completion.
    fn run(&mut self, job: &Job) -> RunOutput;
    /// Runs one job under another tool; its files land in the job's `<tool>.*.new` files.
    fn run_tool(&mut self, job: &Job, tool: &Tool) -> RunOutput;
}

/// How benchmarks are run, chosen once for the whole run.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Nothing runs: `--load-baseline` reads saved profiles.
    Nothing,
    /// Natively, without Valgrind, one benchmark at a time: test mode.
    Native,
    /// Under Valgrind, with `--isolation`.
    Valgrind(Isolation),
    /// Nothing runs; the canned profiles of this directory stand in for Valgrind's
    /// (`BENCHGRIND_CANNED`, for tests of the pipeline).
    Canned(PathBuf),
}

/// What every executor needs to know.
#[derive(Debug, Clone)]
pub struct Setup {
    /// How benchmarks are run.
    pub mode: Mode,
    /// The bench binary.
    pub exe: PathBuf,
    /// The working directory of benchmarks (the package's directory).
    pub cwd: PathBuf,
    /// The workspace root: where fixture paths start.
    pub workspace_root: PathBuf,
    /// The root of all output files (fork servers keep their directories below it).
    pub home: PathBuf,
    /// `--callgrind-args`.
    pub cli_args: Vec<String>,
    /// `BENCHGRIND_LOG`.
    pub log: LogLevel,
    /// How many run at once.
    pub workers: usize,
}

/// One executor per worker, of the kind `setup.mode` asks for. Fails when Valgrind is needed and
/// cannot be found.
pub fn executors(setup: &Setup) -> Result<Vec<Box<dyn Executor + Send>>, String> {
    let workers = setup.workers.max(1);
    let isolation = match &setup.mode {
        Mode::Nothing => return Ok(vec![Box::new(NoExecutor)]),
        Mode::Canned(dir) => {
            let canned = || -> Box<dyn Executor + Send> { Box::new(CannedExecutor::new(dir)) };
            return Ok((0..workers).map(|_| canned()).collect());
        }
        Mode::Native => {
            return Ok(vec![Box::new(ProcessExecutor {
                valgrind: PathBuf::new(),
                exe: setup.exe.clone(),
                cwd: setup.cwd.clone(),
                cli_args: Vec::new(),
                // Test mode prints libtest's lines only.
                log: LogLevel::Warn,
                workspace_root: setup.workspace_root.clone(),
                native: true,
            })]);
        }
        Mode::Valgrind(isolation) => *isolation,
    };
    let process = ProcessExecutor {
        valgrind: valgrind::locate()?.path,
        exe: setup.exe.clone(),
        cwd: setup.cwd.clone(),
        cli_args: setup.cli_args.clone(),
        log: setup.log,
        workspace_root: setup.workspace_root.clone(),
        native: false,
    };
    let one = || -> Box<dyn Executor + Send> {
        match isolation {
            Isolation::Process => Box::new(process.clone()),
            Isolation::Fork => Box::new(ForkExecutor::new(process.clone(), setup.home.clone())),
        }
    };
    Ok((0..workers).map(|_| one()).collect())
}

/// With `--load-baseline` nothing runs.
struct NoExecutor;

impl Executor for NoExecutor {
    fn run(&mut self, _job: &Job) -> RunOutput {
        unreachable!("--load-baseline reads saved profiles and never runs a benchmark")
    }

    fn run_tool(&mut self, _job: &Job, _tool: &Tool) -> RunOutput {
        unreachable!("--load-baseline reads saved profiles and never runs a benchmark")
    }
}
