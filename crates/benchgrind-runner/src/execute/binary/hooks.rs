//! A binary benchmark's hooks: its setup and teardown, each a process of the bench binary
//! ([`HOOK_FLAG`]) in the sandbox, and a setup that feeds the command's stdin or runs beside it.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::fs::File;
use std::io::Read;
#[cfg(target_os = "linux")]
use std::io::Write;
#[cfg(target_os = "linux")]
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio as StdStdio};

use crate::config::Pipe;
use crate::execute::ended::describe_end;
use crate::execute::executor::Captured;
use crate::execute::process::ProcessExecutor;
use crate::execute::reuse;
use crate::plan::{BinaryJob, Job};
use crate::protocol::{HOOK_FLAG, WORKSPACE_ROOT_ENV};

/// What the hooks of a benchmark run with.
pub(super) struct Hooks<'a> {
    pub exec: &'a ProcessExecutor,
    pub job: &'a Job,
    pub binary: &'a BinaryJob,
    /// The sandbox, or the package's directory without one.
    pub base: &'a Path,
}

impl Hooks<'_> {
    /// Starts or runs the setup as the command needs it: before it, feeding its stdin
    /// (`Stdin::Setup`), beside it on its own (`setup_parallel`: a server, say), or before it.
    /// Returns the command's stdin.
    pub(super) fn setup(
        &self,
        setup: &mut SetupChild,
        stdin: Option<StdStdio>,
        captured: &mut Captured,
    ) -> Result<StdStdio, Problem> {
        let Hooks {
            exec,
            job,
            binary,
            base,
        } = *self;
        let hook = || hook_command(exec, job, binary, "setup", base);
        match (setup.pipe, stdin) {
            (Some(pipe), _) => setup.start(hook(), pipe),
            (None, Some(stdin)) if binary.command.setup_parallel && binary.setup.is_some() => {
                setup.start_parallel(hook())?;
                Ok(stdin)
            }
            (None, stdin) => {
                if binary.setup.is_some() {
                    run_hook(exec, job, binary, "setup", base, captured)?;
                }
                Ok(stdin.expect("not Stdin::Setup"))
            }
        }
    }
}

/// Standard input holding all of `input`, then its end: a pipe with room for all of it, or
/// (past the largest pipe the system allows) the file `spill`, removed once open.
fn filled_stdin(input: &[u8], spill: &Path) -> Result<StdStdio, Problem> {
    if let Some(pipe) = full_pipe(input) {
        return Ok(pipe);
    }
    std::fs::write(spill, input).file_op("write", spill)?;
    let file = File::open(spill).file_op("open", spill)?;
    let _ = std::fs::remove_file(spill);
    Ok(StdStdio::from(file))
}

/// The read end of a pipe that holds `input` and is closed for writing, or `None` when the
/// pipe cannot be made large enough (always, outside Linux: a file then).
#[cfg(not(target_os = "linux"))]
fn full_pipe(_input: &[u8]) -> Option<StdStdio> {
    None
}

/// The read end of a pipe that holds `input` and is closed for writing, or `None` when the
/// pipe cannot be made large enough.
#[cfg(target_os = "linux")]
fn full_pipe(input: &[u8]) -> Option<StdStdio> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let wanted = libc::c_int::try_from(input.len()).ok()?;
    // SAFETY: fcntl on a descriptor owned here; a failure leaves the pipe as it was.
    let room = unsafe {
        libc::fcntl(writer.as_raw_fd(), libc::F_SETPIPE_SZ, wanted.max(4096));
        libc::fcntl(writer.as_raw_fd(), libc::F_GETPIPE_SZ)
    };
    if room < wanted {
        return None;
    }
    File::from(writer).write_all(input).ok()?;
    Some(reader.into())
}

/// A setup feeding the command's stdin (run to its end first) or running beside it on its own
/// (`setup_parallel`): killed and reaped if the benchmark ends early. Its other stream goes to a
/// file: a pipe nobody reads until the end could fill up and stop the setup.
pub(super) struct SetupChild {
    pub child: Option<Child>,
    /// Which of its streams feeds the command, if it runs beside it.
    pub pipe: Option<Pipe>,
    /// Where its other stream goes.
    pub other: PathBuf,
    /// The digest of what it fed the command's stdin, for the record of inputs.
    pub fed: Option<String>,
}

impl SetupChild {
    /// Starts the setup; returns the stream that feeds the command.
    pub(super) fn start(&mut self, mut hook: Command, pipe: Pipe) -> Result<StdStdio, Problem> {
        let other = File::create(&self.other).file_op("create", &self.other)?;
        match pipe {
            Pipe::Stdout => hook.stdout(StdStdio::piped()).stderr(other),
            Pipe::Stderr => hook.stderr(StdStdio::piped()).stdout(other),
        };
        let mut child = hook
            .spawn()
            .map_err(|e| problem!("cannot start the setup: {e}"))?;
        let mut stream: Box<dyn Read> = match pipe {
            Pipe::Stdout => Box::new(child.stdout.take().expect("the setup's stdout is piped")),
            Pipe::Stderr => Box::new(child.stderr.take().expect("the setup's stderr is piped")),
        };
        // All of it before the command starts: a command reading a pipe that is still being
        // written gets its input in as many pieces as the two happened to be scheduled, and
        // each read is counted (21 instructions a piece for `read_to_end`).
        let mut input = Vec::new();
        let read = stream.read_to_end(&mut input);
        drop(stream);
        self.child = Some(child);
        read.map_err(|e| problem!("cannot read the setup's {pipe:?}: {e}"))?;
        if let Some(signal) = crate::execute::interrupt::signal() {
            return Err(problem!(
                "stopped by {}",
                crate::execute::interrupt::name(signal)
            ));
        }
        self.fed = Some(reuse::digest::of_bytes(&input));
        filled_stdin(&input, &self.other.with_extension("stdin"))
    }

    /// Starts the setup beside the command without feeding it (a server, say); both its
    /// streams go to the file, shown before the command's output.
    pub(super) fn start_parallel(&mut self, mut hook: Command) -> Result<(), Problem> {
        let file = File::create(&self.other).file_op("create", &self.other)?;
        let copy = file.try_clone().file_op("share", &self.other)?;
        hook.stdout(file).stderr(copy);
        let child = hook
            .spawn()
            .map_err(|e| problem!("cannot start the setup: {e}"))?;
        self.child = Some(child);
        Ok(())
    }

    /// A parallel setup that outlives the command (a server) is stopped, not failed; one that
    /// has ended is left to [`finish`](Self::finish), which checks its exit.
    pub(super) fn stop_parallel(&mut self, captured: &mut Captured) {
        let (None, Some(child)) = (self.pipe, self.child.as_mut()) else {
            return;
        };
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
            let _ = child.wait();
            let output = std::fs::read(&self.other).unwrap_or_default();
            let _ = std::fs::remove_file(&self.other);
            captured.append(&output, &[]);
            self.child = None;
        }
    }

    /// Waits for the setup after the command ended; its other stream goes into `captured`
    /// before the command's output. A failed setup fails the benchmark.
    /// `command` is what the command printed, `(stdout, stderr)`: nothing when its last
    /// results are reused instead of a run.
    pub(super) fn finish(
        &mut self,
        command: (&[u8], &[u8]),
        captured: &mut Captured,
    ) -> Result<(), Problem> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        let status = child
            .wait()
            .map_err(|e| problem!("cannot wait for the setup: {e}"))?;
        let other = std::fs::read(&self.other).unwrap_or_default();
        let _ = std::fs::remove_file(&self.other);
        match self.pipe {
            Some(Pipe::Stdout) => captured.append(&[], &other),
            _ => captured.append(&other, &[]),
        }
        if !status.success() {
            captured.append(command.0, command.1);
            return Err(hook_failure(
                "setup",
                &status,
                &String::from_utf8_lossy(&other),
            ));
        }
        Ok(())
    }
}

impl Drop for SetupChild {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
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
    cmd.arg(HOOK_FLAG)
        .arg(kind)
        .args(binary.index.map(|i| i.to_string()))
        .current_dir(cwd)
        .env(WORKSPACE_ROOT_ENV, &exec.workspace_root)
        .stdin(StdStdio::null())
        .stdout(StdStdio::piped())
        .stderr(StdStdio::piped());
    // Killed with its group on Ctrl-C ([`super::interrupt`]).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    crate::messages::debug!("{} {kind}: {:?}", job.id.full(), cmd);
    cmd
}

pub(super) fn run_hook(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    kind: &str,
    cwd: &Path,
    captured: &mut Captured,
) -> Result<(), Problem> {
    let output = hook_command(exec, job, binary, kind, cwd)
        .output()
        .map_err(|e| problem!("cannot start the {kind}: {e}"))?;
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

fn hook_failure(kind: &str, status: &std::process::ExitStatus, stderr: &str) -> Problem {
    problem!("the {kind} {}", describe_end(status, stderr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_setups_output_reaches_the_command_whole_in_a_pipe_or_past_it_in_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let spill = dir.path().join("setup.stdin");
        // Within a pipe's room, beyond the default 64 KiB, beyond any pipe (1 MiB by default).
        for len in [0, 10, 200_000, 3 << 20] {
            let input: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let stdin = filled_stdin(&input, &spill).unwrap();
            let mut cat = Command::new("cat")
                .stdin(stdin)
                .stdout(StdStdio::piped())
                .spawn()
                .unwrap();
            let mut out = Vec::new();
            cat.stdout.take().unwrap().read_to_end(&mut out).unwrap();
            assert!(cat.wait().unwrap().success());
            assert_eq!(out.len(), input.len());
            assert!(out == input, "{len} bytes differ");
            assert!(!spill.exists(), "the spill file is removed once open");
        }
    }
}
