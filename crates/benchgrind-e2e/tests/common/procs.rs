//! Processes and directories a run leaves behind, for the tests of signals and concurrent runs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `bin --bench args` in a process group of its own (so that the test can signal the
/// group as a terminal would), its stdout and stderr into files of `dir`, with `TMPDIR` set.
pub fn spawn(bin: &str, args: &[String], dir: &Path, tmpdir: &Path, name: &str) -> Child {
    use std::os::unix::process::CommandExt;
    Command::new(bin)
        .arg("--bench")
        .args(args)
        .current_dir(dir)
        .env("BENCHGRIND_COLOR", "never")
        .env("TMPDIR", tmpdir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join(format!("{name}.out"))).unwrap())
        .stderr(std::fs::File::create(dir.join(format!("{name}.err"))).unwrap())
        .process_group(0)
        .spawn()
        .expect("the bench program starts")
}

/// Waits for `child` at most `limit`; kills its group and panics past it.
pub fn wait_bounded(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            signal_group(child, libc::SIGKILL);
            let _ = child.wait();
            panic!("the bench program did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Sends `signal` to the process group `child` leads.
pub fn signal_group(child: &Child, signal: i32) {
    // SAFETY: kill(2) on the group of a child this test started.
    unsafe { libc::kill(-(child.id() as i32), signal) };
}

/// Waits (at most `limit`) until `file` holds `count` lines starting with `prefix`.
pub fn wait_for_lines(file: &Path, prefix: &str, count: usize, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if text.lines().filter(|l| l.starts_with(prefix)).count() >= count {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!(
        "{} has no {count} lines starting with `{prefix}` after {limit:?}",
        file.display()
    );
}

/// The processes whose command line or working directory mentions `needle` (a test's unique
/// directory).
pub fn processes_mentioning(needle: &str) -> Vec<(i32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let cwd = std::fs::read_link(entry.path().join("cwd")).unwrap_or_default();
        if cmdline.contains(needle) || cwd.to_string_lossy().contains(needle) {
            found.push((pid, cmdline));
        }
    }
    found
}

/// The entries of `dir` whose names start with `prefix`.
pub fn entries(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    read.flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| e.path())
        .collect()
}
