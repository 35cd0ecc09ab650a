//! [`ProcessExecutor`], the executor of one Valgrind process per benchmark, and how it makes a
//! job's command: the bench binary or a binary benchmark's command, started through the run's
//! [`Launcher`] with the job's environment. What it runs is in `execute::library` (the bench
//! binary in measured-process mode, and the [`super::Executor`] it is) and `execute::binary`
//! (a command with its hooks).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::args::callgrind_args;
use super::launcher::Launcher;
use crate::cli::LogLevel;
use crate::config::Stdin;
use crate::plan::{Job, JobKind};
use crate::protocol::{BIND_NOW_ADDED_ENV, BIND_NOW_ENV, INSTR_ATSTART_OFF, VALGRIND_OPTS_ENV};

/// `VALGRIND_OPTS` of a measured process that starts uninstrumented: what it would have had (the
/// job's own value, else this environment's unless cleared) and `marker` ([`INSTR_ATSTART_OFF`]
/// or Cachegrind's) after it.
fn uninstrumented_opts(job: &Job, marker: &str) -> std::ffi::OsString {
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
    opts.push(marker);
    opts
}

/// One Valgrind process per benchmark, running the bench binary in measured-process mode.
#[derive(Debug, Clone)]
pub struct ProcessExecutor {
    /// What starts the processes: Valgrind or natively (test mode), where, the preload library.
    pub launcher: Launcher,
    /// The bench binary.
    pub exe: PathBuf,
    /// The working directory of benchmarks (the package's directory, as under `cargo bench`).
    pub cwd: PathBuf,
    /// `BENCHGRIND_LOG`: debug prints the command lines, info the captured output.
    pub log: LogLevel,
    /// The workspace root: where fixture paths start, `_WORKSPACE_ROOT` of hooks.
    pub workspace_root: PathBuf,
    /// The run's records of inputs: a binary benchmark's is checked after its setup.
    pub records: std::sync::Arc<super::reuse::Records>,
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
    /// `program` natively, never under Valgrind, in the benchmark's environment (cleared, or
    /// configured): perf's sampling runs.
    pub(crate) fn native_command(&self, job: &Job, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        self.environment(job, &mut cmd);
        cmd
    }

    /// Binds every symbol of the bench binary's libraries as it starts ([`BIND_NOW_ENV`]), so
    /// that a shared library's function first called inside the window costs its call, not its
    /// symbol's lookup (a thousand instructions for glibc's `dlsym`, which the peers' fresh
    /// processes count on a benchmark's first call): unless the benchmark's environment sets
    /// the variable itself, it is added with [`BIND_NOW_ADDED_ENV`], and the measured process
    /// removes both as it starts.
    pub(crate) fn bind_now(&self, job: &Job, cmd: &mut Command) {
        let own = job.config.envs.iter().any(|(key, value)| {
            key == BIND_NOW_ENV && (value.is_some() || std::env::var_os(key).is_some())
        });
        let kept = !job.config.env_clear && std::env::var_os(BIND_NOW_ENV).is_some();
        if !own && !kept {
            cmd.env(BIND_NOW_ENV, "1").env(BIND_NOW_ADDED_ENV, "1");
        }
    }

    /// The benchmark's environment on `cmd`: cleared (with a home of its own) unless the code
    /// keeps it, then the code's variables, `None` ones passed through from the harness's.
    fn environment(&self, job: &Job, cmd: &mut Command) {
        if job.config.env_clear {
            cmd.env_clear();
            self.launcher.home_of_its_own(cmd);
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
    }

    pub(crate) fn command(&self, job: &Job, valgrind_args: Vec<String>, program: &Path) -> Command {
        // Callgrind's runs start uninstrumented where the window opens, and so do Cachegrind's
        // where Valgrind gave it start and stop requests (3.22); the other tools have no such
        // option.
        let callgrind = valgrind_args.iter().any(|a| a == "--tool=callgrind");
        let cachegrind = valgrind_args.iter().any(|a| a == "--tool=cachegrind");
        // A session of its own, and with it a process group of its own: the interrupt handler
        // kills it with everything it started ([`super::interrupt`]), and no process of it has
        // a controlling terminal, in a terminal or not ([`Launcher::command_without_terminal`]).
        // Not a command reading the terminal: outside the foreground group it would be
        // stopped; Ctrl-C reaches it as it reaches the harness.
        let reads_terminal = matches!(
            &job.kind,
            JobKind::Binary(b) if matches!(b.command.stdin, Some(Stdin::Inherit))
        );
        let mut cmd = if reads_terminal {
            self.launcher.command(&valgrind_args, program)
        } else {
            self.launcher
                .command_without_terminal(&valgrind_args, program)
        };
        self.environment(job, &mut cmd);
        if !self.launcher.is_native() && super::args::starts_uninstrumented(job) {
            if callgrind {
                cmd.env(
                    VALGRIND_OPTS_ENV,
                    uninstrumented_opts(job, INSTR_ATSTART_OFF),
                );
            } else if cachegrind
                && self
                    .launcher
                    .valgrind()
                    .is_some_and(|v| v.cachegrind_has_window())
            {
                let marker = crate::protocol::CACHEGRIND_INSTR_ATSTART_OFF;
                cmd.env(VALGRIND_OPTS_ENV, uninstrumented_opts(job, marker));
            }
        }
        cmd
    }

    /// Test mode: the same processes without Valgrind (and no profile expected).
    pub fn native(&self) -> bool {
        self.launcher.is_native()
    }
}
