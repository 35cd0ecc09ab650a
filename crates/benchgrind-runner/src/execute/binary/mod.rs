//! Stage 3 for binary benchmarks: the sandbox, setup and teardown in a child process of the
//! bench binary, and the command itself under Valgrind, with its streams and expected exit.
//!
//! Hooks run in their own process (the bench binary with [`HOOK_FLAG`]) so that
//! they can work in the sandbox and feed the command's stdin without the harness changing its
//! own working directory while benchmarks run. The sandbox is a new one per command, or the one
//! a group of 0.9 to 0.12 `Run`s shares ([`super::sandbox`]).

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio as StdStdio};

use super::args::{file_args, tool_args};
use super::ended::valgrind_error;
use super::executor::{Captured, Status};
use super::process::ProcessExecutor;
use super::reuse::{self, Logs, Records, Verdict};
use super::sandbox::SandboxDir;
use crate::config::{Stdin, Stdio, Tool};
use crate::plan::{BinaryJob, Job};
use crate::protocol::RANDOM_SEED_ENV;
use crate::store::Which;
use hooks::{run_hook, Hooks, SetupChild};

mod hooks;
#[cfg(perf_counters)]
pub(super) mod perf;

/// How many lines of the command's stderr a failure shows.
const STDERR_TAIL: usize = 10;

/// Runs one binary benchmark: sandbox, setup, command, teardown; or, when its record of inputs
/// matches after its setup, its last results in place of the command's ([`super::reuse`]).
pub(crate) fn run(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
) -> (Status, Captured, Verdict) {
    let files = Files {
        valgrind_args: None,
        tool: None,
        expected: Some(job.paths.file("callgrind.out", Which::New)),
        log: job.paths.file("callgrind.log", Which::New),
    };
    let mut captured = Captured::default();
    match run_inner(exec, job, binary, &files, &mut captured) {
        Ok(verdict) => (Status::Ok, captured, verdict),
        Err(reason) => (Status::Failed(reason.into()), captured, Verdict::Measure),
    }
}

/// Runs one binary benchmark under another tool: the same setup, command and teardown.
pub(crate) fn run_tool(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    tool: &Tool,
) -> (Status, Captured) {
    let kind = tool.kind();
    let files = Files {
        valgrind_args: Some(tool_args(tool, &job.paths)),
        tool: Some(tool.clone()),
        expected: kind.out_file().map(|f| job.paths.file(f, Which::New)),
        log: job.paths.file(&kind.log_file(), Which::New),
    };
    run_captured(exec, job, binary, &files)
}

/// [`run_inner`] with what its processes printed, in the order they ran.
fn run_captured(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    files: &Files,
) -> (Status, Captured) {
    let mut captured = Captured::default();
    let status = match run_inner(exec, job, binary, files, &mut captured) {
        Ok(_) => Status::Ok,
        Err(reason) => Status::Failed(reason.into()),
    };
    (status, captured)
}

/// What a run under one tool writes.
struct Files {
    /// The tool's complete Valgrind arguments, or `None` for Callgrind's.
    valgrind_args: Option<Vec<String>>,
    /// The tool besides Callgrind, whose files may need moving ([`super::children`]).
    tool: Option<Tool>,
    /// The output file that must exist afterwards, if the tool writes one.
    expected: Option<PathBuf>,
    /// Valgrind's log.
    log: PathBuf,
}

fn run_inner(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    files: &Files,
    captured: &mut Captured,
) -> Result<Verdict, Problem> {
    // Removed when this function returns, whatever happened; the group's shared sandbox is the
    // harness's to remove.
    let (sandbox, base) = place(exec, job, binary)?;
    let command = &binary.command;
    let cwd = match &command.current_dir {
        Some(dir) => base.join(dir),
        None => base.clone(),
    };
    let piped_from_setup = match &command.stdin {
        Some(Stdin::Setup(pipe)) => Some(*pipe),
        _ => None,
    };
    if let (false, Some(_)) = (binary.setup.is_some(), piped_from_setup) {
        return Err(Problem::new(
            "the command reads Stdin::Setup, but the bench has no setup",
        ));
    }
    // Everything that can fail is settled before a setup process starts.
    let mut cmd = measured_command(exec, job, binary, files, &cwd, captured)?;
    let stdin = stdin(command.stdin.as_ref(), &cwd)?;
    let mut setup = SetupChild {
        child: None,
        pipe: piped_from_setup,
        other: job.paths.dir.join("setup.other"),
        fed: None,
    };
    let at = Hooks {
        exec,
        job,
        binary,
        base: &base,
    };
    cmd.stdin(at.setup(&mut setup, stdin, captured)?);
    if let Some(delay) = &command.delay {
        super::delay::wait(delay, &cwd)?;
    }
    // Where the record of inputs is checked: after the setup, in the new sandbox.
    let place = (files.tool.is_none() && Records::recording(job)).then(|| reuse::Place {
        sandbox: binary.sandbox.as_ref().map(|_| base.clone()),
        cwd: cwd.clone(),
        given: setup
            .fed
            .iter()
            .map(|d| ("setup-stdin".to_owned(), d.clone()))
            .collect(),
        unfit: match (
            &command.stdin,
            command.setup_parallel && binary.setup.is_some(),
        ) {
            (_, true) => Some("its setup runs beside it".to_owned()),
            (Some(Stdin::Inherit), _) => Some("it reads the harness's stdin".to_owned()),
            _ => None,
        },
    });
    let mut verdict = Verdict::Measure;
    if let Some(place) = &place {
        verdict = exec.records.decide(job, place);
        if let Verdict::Reuse(_) = verdict {
            let names = ["callgrind.out", "callgrind.log"].map(String::from);
            if exec.records.reuse(job, place, &names) {
                setup.finish((&[], &[]), captured)?;
                if binary.teardown.is_some() {
                    run_hook(exec, job, binary, "teardown", &base, captured)?;
                }
                return Ok(verdict);
            }
            verdict = Verdict::Measure;
        } else {
            exec.records.begin(job);
        }
    }
    crate::messages::debug!("{} {:?}", job.id.full(), cmd);
    // The files settle before anything can fail, so that no run leaves its files to the next.
    let settle = match &files.tool {
        _ if exec.native() => super::children::Files::Nothing,
        Some(tool) => super::children::Files::Tool(tool),
        None => super::children::Files::Callgrind,
    };
    let limits = super::watch::Limits::of(&job.config);
    let ran = super::children::output(&mut cmd, &exec.launcher, settle, &job.paths, limits)
        .map_err(|e| super::ended::cannot_start(exec.launcher.valgrind_path(), &cwd, &e))?;
    let (output, settled) = (ran.output, ran.settled);
    setup.stop_parallel(captured);
    captured.disk_reads += ran.usage.disk_reads;
    if let Some(stopped) = ran.stopped {
        captured.append(&output.stdout, &output.stderr);
        return Err(Problem::new(stopped.reason()));
    }
    setup.finish((&output.stdout, &output.stderr), captured)?;
    captured.append(&output.stdout, &output.stderr);
    match (check_end(exec, binary, files, &output), settled) {
        (Err(how), Err(e)) => return Err(problem!("{how}; {e}")),
        (ended, settled) => ended.and(settled)?,
    }
    if let Some(place) = &place {
        // Before the teardown, which may remove what the command read.
        let log = &files.log;
        exec.records.write(job, Logs::Command { log, place });
    }
    if binary.teardown.is_some() {
        run_hook(exec, job, binary, "teardown", &base, captured)?;
    }
    drop(sandbox);
    Ok(verdict)
}

/// Where a binary benchmark runs: its output directory made, its own sandbox (if any, removed
/// when dropped) and the directory its command and hooks start from (the sandbox, the group's
/// shared one, or the package's directory).
fn place(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
) -> Result<(Option<SandboxDir>, PathBuf), Problem> {
    std::fs::create_dir_all(&job.paths.dir)
        .file_op("create the output directory", &job.paths.dir)?;
    let sandbox = match &binary.sandbox {
        Some(_) if binary.shared_sandbox => None,
        Some(config) => Some(SandboxDir::create(config, &exec.workspace_root)?),
        None => None,
    };
    let base = match &sandbox {
        _ if binary.shared_sandbox => super::sandbox::shared(job.group)?,
        Some(sandbox) => sandbox.path.clone(),
        None => exec.cwd.clone(),
    };
    Ok((sandbox, base))
}

/// The command under Valgrind (or natively in test mode), with its arguments, environment,
/// working directory and output streams; notes in `captured` which streams it shows.
fn measured_command(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    files: &Files,
    cwd: &Path,
    captured: &mut Captured,
) -> Result<Command, Problem> {
    let command = &binary.command;
    let program = resolve_program(&command.program, &exec.cwd)?;
    let mut cmd = match &files.valgrind_args {
        None => exec.valgrind_command(job, &file_args(job), &program),
        Some(args) => exec.command(job, args.clone(), &program),
    };
    cmd.args(&command.args).current_dir(cwd);
    for (key, value) in &command.envs {
        cmd.env(key, value);
    }
    if let (Some(_), Some(tool)) = (binary.hook, &files.tool) {
        // A measured hook's window sends no Callgrind requests under another tool.
        cmd.env(crate::protocol::TOOL_ENV, tool.kind().id());
    }
    if job.config.deterministic_random {
        // Programs that call `benchgrind::random::enable_from_env` draw from the fixed stream,
        // and so do the dynamically linked ones that the preload library reaches.
        cmd.env(RANDOM_SEED_ENV, job.config.random_seed.to_string());
        let configured = command
            .envs
            .iter()
            .rev()
            .find(|(key, _)| key == "LD_PRELOAD")
            .map(|(_, value)| value.clone());
        let inherited = (!job.config.env_clear)
            .then(|| std::env::var_os("LD_PRELOAD"))
            .flatten();
        exec.launcher
            .preload(&mut cmd, configured.or(inherited).as_deref());
    }
    cmd.stdout(output_stdio(command.stdout.as_ref(), cwd)?);
    cmd.stderr(output_stdio(command.stderr.as_ref(), cwd)?);
    captured.always_shown = [
        matches!(command.stdout, Some(Stdio::Inherit)),
        matches!(command.stderr, Some(Stdio::Inherit)),
    ];
    Ok(cmd)
}

/// Where the command's stdin comes from; `None` for the setup's output.
fn stdin(given: Option<&Stdin>, cwd: &Path) -> Result<Option<StdStdio>, Problem> {
    Ok(match given {
        Some(Stdin::Inherit) => Some(StdStdio::inherit()),
        Some(Stdin::Pipe) => Some(StdStdio::piped()),
        Some(Stdin::File(path)) => {
            let path = cwd.join(path);
            Some(StdStdio::from(
                File::open(&path).file_op("open the command's stdin", &path)?,
            ))
        }
        Some(Stdin::Setup(_)) => None,
        Some(Stdin::Null) | None => Some(StdStdio::null()),
    })
}

/// Whether the command ended as expected: Valgrind did not complain, no signal, the expected
/// exit code, and the tool's output file written.
fn check_end(
    exec: &ProcessExecutor,
    binary: &BinaryJob,
    files: &Files,
    output: &std::process::Output,
) -> Result<(), Problem> {
    let command = &binary.command;
    let log = std::fs::read_to_string(&files.log).unwrap_or_default();
    if let Some(complaint) = valgrind_error(&log) {
        return Err(problem!(
            "Valgrind could not run `{}`: {complaint}",
            command.display()
        ));
    }
    let (ended, accepted) = ending(binary, &output.status);
    if !accepted {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(STDERR_TAIL).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let expected = binary.exit_with.describe();
        let mut reason = format!("`{}` {ended}, expected {expected}", command.display());
        if !tail.is_empty() {
            reason.push_str("; its stderr ended with:\n    ");
            reason.push_str(&tail.join("\n    "));
        }
        return Err(Problem::new(reason));
    }
    if !exec.native() && files.expected.as_ref().is_some_and(|f| !f.exists()) {
        return Err(Problem::new("Valgrind wrote no profile"));
    }
    Ok(())
}

/// How the command ended, in words (`exited with code 2`, `was killed by signal 6`), and whether
/// that is the end the benchmark expects.
fn ending(binary: &BinaryJob, status: &std::process::ExitStatus) -> (String, bool) {
    match (status.code(), super::ended::signal(status)) {
        (Some(code), _) => (
            format!("exited with code {code}"),
            binary.exit_with.accepts(code),
        ),
        (None, signal) => {
            let signal = signal.unwrap_or(0);
            let accepted = binary.exit_with.accepts_signal(signal);
            (format!("was killed by signal {signal}"), accepted)
        }
    }
}

/// Where one of the command's output streams goes. `Stdio::Inherit` is captured too, and shown
/// under the benchmark's header: with parallel workers, inheriting the harness' stream would mix
/// it into other benchmarks' reports.
fn output_stdio(given: Option<&Stdio>, cwd: &Path) -> Result<StdStdio, Problem> {
    Ok(match given {
        Some(Stdio::Inherit) | Some(Stdio::Pipe) | None => StdStdio::piped(),
        Some(Stdio::Null) => StdStdio::null(),
        Some(Stdio::File(path)) => {
            let path = cwd.join(path);
            StdStdio::from(File::create(&path).file_op("create the command's output", &path)?)
        }
    })
}

/// An absolute path stays; a path with a `/` starts at the package directory; a bare name is
/// looked up in `PATH` (the harness', since the command's environment may be empty).
fn resolve_program(program: &Path, package_dir: &Path) -> Result<PathBuf, Problem> {
    if program.is_absolute() {
        return Ok(program.to_owned());
    }
    if program.components().count() > 1 {
        return Ok(package_dir.join(program));
    }
    let name = program.to_string_lossy();
    crate::execute::valgrind::find_in_path(&name).ok_or_else(|| {
        problem!("the program `{name}` is not on PATH; give its absolute path to Command::new")
    })
}
