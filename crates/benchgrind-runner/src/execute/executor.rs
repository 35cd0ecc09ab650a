//! What every executor is and gives back: the [`Executor`] trait, how a run ended and what the
//! benchmark printed.

use std::time::Duration;

use crate::cli::{LogLevel, Nocapture};
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
    /// Whether it ran, was verified or its last results were put in its place
    /// ([`super::reuse`]).
    pub reuse: super::reuse::Verdict,
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
    /// How often the measured processes waited for the disk ([`super::watch::Usage`]), where
    /// the executor can tell (0 otherwise): a benchmark of several processes that did may
    /// have taken its turns in another order, and is measured again.
    pub disk_reads: u64,
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

    /// What two files hold, `[stdout, stderr]` (a missing file holds nothing).
    pub fn from_files(files: [std::path::PathBuf; 2]) -> Captured {
        let [stdout, stderr] = files.map(|file| std::fs::read(file).unwrap_or_default());
        Captured {
            stdout,
            stderr,
            ..Captured::default()
        }
    }

    /// Nothing to show.
    pub fn is_empty(&self) -> bool {
        self.stdout.is_empty() && self.stderr.is_empty()
    }
}

/// Runs jobs. One implementation starts real Valgrind processes; tests may use another.
pub trait Executor {
    /// Starts a job without waiting for it, where the executor can (a fork server queues the
    /// request and runs it when the requests before it are done), so that the caller can work
    /// on the job before meanwhile; [`Executor::run`] then waits for it. Whether it started
    /// it; by default it does not, and `run` does all.
    fn start(&mut self, job: &Job) -> bool {
        let _ = job;
        false
    }
    /// Runs one job to completion (waiting for it if [`Executor::start`] started it).
    fn run(&mut self, job: &Job) -> RunOutput;
    /// Runs one job under another tool; its files land in the job's `<tool>.*.new` files.
    fn run_tool(&mut self, job: &Job, tool: &Tool) -> RunOutput;
    /// Samples one job with perf's counters, natively, as `spec` ([`crate::perf::samples`])
    /// says, the samples written to `out`. By default it cannot.
    fn run_perf(
        &mut self,
        job: &Job,
        spec: &crate::perf::samples::Spec,
        out: &std::path::Path,
    ) -> RunOutput {
        let _ = (job, spec, out);
        RunOutput {
            status: Status::Failed("this executor does not run perf".into()),
            duration: Duration::ZERO,
            output: Captured::default(),
            reuse: Default::default(),
        }
    }
    /// Whether the threads of a measured process take turns the same way on every run
    /// ([`super::realtime`]).
    fn exact_threads(&self) -> bool {
        false
    }
    /// Whether measured processes have process ids of their own, the same on every run and
    /// machine ([`super::pidns`]); executors that start no process have nothing to say.
    fn exact_pids(&self) -> bool {
        true
    }
}
