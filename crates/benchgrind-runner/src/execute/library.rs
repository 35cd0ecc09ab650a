//! Library benchmarks, one Valgrind process each: the bench binary in measured-process mode
//! ([`crate::measured`]) started by the [`ProcessExecutor`], which is the [`Executor`] of
//! both kinds (binary benchmarks are [`super::binary`]'s); in test mode the same processes
//! without Valgrind.

use crate::error::{FileResult, Problem};
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use super::args::{file_args, tool_args};
use super::ended::{describe_end, valgrind_error};
use super::executor::{Captured, Executor, RunOutput, Status};
use super::process::ProcessExecutor;
use crate::config::Tool;
use crate::perf::samples::Spec;
use crate::plan::{Job, JobKind};
use crate::store::Which;

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

    fn run_perf(&mut self, job: &Job, spec: &Spec, out: &Path) -> RunOutput {
        let start = Instant::now();
        let (status, output) = match &job.kind {
            JobKind::Library(index) => self.sample_perf(job, *index, spec, out),
            #[cfg(perf_counters)]
            JobKind::Binary(binary) => super::binary::perf::run(self, job, binary, spec, out),
            #[cfg(not(perf_counters))]
            JobKind::Binary(_) => (
                Status::Failed("perf counts on Linux only".into()),
                Captured::default(),
            ),
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
        let (_sandbox, cwd) = match self.place(job) {
            Ok(place) => place,
            Err(why) => return (Status::Failed(why.into()), Captured::default()),
        };
        let mut cmd = self.command(job, args, &self.exe);
        self.bind_now(job, &mut cmd);
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

    /// The bench binary, natively, sampling bench `index` with perf's counters
    /// ([`crate::perf::sampler`]): the benchmark's environment and working directory (its
    /// sandbox, if any), never Valgrind.
    fn sample_perf(
        &self,
        job: &Job,
        index: [usize; 3],
        spec: &Spec,
        out: &Path,
    ) -> (Status, Captured) {
        let (_sandbox, cwd) = match self.place(job) {
            Ok(place) => place,
            Err(why) => return (Status::Failed(why.into()), Captured::default()),
        };
        // `perf record` runs the sampling process under the perf program.
        let mut cmd = match &spec.record {
            Some((path, args)) => {
                let mut cmd = self.native_command(job, Path::new("perf"));
                cmd.arg("record").arg("-o").arg(path).args(args).arg("--");
                cmd.arg(&self.exe);
                cmd
            }
            None => self.native_command(job, &self.exe),
        };
        cmd.arg(crate::protocol::PERF_FLAG)
            .arg(out)
            .args(index.map(|i| i.to_string()))
            .args(
                (job.config.deterministic_random)
                    .then(|| format!("{}={}", crate::protocol::SEED_FLAG, job.config.random_seed)),
            )
            .env(crate::protocol::PERF_SPEC_ENV, spec.encode())
            .current_dir(&cwd)
            .stdin(Stdio::null());
        crate::messages::debug!("{} perf: {:?}", job.id.full(), cmd);
        let output = match cmd.output() {
            Ok(output) => output,
            Err(e) => {
                return (
                    Status::Failed(format!("cannot start {}: {e}", self.exe.display())),
                    Captured::default(),
                )
            }
        };
        let mut captured = Captured::default();
        captured.append(&output.stdout, &output.stderr);
        // Exit 3: the samples file says why (perf not allowed, no such event).
        let status = if output.status.success() || output.status.code() == Some(3) {
            Status::Ok
        } else {
            Status::Failed(describe_end(
                &output.status,
                &String::from_utf8_lossy(&output.stderr),
            ))
        };
        (status, captured)
    }

    /// Where a library benchmark's process runs: its output directory made, its sandbox (if any,
    /// removed when dropped) and the working directory in it or the package's.
    fn place(
        &self,
        job: &Job,
    ) -> Result<(Option<super::sandbox::SandboxDir>, std::path::PathBuf), Problem> {
        std::fs::create_dir_all(&job.paths.dir)
            .file_op("create the output directory", &job.paths.dir)?;
        let sandbox = match job.config.sandbox.as_ref().filter(|s| s.enabled) {
            Some(config) => Some(super::sandbox::SandboxDir::create(
                config,
                &self.workspace_root,
            )?),
            None => None,
        };
        let base = sandbox
            .as_ref()
            .map_or(self.cwd.as_path(), |s| s.path.as_path());
        let cwd = match &job.config.current_dir {
            Some(dir) => base.join(dir),
            None => base.to_path_buf(),
        };
        Ok((sandbox, cwd))
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
