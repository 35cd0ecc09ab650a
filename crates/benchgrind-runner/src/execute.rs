//! Stage 3 of the pipeline, execute: a job becomes a Valgrind process whose profile and log land
//! in the job's `*.new` files.
//!
//! Everything that starts processes is behind [`Executor`], so scheduling and reporting can be
//! tested without Valgrind, and so the one-process-per-benchmark model here can be replaced by a
//! fork server without touching the rest of the pipeline.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::args::{LogLevel, Nocapture};
use crate::client_request::SUPPORTED;
use crate::measure::FALLBACK_SYMBOL;
use crate::plan::{Job, JobKind};
use crate::store::Which;
use crate::tools::{self, Tool};

/// Fixed cache geometry: Valgrind's auto-detection differs between hosts (on some VMs it picks a
/// 256 MiB direct-mapped LL and warns), which would make cache metrics machine-dependent.
pub const CACHE_GEOMETRY: [&str; 3] = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

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
    /// The Valgrind arguments of a job, but for its files ([`Self::file_args`]).
    pub fn valgrind_args(&self, job: &Job) -> Vec<String> {
        let mut args = vec!["--tool=callgrind".to_owned()];
        match &job.kind {
            JobKind::Library(_) if SUPPORTED => {
                // Start-up, the runtime and setup run uninstrumented; the bench's client requests
                // start instrumentation and collection around the body only.
                args.push("--instr-atstart=no".into());
                args.push("--collect-atstart=no".into());
                // `EntryPoint::Custom`: collection turns off on entering the benchmark function
                // and on again inside the entry point, so only the entry point's calls count
                // (and the few instructions of the call into the benchmark function).
                if let Some(crate::EntryPoint::Custom(entry)) = &job.config.entry_point {
                    args.push(format!("--toggle-collect={}", job.function_path));
                    args.push(format!("--toggle-collect={entry}"));
                }
            }
            JobKind::Library(_) => {
                args.push(format!("--toggle-collect={FALLBACK_SYMBOL}"));
                args.push("--collect-atstart=no".into());
            }
            JobKind::Binary(binary) => {
                // The whole process, or only the entry point and what it calls.
                if let Some(entry) = &binary.entry_point {
                    args.push(format!("--toggle-collect={entry}"));
                    args.push("--collect-atstart=no".into());
                }
            }
        }
        args.push("--cache-sim=yes".into());
        args.extend(CACHE_GEOMETRY.map(String::from));
        args.extend(job.config.raw_callgrind_args.iter().cloned());
        args.extend(self.cli_args.iter().cloned());
        args
    }

    /// Where Valgrind writes a job's profile and log: after all other arguments, so that no
    /// user argument can move the files the runner reads.
    pub fn file_args(job: &Job) -> [String; 2] {
        let file = |name, which| job.paths.file(name, which).display().to_string();
        [
            format!("--callgrind-out-file={}", file("callgrind.out", Which::New)),
            format!("--log-file={}", file("callgrind.log", Which::New)),
        ]
    }
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
                let args = tools::valgrind_args(tool, &job.paths);
                self.run_measured(job, *index, args, out.as_deref(), &log)
            }
            JobKind::Binary(binary) => crate::execute_binary::run_tool(self, job, binary, tool),
        };
        RunOutput {
            status,
            duration: start.elapsed(),
            output,
        }
    }
}

impl ProcessExecutor {
    fn run_inner(&self, job: &Job) -> (Status, Captured) {
        match &job.kind {
            JobKind::Library(index) => self.run_library(job, *index),
            JobKind::Binary(binary) => crate::execute_binary::run(self, job, binary),
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
        args.extend(Self::file_args(job));
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
        cmd.arg(crate::child::FLAG)
            .args(index.map(|i| i.to_string()))
            .args(
                (job.config.deterministic_random)
                    .then(|| format!("{}={}", crate::child::SEED_FLAG, job.config.random_seed)),
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

/// How a process that failed ended, for the report: the panic message when its stderr holds
/// one, else its exit code or signal.
pub(crate) fn describe_end(status: &std::process::ExitStatus, stderr: &str) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (panic_message(stderr), status.code()) {
        (Some(panic), _) => format!("panicked: {panic}"),
        (None, Some(code)) => format!("exited with code {code}"),
        (None, None) => format!("was killed by signal {}", status.signal().unwrap_or(0)),
    }
}

/// The message of a Rust panic in captured stderr: the text after `panicked at <location>:`.
pub(crate) fn panic_message(stderr: &str) -> Option<String> {
    let start = stderr.find("panicked at ")?;
    let rest = &stderr[start..];
    let mut lines = rest.lines();
    let first = lines.next()?;
    let location = first
        .trim_start_matches("panicked at ")
        .trim_end_matches(':');
    let message: Vec<&str> = lines
        .take_while(|l| !l.starts_with("note: ") && !l.starts_with("stack backtrace"))
        .collect();
    Some(format!("{} (at {location})", message.join("\n").trim()))
}

/// Valgrind's own complaint in a log (an unknown option, a bad value), if any.
pub(crate) fn valgrind_error(log: &str) -> Option<String> {
    log.lines()
        .map(|l| {
            l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .trim()
        })
        .find(|l| {
            l.starts_with("valgrind:")
                || l.starts_with("Bad option")
                || l.contains("Unknown option")
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_messages_from_stderr() {
        let stderr = "\nthread 'main' panicked at benches/x.rs:10:5:\nboom: 3\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(stderr).as_deref(),
            Some("boom: 3 (at benches/x.rs:10:5)")
        );
        assert_eq!(panic_message("nothing"), None);
    }

    #[test]
    fn valgrind_complaints_from_the_log() {
        let log = "==12== Callgrind\nvalgrind: Unknown option: --frob=1\n";
        assert_eq!(
            valgrind_error(log).as_deref(),
            Some("valgrind: Unknown option: --frob=1")
        );
    }
}
