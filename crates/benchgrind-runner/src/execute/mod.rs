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
pub mod children;
mod delay;
pub mod ended;
mod executor;
#[cfg(unix)]
pub mod fork;
pub mod interrupt;
pub mod launcher;
pub mod leftovers;
mod library;
pub mod machine;
pub mod parts;
pub mod pidns;
pub mod preload;
pub mod process;
pub mod realtime;
pub mod rerun;
pub mod reuse;
mod sandbox;
pub mod schedule;
pub mod valgrind;
pub mod watch;

use crate::error::Problem;
pub use canned::CannedExecutor;
pub use executor::{Captured, Executor, RunOutput, Status};
#[cfg(unix)]
pub use fork::ForkExecutor;
pub use launcher::Launcher;
pub use process::ProcessExecutor;
pub use sandbox::SharedSandbox;

use std::path::PathBuf;
use std::sync::Arc;

use launcher::EmptyHome;

use crate::cli::{Isolation, LogLevel};
use crate::config::Tool;
use crate::plan::Job;

/// Where in the home the preload library is written ([`preload`]).
pub const PRELOAD: &str = preload::DIR;

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
    /// The Valgrind they run under, found once: for [`Mode::Valgrind`], and for
    /// [`Mode::Nothing`] where it is there (reports name it).
    pub valgrind: Option<valgrind::Valgrind>,
    /// `--allow-aslr`: measured processes keep address space layout randomization.
    pub allow_aslr: bool,
    /// The bench binary.
    pub exe: PathBuf,
    /// The working directory of benchmarks (the package's directory).
    pub cwd: PathBuf,
    /// The workspace root: where fixture paths start.
    pub workspace_root: PathBuf,
    /// The root of all output files (fork servers keep their directories below it).
    pub home: PathBuf,
    /// `BENCHGRIND_LOG`.
    pub log: LogLevel,
    /// How many run at once.
    pub workers: usize,
    /// Whether measured processes run under real-time scheduling where it is permitted
    /// (`--realtime`; [`launcher::placements`]).
    pub realtime: bool,
}

/// One executor per worker, of the kind `setup.mode` asks for, sharing the run's `records`.
/// Fails when Valgrind is needed and was not found.
pub fn executors(
    setup: &Setup,
    records: &Arc<reuse::Records>,
) -> Result<Vec<Box<dyn Executor + Send>>, Problem> {
    let workers = setup.workers.max(1);
    let isolation = match &setup.mode {
        Mode::Nothing => return Ok(vec![Box::new(NoExecutor)]),
        Mode::Canned(dir) => {
            let canned = || -> Box<dyn Executor + Send> { Box::new(CannedExecutor::new(dir)) };
            return Ok((0..workers).map(|_| canned()).collect());
        }
        Mode::Native => {
            return Ok(vec![Box::new(ProcessExecutor {
                launcher: Launcher::native()
                    .aslr(setup.allow_aslr)
                    .homed(EmptyHome::create().ok().map(Arc::new)),
                exe: setup.exe.clone(),
                cwd: setup.cwd.clone(),
                // Test mode prints libtest's lines only.
                log: LogLevel::Warn,
                workspace_root: setup.workspace_root.clone(),
                records: records.clone(),
            })]);
        }
        Mode::Valgrind(_) if !cfg!(target_os = "linux") => return Err(Problem::new(not_linux())),
        Mode::Valgrind(isolation) => *isolation,
    };
    let valgrind = (setup.valgrind.clone())
        .ok_or_else(|| crate::problem!("Valgrind was not found for a run under Valgrind"))?;
    // Each worker's processes on a processor of their own ([`launcher::placements`]).
    let placements = launcher::placements(setup.realtime);
    let process = ProcessExecutor {
        launcher: Launcher::under(valgrind)
            .aslr(setup.allow_aslr)
            .preloading(preload::install(&setup.home.join(PRELOAD)))
            .homed(Some(Arc::new(EmptyHome::create()?))),
        exe: setup.exe.clone(),
        cwd: setup.cwd.clone(),
        log: setup.log,
        workspace_root: setup.workspace_root.clone(),
        records: records.clone(),
    };
    let one = |worker: usize| -> Box<dyn Executor + Send> {
        let placement = (!placements.is_empty()).then(|| placements[worker % placements.len()]);
        let process = ProcessExecutor {
            launcher: process.launcher.clone().placed(placement),
            ..process.clone()
        };
        match isolation {
            Isolation::Process => Box::new(process),
            #[cfg(unix)]
            Isolation::Fork => Box::new(ForkExecutor::new(process, setup.home.clone())),
            #[cfg(not(unix))]
            Isolation::Fork => Box::new(process),
        }
    };
    Ok((0..workers).map(one).collect())
}

/// What `cargo bench` says outside Linux, where Valgrind does not run.
pub fn not_linux() -> String {
    format!(
        "benchgrind measures under Valgrind, which runs on Linux only (this is {os}). Here \
         `cargo test --benches` runs every benchmark once, natively (test mode). To measure from \
         this machine, run the benchmarks in a Linux container with Rust and Valgrind, from the \
         package's directory: docker run --rm -v \"$PWD:$PWD\" -w \"$PWD\" rust:1-bookworm sh \
         -c 'apt-get update && apt-get install -y valgrind && cargo bench' (podman works the \
         same way)",
        os = std::env::consts::OS
    )
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
