//! One run at a time per bench binary and home: the harness holds an exclusive `flock` on
//! `<home>/<package>/<bench file>/.lock` while it writes that bench binary's files (profiles,
//! summaries, baselines, history). A second run waits for it, saying once for whom; the kernel
//! releases the lock when the holder exits, however it ends, so a killed run never blocks the
//! next one.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A held lock, released when dropped.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// The lock file of a bench binary's files.
pub fn path(home: &Path, package: &str, bench_file: &str) -> PathBuf {
    home.join(package).join(bench_file).join(".lock")
}

/// Takes the lock at `path`, waiting while another run holds it (with `waiting` called once
/// with the holder's pid, if known); `give_up` is asked between tries and ends the wait with
/// `Ok(None)`. Errors name the file.
pub fn acquire(
    path: &Path,
    waiting: &mut dyn FnMut(Option<u32>),
    give_up: &dyn Fn() -> bool,
) -> Result<Option<RunLock>, Problem> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .file_op("create the directory", dir)
            .map_err(|e| problem!("{e}; {}", super::WRITE_HINT))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .file_op("open the lock file", path)
        .map_err(|e| problem!("{e}; {}", super::WRITE_HINT))?;
    let mut told = false;
    loop {
        if try_lock(&file).file_op("lock", path)? {
            break;
        }
        if give_up() {
            return Ok(None);
        }
        if !told {
            told = true;
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            waiting(text.trim().parse().ok());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // The holder's pid, for the message of the next run that waits.
    let written = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| writeln!(file, "{}", std::process::id()));
    written.file_op("write the lock file", path)?;
    Ok(Some(RunLock { _file: file }))
}

/// Takes the exclusive lock of `file` if free: `Ok(false)` while another holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor the caller owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        _ => Err(error),
    }
}

/// Outside Unix nothing runs under Valgrind and test mode writes no results: no lock is taken.
#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_second_taker_waits_until_the_first_lets_go() {
        let tmp = tempfile::tempdir().unwrap();
        let file = path(tmp.path(), "pkg", "bench");
        let first = acquire(&file, &mut |_| panic!("free"), &|| false)
            .unwrap()
            .unwrap();
        // Another open file description of the same file: flock treats it as another holder.
        let holder = Cell::new(None);
        let tries = Cell::new(0);
        let second = acquire(&file, &mut |pid| holder.set(Some(pid)), &|| {
            tries.set(tries.get() + 1);
            tries.get() > 2
        })
        .unwrap();
        assert!(second.is_none());
        assert_eq!(holder.get(), Some(Some(std::process::id())));
        drop(first);
        assert!(acquire(&file, &mut |_| panic!("free again"), &|| true)
            .unwrap()
            .is_some());
    }

    #[test]
    fn a_home_that_cannot_hold_the_lock_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("a-file");
        std::fs::write(&home, "").unwrap();
        let e = acquire(&path(&home, "pkg", "bench"), &mut |_| {}, &|| false).unwrap_err();
        assert!(e.contains("a-file/pkg/bench"), "{e}");
    }
}
