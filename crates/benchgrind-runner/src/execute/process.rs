//! One Valgrind process per benchmark, [`ProcessExecutor`]: the bench binary in
//! measured-process mode for library benchmarks ([`crate::measured`]), the command with its
//! hooks for binary ones (`execute::binary`); in test mode the same processes without Valgrind.
//! Every process starts through the run's [`Launcher`], with the job's environment.

use crate::error::FileResult;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::args::{callgrind_args, file_args, tool_args};
use super::ended::{describe_end, valgrind_error};
use super::executor::{Captured, Executor, RunOutput, Status};
use super::launcher::Launcher;
use crate::cli::LogLevel;
use crate::config::{Stdin, Tool};
use crate::plan::{Job, JobKind};
use crate::protocol::{INSTR_ATSTART_OFF, VALGRIND_OPTS_ENV};
use crate::store::Which;

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
    pub(crate) fn command(&self, job: &Job, valgrind_args: Vec<String>, program: &Path) -> Command {
        // Callgrind's runs start uninstrumented where the window opens, and so do Cachegrind's
        // where Valgrind gave it start and stop requests (3.22); the other tools have no such
        // option.
        let callgrind = valgrind_args.iter().any(|a| a == "--tool=callgrind");
        let cachegrind = valgrind_args.iter().any(|a| a == "--tool=cachegrind");
        let mut cmd = self.launcher.command(&valgrind_args, program);
        if job.config.env_clear {
            cmd.env_clear();
            self.launcher.home_of_its_own(&mut cmd);
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
        // A process group of its own: the interrupt handler kills it with everything it started
        // ([`super::interrupt`]). Not a command reading the terminal: outside the foreground
        // group it would be stopped; Ctrl-C reaches it as it reaches the harness.
        let reads_terminal = matches!(
            &job.kind,
            JobKind::Binary(b) if matches!(b.command.stdin, Some(Stdin::Inherit))
        );
        #[cfg(unix)]
        if !reads_terminal {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        #[cfg(not(unix))]
        let _ = reads_terminal;
        cmd
    }

    /// Test mode: the same processes without Valgrind (and no profile expected).
    pub fn native(&self) -> bool {
        self.launcher.is_native()
    }
}

impl Executor for ProcessExecutor {
    fn run(&mut self, job: &Job) -> RunOutput {
        let start = Instant::now();
        let (status, output, reuse) = self.run_inner(job);
        RunOutput {
            status,
            duration: start.elapsed(),
            output,
            reuse,
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
                let files = (out.as_deref(), log.as_path());
                self.run_measured(job, *index, args, files, Some(tool))
            }
            JobKind::Binary(binary) => super::binary::run_tool(self, job, binary, tool),
        };
        RunOutput {
            status,
            duration: start.elapsed(),
            output,
            reuse: Default::default(),
        }
    }

    fn exact_threads(&self) -> bool {
        self.launcher.placement().is_some_and(|p| p.exact())
    }

    fn exact_pids(&self) -> bool {
        !self.launcher.machine_pids()
    }
}

impl ProcessExecutor {
    fn run_inner(&self, job: &Job) -> (Status, Captured, super::reuse::Verdict) {
        match &job.kind {
            JobKind::Library(index) => {
                let (status, captured) = self.run_library(job, *index);
                (status, captured, Default::default())
            }
            JobKind::Binary(binary) => super::binary::run(self, job, binary),
        }
    }

    fn run_library(&self, job: &Job, index: [usize; 3]) -> (Status, Captured) {
        let mut args = self.valgrind_args(job);
        args.extend(file_args(job));
        let profile = job.paths.file("callgrind.out", Which::New);
        let log = job.paths.file("callgrind.log", Which::New);
        self.run_measured(job, index, args, (Some(&profile), &log), None)
    }

    /// Runs the bench binary as the measured process of `index` under Valgrind with `args`;
    /// of `(expected, log)`, the first, if given, must exist afterwards, and the log is where
    /// Valgrind's complaints are looked for. `tool` is a tool other than Callgrind.
    fn run_measured(
        &self,
        job: &Job,
        index: [usize; 3],
        args: Vec<String>,
        (expected, log): (Option<&Path>, &Path),
        tool: Option<&Tool>,
    ) -> (Status, Captured) {
        let created = std::fs::create_dir_all(&job.paths.dir)
            .file_op("create the output directory", &job.paths.dir);
        if let Err(e) = created {
            return (Status::Failed(e.to_string()), Captured::default());
        }
        // The sandbox, removed when the run ends; the working directory in it or the package's.
        let sandbox = match job.config.sandbox.as_ref().filter(|s| s.enabled) {
            Some(config) => {
                match super::sandbox::SandboxDir::create(config, &self.workspace_root) {
                    Ok(dir) => Some(dir),
                    Err(e) => return (Status::Failed(e.into()), Captured::default()),
                }
            }
            None => None,
        };
        let base = sandbox
            .as_ref()
            .map_or(self.cwd.as_path(), |s| s.path.as_path());
        let cwd = match &job.config.current_dir {
            Some(dir) => base.join(dir),
            None => base.to_path_buf(),
        };
        let mut cmd = self.command(job, args, &self.exe);
        cmd.arg(crate::protocol::FLAG)
            .args(index.map(|i| i.to_string()))
            .args(
                (job.config.deterministic_random)
                    .then(|| format!("{}={}", crate::protocol::SEED_FLAG, job.config.random_seed)),
            )
            .current_dir(&cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(tool) = tool {
            cmd.env(crate::protocol::TOOL_ENV, tool.kind().id());
            if tool.ballast > 0 {
                cmd.env(crate::protocol::DHAT_BALLAST_ENV, tool.ballast.to_string());
            }
        }
        crate::messages::debug!("{} {:?}", job.id.full(), cmd);
        let settle = match tool {
            _ if self.native() => super::children::Files::Nothing,
            Some(tool) => super::children::Files::Tool(tool),
            None => super::children::Files::Callgrind,
        };
        let limits = super::watch::Limits::of(&job.config);
        let ran =
            match super::children::output(&mut cmd, &self.launcher, settle, &job.paths, limits) {
                Ok(ran) => ran,
                Err(e) => {
                    let reason =
                        super::ended::cannot_start(self.launcher.valgrind_path(), &cwd, &e);
                    return (Status::Failed(reason.into()), Captured::default());
                }
            };
        let (output, settled) = (ran.output, ran.settled);
        let mut captured = Captured::default();
        captured.append(&output.stdout, &output.stderr);
        captured.disk_reads += ran.usage.disk_reads;
        if let Some(stopped) = ran.stopped {
            return (Status::Failed(stopped.reason()), captured);
        }
        let status = match (self.measured_status(&output, expected, log), settled) {
            (status, Ok(())) => status,
            (Status::Failed(how), Err(e)) => Status::Failed(format!("{how}; {e}")),
            (_, Err(e)) => Status::Failed(e.into()),
        };
        (status, captured)
    }

    /// How a measured process ended: `expected`, if given, must exist.
    fn measured_status(
        &self,
        output: &std::process::Output,
        expected: Option<&Path>,
        log: &Path,
    ) -> Status {
        if output.status.success() {
            if self.native() || expected.map_or(true, Path::exists) {
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
