//! The sandbox of a binary benchmark: a new temporary directory with the fixtures copied in
//! (symbolic links followed unless `Sandbox::follow_symlinks(false)`), removed when the
//! benchmark ends, whether it passed or failed.
//!
//! The `Run`s of an iai-callgrind 0.9 to 0.12 group share one sandbox instead, as they did
//! there: the group's `before`, every command with its `setup` and `teardown`, and `after` run
//! in one directory, so that a file one of them writes is there for the next. The harness opens
//! it around the group ([`SharedSandbox`]); the group's jobs find it by the group's index.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};

use crate::config::Sandbox;

/// The sandbox's directory name: the harness' pid (which [`super::leftovers`] reads back), a
/// counter and the clock's nanoseconds, each padded to a fixed width. The width matters: the
/// length of the working directory moves the command's instruction count (glibc's start-up
/// scans strings whose alignment on the initial stack follows it; a 5-digit and a 6-digit pid
/// measured 4 instructions apart), so every run must get a path of the same length.
fn name(pid: u32, n: usize, nanos: u32) -> String {
    format!(
        "{}{pid:010}-{n:010}-{nanos:09}",
        super::leftovers::SANDBOX_PREFIX
    )
}

/// A sandbox directory, removed when dropped.
pub(super) struct SandboxDir {
    /// The directory.
    pub path: PathBuf,
}

impl SandboxDir {
    /// Makes the directory and copies the fixtures (relative to `workspace_root`) into it.
    pub fn create(config: &Sandbox, workspace_root: &Path) -> Result<SandboxDir, Problem> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = name(
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            nanos,
        );
        let path = std::env::temp_dir().join(name);
        // A new directory, never a stale one of an earlier process with the same pid.
        std::fs::create_dir(&path).file_op("create the sandbox", &path)?;
        let dir = SandboxDir { path };
        for fixture in &config.fixtures {
            let source = workspace_root.join(fixture);
            let name = source
                .file_name()
                .ok_or_else(|| problem!("the fixture `{}` has no file name", fixture.display()))?;
            let follow = config.follow_symlinks.unwrap_or(true);
            copy_recursively(&source, &dir.path.join(name), follow)
                .file_op("copy the fixture", &source)
                .map_err(|e| {
                    problem!(
                        "{e}; relative fixture paths start at the workspace root {}",
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

/// The open shared sandboxes: group index and directory, or why it could not be made.
type Shared = Vec<(usize, Result<PathBuf, Problem>)>;
static SHARED: std::sync::Mutex<Shared> = std::sync::Mutex::new(Vec::new());

/// The shared sandbox of a group (see the module's documentation), open while this lives:
/// removed, and no longer found by the group's jobs, when dropped.
pub struct SharedSandbox {
    group: usize,
    dir: Option<SandboxDir>,
}

impl SharedSandbox {
    /// Makes the sandbox of group `group` (its index in [`crate::plan::Job::group`]); if that
    /// fails, the group's jobs fail with the reason.
    pub fn open(group: usize, config: &Sandbox, workspace_root: &Path) -> SharedSandbox {
        let made = SandboxDir::create(config, workspace_root);
        let entry = made.as_ref().map(|d| d.path.clone()).map_err(Clone::clone);
        lock().push((group, entry));
        SharedSandbox {
            group,
            dir: made.ok(),
        }
    }

    /// The directory, if it could be made.
    pub fn path(&self) -> Option<&Path> {
        self.dir.as_ref().map(|d| d.path.as_path())
    }
}

impl Drop for SharedSandbox {
    fn drop(&mut self) {
        lock().retain(|(g, _)| *g != self.group);
    }
}

fn lock() -> std::sync::MutexGuard<'static, Shared> {
    SHARED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The directory of group `group`'s shared sandbox.
pub(super) fn shared(group: usize) -> Result<PathBuf, Problem> {
    let open = lock();
    match open.iter().find(|(g, _)| *g == group) {
        Some((_, Ok(path))) => Ok(path.clone()),
        Some((_, Err(e))) => Err(problem!("the group's sandbox: {e}")),
        None => Err(Problem::new(
            "the group's shared sandbox is not open (a benchgrind bug)",
        )),
    }
}

/// Copies a file or directory tree; with `follow` false, symbolic links are copied as links.
fn copy_recursively(from: &Path, to: &Path, follow: bool) -> std::io::Result<()> {
    if !follow && from.is_symlink() {
        #[cfg(unix)]
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
    fn every_name_has_the_same_length_and_names_the_pid() {
        let short = name(7, 0, 0);
        assert_eq!(short.len(), name(4_194_304, 123_456, 999_999_999).len());
        assert_eq!(short.len(), name(u32::MAX, 999_999_999, 5).len());
        let rest = short
            .strip_prefix(super::super::leftovers::SANDBOX_PREFIX)
            .unwrap();
        assert_eq!(rest.split('-').next().unwrap().parse::<i32>(), Ok(7));
    }

    #[test]
    fn a_shared_sandbox_is_found_while_open_and_removed_after() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("data.txt"), "data").unwrap();
        let mut config = Sandbox::new(true);
        config.fixtures.push("data.txt".into());
        let open = SharedSandbox::open(1_000_001, &config, root.path());
        let path = shared(1_000_001).unwrap();
        assert_eq!(Some(path.as_path()), open.path());
        assert!(path.join("data.txt").exists());
        drop(open);
        assert!(!path.exists());
        assert!(shared(1_000_001).is_err());

        config.fixtures.push("missing".into());
        let failed = SharedSandbox::open(1_000_002, &config, root.path());
        assert!(failed.path().is_none());
        let e = shared(1_000_002).unwrap_err();
        assert!(e.contains("missing"), "{e}");
    }

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
