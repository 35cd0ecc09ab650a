//! The sandbox of a binary benchmark: a new temporary directory with the fixtures copied in,
//! removed when the benchmark ends, whether it passed or failed.

use std::path::{Path, PathBuf};

use crate::config::Sandbox;

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
        let path = std::env::temp_dir().join(format!(
            "{}{}-{}-{nanos:09}",
            super::leftovers::SANDBOX_PREFIX,
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
            copy_recursively(&source, &dir.path.join(name)).map_err(|e| {
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

fn copy_recursively(from: &Path, to: &Path) -> std::io::Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_recursively(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(|_| ())
    }
}
