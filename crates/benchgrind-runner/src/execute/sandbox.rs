//! The sandbox of a binary benchmark: a new temporary directory with the fixtures copied in
//! (symbolic links followed unless `Sandbox::follow_symlinks(false)`), removed when the
//! benchmark ends, whether it passed or failed.

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
    pub fn create(config: &Sandbox, workspace_root: &Path) -> Result<SandboxDir, String> {
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

/// Copies a file or directory tree; with `follow` false, symbolic links are copied as links.
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
