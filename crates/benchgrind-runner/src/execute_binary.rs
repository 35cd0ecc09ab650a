//! Stage 3 for binary benchmarks: the sandbox, setup and teardown in a child process of the
//! bench binary, and the command itself under Valgrind, with its streams and expected exit.
//!
//! Hooks run in their own process (the bench binary with [`crate::child::HOOK_FLAG`]) so that
//! they can work in the sandbox and feed the command's stdin without the harness changing its
//! own working directory.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio as StdStdio};

use crate::args::LogLevel;
use crate::binary::{Pipe, Sandbox, Stdin, Stdio};
use crate::execute::{describe_end, valgrind_error, Captured, ProcessExecutor, Status};
use crate::plan::{BinaryJob, Job};
use crate::store::Which;
use crate::tools::Tool;

/// How many lines of the command's stderr a failure shows.
const STDERR_TAIL: usize = 10;

/// Runs one binary benchmark: sandbox, setup, command, teardown.
pub(crate) fn run(exec: &ProcessExecutor, job: &Job, binary: &BinaryJob) -> (Status, Captured) {
    let files = Files {
        valgrind_args: None,
        expected: Some(job.paths.file("callgrind.out", Which::New)),
        log: job.paths.file("callgrind.log", Which::New),
    };
    run_captured(exec, job, binary, &files)
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
        valgrind_args: Some(crate::tools::valgrind_args(tool, &job.paths)),
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
        Ok(()) => Status::Ok,
        Err(reason) => Status::Failed(reason),
    };
    (status, captured)
}

/// What a run under one tool writes.
struct Files {
    /// The tool's complete Valgrind arguments, or `None` for Callgrind's.
    valgrind_args: Option<Vec<String>>,
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
) -> Result<(), String> {
    std::fs::create_dir_all(&job.paths.dir).map_err(|e| {
        format!(
            "cannot create the output directory {}: {e}",
            job.paths.dir.display()
        )
    })?;
    // Removed when this function returns, whatever happened.
    let sandbox = match &binary.sandbox {
        Some(config) => Some(SandboxDir::create(config, &exec.workspace_root)?),
        None => None,
    };
    let base = sandbox
        .as_ref()
        .map_or(exec.cwd.clone(), |s| s.path.clone());
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
        return Err("the command reads Stdin::Setup, but the bench has no setup".into());
    }
    // Everything that can fail is settled before a setup process starts.
    let program = resolve_program(&command.program, &exec.cwd)?;
    let mut cmd = match &files.valgrind_args {
        None => exec.valgrind_command(job, &ProcessExecutor::file_args(job), &program),
        Some(args) => exec.command(job, args.clone(), &program),
    };
    cmd.args(&command.args).current_dir(&cwd);
    for (key, value) in &command.envs {
        cmd.env(key, value);
    }
    if job.config.deterministic_random {
        // Programs that call `benchgrind::random::enable_from_env` draw from the fixed stream.
        cmd.env(crate::random::ENV, job.config.random_seed.to_string());
    }
    cmd.stdout(output_stdio(command.stdout.as_ref(), &cwd)?);
    cmd.stderr(output_stdio(command.stderr.as_ref(), &cwd)?);
    captured.always_shown = [
        matches!(command.stdout, Some(Stdio::Inherit)),
        matches!(command.stderr, Some(Stdio::Inherit)),
    ];
    let stdin = match &command.stdin {
        Some(Stdin::Inherit) => Some(StdStdio::inherit()),
        Some(Stdin::Pipe) => Some(StdStdio::piped()),
        Some(Stdin::File(path)) => {
            let path = cwd.join(path);
            Some(StdStdio::from(File::open(&path).map_err(|e| {
                format!(
                    "cannot open {} for the command's stdin: {e}",
                    path.display()
                )
            })?))
        }
        Some(Stdin::Setup(_)) => None,
        Some(Stdin::Null) | None => Some(StdStdio::null()),
    };

    // The setup's other stream goes to a file: a pipe nobody reads until the end could fill up
    // and stop the setup, and with it the command waiting for its input.
    let setup_other = job.paths.dir.join("setup.other");
    let mut setup = SetupChild(None);
    match piped_from_setup {
        Some(pipe) => {
            let mut hook = hook_command(exec, job, binary, "setup", &base);
            let other = File::create(&setup_other)
                .map_err(|e| format!("cannot create {}: {e}", setup_other.display()))?;
            match pipe {
                Pipe::Stdout => hook.stdout(StdStdio::piped()).stderr(other),
                Pipe::Stderr => hook.stderr(StdStdio::piped()).stdout(other),
            };
            let mut child = hook
                .spawn()
                .map_err(|e| format!("cannot start the setup: {e}"))?;
            let output = match pipe {
                Pipe::Stdout => child.stdout.take().map(StdStdio::from),
                Pipe::Stderr => child.stderr.take().map(StdStdio::from),
            };
            setup.0 = Some(child);
            cmd.stdin(output.expect("the setup's output is piped"));
        }
        None if command.setup_parallel && binary.setup.is_some() => {
            setup.0 = Some(spawn_parallel_setup(
                exec,
                job,
                binary,
                &base,
                &setup_other,
            )?);
            cmd.stdin(stdin.expect("not Stdin::Setup"));
        }
        None => {
            if binary.setup.is_some() {
                run_hook(exec, job, binary, "setup", &base, captured)?;
            }
            cmd.stdin(stdin.expect("not Stdin::Setup"));
        }
    }
    if let Some(delay) = &command.delay {
        delay.wait(&cwd)?;
    }
    if exec.log >= LogLevel::Debug {
        eprintln!("benchgrind: {} {:?}", job.id.full(), cmd);
    }
    let output = cmd
        .output()
        .map_err(|e| format!("cannot start {}: {e}", exec.valgrind.display()))?;
    if let (true, None) = (command.setup_parallel, piped_from_setup) {
        stop_parallel_setup(&mut setup, &setup_other, captured);
    }
    if let Some(mut child) = setup.0.take() {
        let status = child
            .wait()
            .map_err(|e| format!("cannot wait for the setup: {e}"))?;
        // The setup's stream that did not feed the command, before the command's output.
        let other = std::fs::read(&setup_other).unwrap_or_default();
        let _ = std::fs::remove_file(&setup_other);
        match piped_from_setup {
            Some(Pipe::Stdout) => captured.append(&[], &other),
            _ => captured.append(&other, &[]),
        }
        if !status.success() {
            captured.append(&output.stdout, &output.stderr);
            return Err(hook_failure(
                "setup",
                &status,
                &String::from_utf8_lossy(&other),
            ));
        }
    }
    captured.append(&output.stdout, &output.stderr);

    let log = std::fs::read_to_string(&files.log).unwrap_or_default();
    if let Some(complaint) = valgrind_error(&log) {
        return Err(format!(
            "Valgrind could not run `{}`: {complaint}",
            command.display()
        ));
    }
    let Some(code) = output.status.code() else {
        use std::os::unix::process::ExitStatusExt;
        return Err(format!(
            "`{}` was killed by signal {}",
            command.display(),
            output.status.signal().unwrap_or(0)
        ));
    };
    if !binary.exit_with.accepts(code) {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(STDERR_TAIL).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let mut reason = format!(
            "`{}` exited with code {code}, expected {}",
            command.display(),
            match binary.exit_with {
                crate::binary::ExitWith::Success => "success (0)".to_owned(),
                crate::binary::ExitWith::Failure => "a failure (not 0)".to_owned(),
                crate::binary::ExitWith::Code(c) => format!("code {c}"),
            }
        );
        if !tail.is_empty() {
            reason.push_str("; its stderr ended with:\n    ");
            reason.push_str(&tail.join("\n    "));
        }
        return Err(reason);
    }
    if !exec.native && files.expected.as_ref().is_some_and(|f| !f.exists()) {
        return Err("Valgrind wrote no profile".into());
    }
    if binary.teardown.is_some() {
        run_hook(exec, job, binary, "teardown", &base, captured)?;
    }
    drop(sandbox);
    Ok(())
}

/// A setup running beside the command: killed and reaped if the benchmark ends early.
struct SetupChild(Option<Child>);

/// Starts the setup alongside the command (a server, say); its output goes to `other`, shown
/// before the command's.
fn spawn_parallel_setup(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    base: &Path,
    other: &Path,
) -> Result<Child, String> {
    let file =
        File::create(other).map_err(|e| format!("cannot create {}: {e}", other.display()))?;
    let copy = file
        .try_clone()
        .map_err(|e| format!("cannot share {}: {e}", other.display()))?;
    let mut hook = hook_command(exec, job, binary, "setup", base);
    hook.stdout(file).stderr(copy);
    hook.spawn()
        .map_err(|e| format!("cannot start the setup: {e}"))
}

/// A parallel setup that outlives the command (a server) is stopped, not failed; one that has
/// ended is left for the usual check of its exit.
fn stop_parallel_setup(setup: &mut SetupChild, other: &Path, captured: &mut Captured) {
    let Some(child) = setup.0.as_mut() else {
        return;
    };
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
        let _ = child.wait();
        let output = std::fs::read(other).unwrap_or_default();
        let _ = std::fs::remove_file(other);
        captured.append(&output, &[]);
        setup.0 = None;
    }
}

impl Drop for SetupChild {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The bench binary started as a hook process for this bench.
fn hook_command(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    kind: &str,
    cwd: &Path,
) -> Command {
    let mut cmd = Command::new(&exec.exe);
    cmd.arg(crate::child::HOOK_FLAG)
        .arg(kind)
        .args(binary.index.map(|i| i.to_string()))
        .current_dir(cwd)
        .env("_WORKSPACE_ROOT", &exec.workspace_root)
        .stdin(StdStdio::null())
        .stdout(StdStdio::piped())
        .stderr(StdStdio::piped());
    if exec.log >= LogLevel::Debug {
        eprintln!("benchgrind: {} {kind}: {:?}", job.id.full(), cmd);
    }
    cmd
}

fn run_hook(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    kind: &str,
    cwd: &Path,
    captured: &mut Captured,
) -> Result<(), String> {
    let output = hook_command(exec, job, binary, kind, cwd)
        .output()
        .map_err(|e| format!("cannot start the {kind}: {e}"))?;
    captured.append(&output.stdout, &output.stderr);
    if output.status.success() {
        return Ok(());
    }
    Err(hook_failure(
        kind,
        &output.status,
        &String::from_utf8_lossy(&output.stderr),
    ))
}

fn hook_failure(kind: &str, status: &std::process::ExitStatus, stderr: &str) -> String {
    format!("the {kind} {}", describe_end(status, stderr))
}

/// Where one of the command's output streams goes. `Stdio::Inherit` is captured too, and shown
/// under the benchmark's header: with parallel workers, inheriting the harness' stream would mix
/// it into other benchmarks' reports.
fn output_stdio(given: Option<&Stdio>, cwd: &Path) -> Result<StdStdio, String> {
    Ok(match given {
        Some(Stdio::Inherit) | Some(Stdio::Pipe) | None => StdStdio::piped(),
        Some(Stdio::Null) => StdStdio::null(),
        Some(Stdio::File(path)) => {
            let path = cwd.join(path);
            StdStdio::from(File::create(&path).map_err(|e| {
                format!(
                    "cannot create {} for the command's output: {e}",
                    path.display()
                )
            })?)
        }
    })
}

/// An absolute path stays; a path with a `/` starts at the package directory; a bare name is
/// looked up in `PATH` (the harness', since the command's environment may be empty).
fn resolve_program(program: &Path, package_dir: &Path) -> Result<PathBuf, String> {
    if program.is_absolute() {
        return Ok(program.to_owned());
    }
    if program.components().count() > 1 {
        return Ok(package_dir.join(program));
    }
    let name = program.to_string_lossy();
    crate::valgrind::find_in_path(&name).ok_or_else(|| {
        format!("the program `{name}` is not on PATH; give its absolute path to Command::new")
    })
}

/// A sandbox directory, removed when dropped.
struct SandboxDir {
    path: PathBuf,
}

impl SandboxDir {
    fn create(config: &Sandbox, workspace_root: &Path) -> Result<SandboxDir, String> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "benchgrind-sandbox-{}-{}-{nanos:09}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // A new directory, never a stale one of an earlier process with the same pid.
        std::fs::create_dir(&path)
            .map_err(|e| format!("cannot create the sandbox {}: {e}", path.display()))?;
        let dir = SandboxDir { path };
        for fixture in &config.fixtures {
            let source = workspace_root.join(fixture);
            let name = source
                .file_name()
                .ok_or_else(|| format!("the fixture `{}` has no file name", fixture.display()))?;
            let follow = config.follow_symlinks.unwrap_or(true);
            copy_recursively(&source, &dir.path.join(name), follow).map_err(|e| {
                format!(
                    "cannot copy the fixture {} into the sandbox (relative fixture paths start at \
                     the workspace root {}): {e}",
                    source.display(),
                    workspace_root.display()
                )
            })?;
        }
        Ok(dir)
    }
}

impl Drop for SandboxDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn copy_recursively(from: &Path, to: &Path, follow: bool) -> std::io::Result<()> {
    if !follow && from.is_symlink() {
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
    }
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_recursively(&entry.path(), &to.join(entry.file_name()), follow)?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_links_are_followed_unless_asked_not_to() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("fixtures");
        std::fs::create_dir(&source).unwrap();
        std::fs::write(source.join("data.txt"), "data").unwrap();
        std::os::unix::fs::symlink("data.txt", source.join("link.txt")).unwrap();

        let followed = dir.path().join("followed");
        copy_recursively(&source, &followed, true).unwrap();
        assert!(!followed.join("link.txt").is_symlink());
        assert_eq!(
            std::fs::read_to_string(followed.join("link.txt")).unwrap(),
            "data"
        );

        let kept = dir.path().join("kept");
        copy_recursively(&source, &kept, false).unwrap();
        assert!(kept.join("link.txt").is_symlink());
        assert_eq!(
            std::fs::read_link(kept.join("link.txt")).unwrap(),
            Path::new("data.txt")
        );
    }
}
