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

/// One Valgrind process per benchmark, running the bench binary in measured-process mode.
#[derive(Debug, Clone)]
pub struct ProcessExecutor {
    /// The valgrind launcher.
    pub valgrind: PathBuf,
    /// The bench binary.
    pub exe: PathBuf,
    /// The working directory of benchmarks (the package's directory, as under `cargo bench`).
    pub cwd: PathBuf,
    /// `--callgrind-args` of the command line, after the config's.
    pub cli_args: Vec<String>,
    /// `BENCHGRIND_LOG`: debug prints the command lines, info the captured output.
    pub log: LogLevel,
    /// The workspace root: where fixture paths start, `_WORKSPACE_ROOT` of hooks.
    pub workspace_root: PathBuf,
    /// Test mode: run the same processes without Valgrind (and expect no profile).
    pub native: bool,
}

impl ProcessExecutor {
    /// Callgrind's arguments for a job, but for its files.
    pub fn valgrind_args(&self, job: &Job) -> Vec<String> {
        callgrind_args(job, &self.cli_args)
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
        let mut cmd = if self.native {
            Command::new(program)
        } else {
            let mut cmd = Command::new(&self.valgrind);
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
        // Set for a custom entry point only, and never passed on from this environment.
        if super::args::custom_entry_point(job).is_some() {
            cmd.env(crate::protocol::ENTRY_POINT_ENV, "1");
        } else {
            cmd.env_remove(crate::protocol::ENTRY_POINT_ENV);
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
