//! One Valgrind process per benchmark: the bench binary in measured-process mode for library
//! benchmarks ([`crate::measured`]), the command with its hooks for binary ones
//! (`execute::binary`); in test mode the same processes without Valgrind.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::args::{callgrind_args, file_args, tool_args};
use super::ended::{describe_end, valgrind_error};
use super::{Captured, Executor, RunOutput, Status};
use crate::cli::LogLevel;
use crate::config::Tool;
use crate::plan::{Job, JobKind};
use crate::store::Which;

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

impl Executor for ProcessExecutor {
    fn run(&mut self, job: &Job) -> RunOutput {
        let start = Instant::now();
        let (status, output) = self.run_inner(job);
        RunOutput {
            status,
            duration: start.elapsed(),
            output,
        }
    }

    fn run_tool(&mut self, job: &Job, tool: &Tool) -> RunOutput {
        let start = Instant::now();
        let (status, output) = match &job.kind {
            JobKind::Library(index) => {
                let kind = tool.kind();
                let out = kind.out_file().map(|f| job.paths.file(f, Which::New));
                let log = job.paths.file(&kind.log_file(), Which::New);
                let args = tool_args(tool, &job.paths);
                self.run_measured(job, *index, args, out.as_deref(), &log)
            }
            JobKind::Binary(binary) => super::binary::run_tool(self, job, binary, tool),
        };
        RunOutput {
            status,
            duration: start.elapsed(),
            output,
        }
    }
}

impl ProcessExecutor {
    /// Callgrind's arguments for a job, but for its files.
    pub fn valgrind_args(&self, job: &Job) -> Vec<String> {
        callgrind_args(job, &self.cli_args)
    }

    fn run_inner(&self, job: &Job) -> (Status, Captured) {
        match &job.kind {
            JobKind::Library(index) => self.run_library(job, *index),
            JobKind::Binary(binary) => super::binary::run(self, job, binary),
        }
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

    fn run_library(&self, job: &Job, index: [usize; 3]) -> (Status, Captured) {
        let mut args = self.valgrind_args(job);
        args.extend(file_args(job));
        let profile = job.paths.file("callgrind.out", Which::New);
        let log = job.paths.file("callgrind.log", Which::New);
        self.run_measured(job, index, args, Some(&profile), &log)
    }

    /// Runs the bench binary as the measured process of `index` under Valgrind with `args`;
    /// `expected`, if given, must exist afterwards, and `log` is where Valgrind's complaints are
    /// looked for.
    fn run_measured(
        &self,
        job: &Job,
        index: [usize; 3],
        args: Vec<String>,
        expected: Option<&Path>,
        log: &Path,
    ) -> (Status, Captured) {
        if let Err(e) = std::fs::create_dir_all(&job.paths.dir) {
            let reason = format!(
                "cannot create the output directory {}: {e}",
                job.paths.dir.display()
            );
            return (Status::Failed(reason), Captured::default());
        }
        let mut cmd = self.command(job, args, &self.exe);
        cmd.arg(crate::protocol::FLAG)
            .args(index.map(|i| i.to_string()))
            .args(
                (job.config.deterministic_random)
                    .then(|| format!("{}={}", crate::protocol::SEED_FLAG, job.config.random_seed)),
            )
            .current_dir(&self.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.log >= LogLevel::Debug {
            eprintln!("benchgrind: {} {:?}", job.id.full(), cmd);
        }
        let output = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                let reason = format!("cannot start {}: {e}", self.valgrind.display());
                return (Status::Failed(reason), Captured::default());
            }
        };
        let mut captured = Captured::default();
        captured.append(&output.stdout, &output.stderr);
        (self.measured_status(&output, expected, log), captured)
    }

    /// How a measured process ended: `expected`, if given, must exist.
    fn measured_status(
        &self,
        output: &std::process::Output,
        expected: Option<&Path>,
        log: &Path,
    ) -> Status {
        if output.status.success() {
            if self.native || expected.map_or(true, Path::exists) {
                return Status::Ok;
            }
            return Status::Failed("Valgrind wrote no profile".into());
        }
        let how = describe_end(&output.status, &String::from_utf8_lossy(&output.stderr));
        let valgrind_error = std::fs::read_to_string(log)
            .ok()
            .and_then(|text| valgrind_error(&text));
        match valgrind_error {
            Some(e) => Status::Failed(format!("{how}; Valgrind said: {e}")),
            None => Status::Failed(how),
        }
    }
}
