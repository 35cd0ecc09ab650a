//! Running a runner program: KLV in on stdin, `nanos,count` samples out on stdout, a timeout,
//! and a clear reason when it fails (exit status or signal, last line of stderr).
//!
//! Stdin, stdout and stderr are served by threads so a runner that writes before it has read
//! all its input cannot deadlock us.

use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::{
    io::{Read, Write},
    process::{self, ExitStatus, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

/// What a finished runner left behind.
#[derive(Debug)]
pub struct Finished {
    /// Everything it wrote on stdout.
    pub stdout: Vec<u8>,
    /// Everything it wrote on stderr.
    pub stderr: Vec<u8>,
    /// How it ended.
    pub status: ExitStatus,
    /// Wall time from spawn to exit.
    pub elapsed: Duration,
    /// How often its processes waited for the disk (major page faults and blocks read).
    pub disk_reads: u64,
}

/// Reads a pipe to its end on a thread; the bytes arrive on the returned channel.
fn reader(mut r: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = vec![];
        let _ = r.read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    rx
}

/// What the runner reads on stdin.
pub enum Input {
    /// Bytes written through a pipe.
    Pipe(Vec<u8>),
    /// An open file. A pipe delivers data in chunks whose sizes depend on timing, so a runner
    /// reading it makes a varying number of `read` calls; a file makes instruction counts exact.
    File(std::fs::File),
}

/// Spawns `cmd` with `input` on its stdin and waits at most `timeout`.
pub fn run(
    mut cmd: process::Command,
    input: Input,
    timeout: Duration,
) -> Result<Finished, Problem> {
    let start = Instant::now();
    let (stdin, bytes) = match input {
        Input::Pipe(bytes) => (Stdio::piped(), Some(bytes)),
        Input::File(f) => (Stdio::from(f), None),
    };
    let mut child = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            problem!(
                "cannot start {:?}: {e} (run `benchgrind suite build` first?)",
                cmd.get_program()
            )
        })?;
    if let (Some(mut stdin), Some(bytes)) = (child.stdin.take(), bytes) {
        // A runner may exit without reading all its input; a broken pipe here is not the error
        // to report (its exit status and stderr are).
        thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let out = reader(child.stdout.take().expect("stdout is piped"));
    let err = reader(child.stderr.take().expect("stderr is piped"));
    let mut nap = Duration::from_millis(1);
    let (status, usage) = loop {
        match benchgrind_runner::execute::watch::try_wait_with_usage(&mut child) {
            Ok(Some(ended)) => break ended,
            Ok(None) => {}
            Err(e) => return Err(problem!("cannot wait for the runner: {e}")),
        }
        if start.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(problem!(
                "timeout: the runner did not finish within {} and was killed (raise --timeout if it is just slow)",
                super::table::human_duration(timeout.as_nanos() as f64)
            ));
        }
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(50));
    };
    let elapsed = start.elapsed();
    // A grandchild may still hold the pipes open; do not wait for it forever.
    let grace = Duration::from_secs(2);
    let stdout = out.recv_timeout(grace).unwrap_or_default();
    let stderr = err.recv_timeout(grace).unwrap_or_default();
    Ok(Finished {
        stdout,
        stderr,
        status,
        elapsed,
        disk_reads: usage.disk_reads,
    })
}

/// The last non-empty line of some output, for error messages.
fn last_line(bytes: &[u8]) -> Option<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
}

/// `Ok` when the runner exited with status 0; otherwise why not, with its last stderr line.
pub fn check_status(f: &Finished) -> Result<(), Problem> {
    if f.status.success() {
        return Ok(());
    }
    let how = match (f.status.code(), signal(&f.status)) {
        (Some(code), _) => format!("the runner exited with status {code}"),
        (None, Some(sig)) => format!(
            "the runner crashed (killed by signal {sig}{})",
            signal_name(sig)
        ),
        (None, None) => format!("the runner failed ({})", f.status),
    };
    Err(match last_line(&f.stderr) {
        Some(line) => problem!("{how}; last line of stderr: {line}"),
        None => problem!("{how} and wrote nothing on stderr"),
    })
}

/// The signal that killed the process, if one did.
fn signal(status: &ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

/// The usual name of a signal number.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        4 => ", SIGILL",
        6 => ", SIGABRT",
        7 => ", SIGBUS",
        8 => ", SIGFPE",
        9 => ", SIGKILL",
        11 => ", SIGSEGV",
        15 => ", SIGTERM",
        _ => "",
    }
}

/// One sample: the duration of one iteration and the count it produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Nanoseconds.
    pub nanos: u64,
    /// The count the iteration computed.
    pub count: u64,
}

/// Parses the runner's stdout: one `nanos,count` line per sample.
pub fn parse_samples(stdout: &[u8]) -> Result<Vec<Sample>, Problem> {
    let mut samples = vec![];
    for (i, line) in stdout.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(line);
        let bad = || {
            problem!(
                "runner output line {}: expected `nanoseconds,count`, got {:?}",
                i + 1,
                text
            )
        };
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let nanos = a.trim().parse().map_err(|_| bad())?;
        let count = b.trim().parse().map_err(|_| bad())?;
        samples.push(Sample { nanos, count });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples() {
        assert_eq!(
            parse_samples(b"91414,91\n85247,91\n").unwrap(),
            vec![
                Sample {
                    nanos: 91414,
                    count: 91
                },
                Sample {
                    nanos: 85247,
                    count: 91
                }
            ]
        );
        assert_eq!(parse_samples(b"").unwrap(), vec![]);
        assert_eq!(
            parse_samples(b"1,2\r\n").unwrap(),
            vec![Sample { nanos: 1, count: 2 }]
        );
        let err = parse_samples(b"1,2\nhello\n").unwrap_err();
        assert!(err.contains("line 2") && err.contains("hello"), "{err}");
        assert!(parse_samples(b"-1,2").is_err());
        assert!(parse_samples(b"1,2,3").is_err());
    }
}
