//! How every executor starts a process for a job: the bench binary or a binary benchmark's
//! command, under Valgrind or natively (test mode), with the job's environment and ASLR off.
//! [`ProcessExecutor`] holds what that needs; running and judging a process is elsewhere
//! ([`super::process`], [`super::binary`]).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::args::callgrind_args;
use crate::cli::LogLevel;
use crate::config::Stdin;
use crate::plan::{Job, JobKind};
use crate::protocol::{INSTR_ATSTART_OFF, VALGRIND_OPTS_ENV};

/// `VALGRIND_OPTS` of a measured process that starts uninstrumented: what it would have had (the
/// job's own value, else this environment's unless cleared) and [`INSTR_ATSTART_OFF`] after it.
fn uninstrumented_opts(job: &Job) -> std::ffi::OsString {
    let configured = job
        .config
        .envs
        .iter()
        .rev()
        .find(|(key, _)| key == VALGRIND_OPTS_ENV)
        .map(|(_, value)| {
            value
                .clone()
                .or_else(|| std::env::var_os(VALGRIND_OPTS_ENV))
        });
    let mut opts = match configured {
        Some(value) => value.unwrap_or_default(),
        None if job.config.env_clear => Default::default(),
        None => std::env::var_os(VALGRIND_OPTS_ENV).unwrap_or_default(),
    };
    opts.push(INSTR_ATSTART_OFF);
    opts
}

/// `--allow-aslr`: measured processes keep address space layout randomization.
static ALLOW_ASLR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Leaves ASLR on in every process started from now on (`--allow-aslr`), or turns it off again.
pub fn allow_aslr(allow: bool) {
    ALLOW_ASLR.store(allow, std::sync::atomic::Ordering::Relaxed);
}

/// One Valgrind process per benchmark, running the bench binary in measured-process mode.
#[derive(Debug, Clone)]
pub struct ProcessExecutor {
    /// The valgrind launcher.
    pub valgrind: PathBuf,
    /// The bench binary.
    pub exe: PathBuf,
    /// The working directory of benchmarks (the package's directory, as under `cargo bench`).
    pub cwd: PathBuf,
    /// `BENCHGRIND_LOG`: debug prints the command lines, info the captured output.
    pub log: LogLevel,
    /// The workspace root: where fixture paths start, `_WORKSPACE_ROOT` of hooks.
    pub workspace_root: PathBuf,
    /// Test mode: run the same processes without Valgrind (and expect no profile).
    pub native: bool,
    /// The processor measured processes run on under `SCHED_FIFO` ([`super::realtime`]);
    /// `None` where that is not permitted or not asked for.
    pub cpu: Option<usize>,
    /// The preload library that makes a binary benchmark's random draws deterministic
    /// ([`super::preload`]), where it was built.
    pub preload: Option<PathBuf>,
}

impl ProcessExecutor {
    /// Callgrind's arguments for a job, but for its files.
    pub fn valgrind_args(&self, job: &Job) -> Vec<String> {
        callgrind_args(job)
    }

    /// The command that runs `program` for `job` under Valgrind (writing to `files`), or
    /// natively in test mode: the cleared or configured environment, ASLR off. The program's
    /// own arguments come next.
    pub(crate) fn valgrind_command(&self, job: &Job, files: &[String], program: &Path) -> Command {
        let mut args = self.valgrind_args(job);
        args.extend(files.iter().cloned());
        self.command(job, args, program)
    }

    /// [`Self::valgrind_command`] with the complete Valgrind arguments given.
    pub(crate) fn command(&self, job: &Job, valgrind_args: Vec<String>, program: &Path) -> Command {
        // Callgrind's runs start uninstrumented where the window opens; the other tools have no
        // such option.
        let callgrind = valgrind_args.iter().any(|a| a == "--tool=callgrind");
        let mut cmd = if self.native {
            Command::new(program)
        } else {
            let mut cmd = super::valgrind::command(&self.valgrind);
            cmd.args(valgrind_args).arg(program);
            cmd
        };
        if job.config.env_clear {
            cmd.env_clear();
        }
        for (key, value) in &job.config.envs {
            match value {
                Some(v) => {
                    cmd.env(key, v);
                }
                None => {
                    if let Some(v) = std::env::var_os(key) {
                        cmd.env(key, v);
                    }
                }
            }
        }
        if !self.native && callgrind && super::args::starts_uninstrumented(job) {
            cmd.env(VALGRIND_OPTS_ENV, uninstrumented_opts(job));
        }
        // A process group of its own: the interrupt handler kills it with everything it started
        // ([`super::interrupt`]). Not a command reading the terminal: outside the foreground
        // group it would be stopped; Ctrl-C reaches it as it reaches the harness.
        let reads_terminal = matches!(
            &job.kind,
            JobKind::Binary(b) if matches!(b.command.stdin, Some(Stdin::Inherit))
        );
        if !reads_terminal {
            cmd.process_group(0);
        }
        if let (Some(cpu), false) = (self.cpu, self.native) {
            super::realtime::apply(&mut cmd, cpu);
        }
        if ALLOW_ASLR.load(std::sync::atomic::Ordering::Relaxed) {
            return cmd;
        }
        // SAFETY: personality(2) is async-signal-safe and touches no memory of the parent; it
        // only sets a flag of the about-to-exec process.
        unsafe {
            cmd.pre_exec(|| {
                let current = libc::personality(0xffff_ffff);
                if current != -1 {
                    libc::personality((current | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
                }
                Ok(())
            });
        }
        cmd
    }
}
