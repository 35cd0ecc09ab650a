//! Where a benchmark's files live and how a new run replaces the previous one.
//!
//! `<home>/<package>/<bench file>/<group>/<function>.<id>/` holds `callgrind.out` and
//! `callgrind.log` of the last run and `*.old` of the one before. Valgrind writes a run to
//! `*.new`; only a successful run is renamed into place, so a failing benchmark or a crash never
//! replaces good results, and a rename never leaves a half-written file. One run at a time per
//! bench binary and home writes them ([`lock`]).

pub mod lock;

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::io;
use std::path::{Path, PathBuf};

/// The files of one benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchPaths {
    /// The benchmark's directory.
    pub dir: PathBuf,
}

impl BenchPaths {
    /// The directory of a benchmark below `home`.
    pub fn new(
        home: &Path,
        package: &str,
        bench_file: &str,
        group: &str,
        function: &str,
        id: Option<&str>,
    ) -> BenchPaths {
        let leaf = match id {
            // A 0.10 group's benches have no function: the id alone, not a hidden `.id`.
            Some(id) if function.is_empty() => id.to_owned(),
            Some(id) => format!("{function}.{id}"),
            None => function.to_owned(),
        };
        BenchPaths {
            dir: home.join(package).join(bench_file).join(group).join(leaf),
        }
    }

    /// A file of the run: `current`, `old` or `new` (in progress) of `callgrind.out` or
    /// `callgrind.log`.
    pub fn file(&self, name: &str, which: Which) -> PathBuf {
        let suffix = match which {
            Which::Current => "",
            Which::Old => ".old",
            Which::New => ".new",
        };
        self.dir.join(format!("{name}{suffix}"))
    }

    /// The directory Valgrind writes a run's raw files to, one profile per process and thread
    /// and one log per process, before they are settled into [`Self::file`]s.
    pub fn raw_dir(&self) -> PathBuf {
        self.dir.join("callgrind.raw.new")
    }

    /// Puts the current files `names` in place of a new run's: each is copied to its `.new`,
    /// which is then read and rotated as a run's (results reused).
    pub fn current_as_new(&self, names: &[String]) -> io::Result<()> {
        for name in names {
            std::fs::copy(self.file(name, Which::Current), self.file(name, Which::New))?;
        }
        Ok(())
    }

    /// Makes the new run current and the current one old.
    ///
    /// If a crash came between the two renames, `current` is missing and `old` holds the last
    /// good run; [`previous`](Self::previous) still finds it.
    pub fn promote(&self, name: &str) -> Result<(), crate::error::FileError> {
        let current = self.file(name, Which::Current);
        if current.exists() {
            let old = self.file(name, Which::Old);
            std::fs::rename(&current, &old).file_op_to("move", &current, &old)?;
        }
        let new = self.file(name, Which::New);
        std::fs::rename(&new, &current).file_op_to("move", &new, &current)
    }

    /// The file of the last good run before the one in progress: `current`, else `old`.
    pub fn previous(&self, name: &str) -> Option<PathBuf> {
        [Which::Current, Which::Old]
            .into_iter()
            .map(|w| self.file(name, w))
            .find(|p| p.exists())
    }
}

/// Which file of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The last run.
    Current,
    /// The run before.
    Old,
    /// The run in progress.
    New,
}

/// The default home: `$CARGO_TARGET_DIR/benchgrind`, else the `target` directory the bench binary
/// was built in (the first ancestor with Cargo's `CACHEDIR.TAG`), else `<package>/target`.
pub fn default_home(exe: &Path, manifest_dir: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        let dir = PathBuf::from(dir);
        let dir = if dir.is_relative() {
            manifest_dir.join(dir)
        } else {
            dir
        };
        return dir.join("benchgrind");
    }
    exe.ancestors()
        .skip(1)
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest_dir.join("target"))
        .join("benchgrind")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_run_becomes_current_and_the_current_one_old() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = BenchPaths::new(tmp.path(), "pkg", "file", "group", "func", Some("id"));
        assert!(paths.dir.ends_with("pkg/file/group/func.id"));
        std::fs::create_dir_all(&paths.dir).unwrap();
        assert_eq!(paths.previous("callgrind.out"), None);

        std::fs::write(paths.file("callgrind.out", Which::New), "one").unwrap();
        paths.promote("callgrind.out").unwrap();
        std::fs::write(paths.file("callgrind.out", Which::New), "two").unwrap();
        assert_eq!(
            paths.previous("callgrind.out"),
            Some(paths.file("callgrind.out", Which::Current))
        );
        paths.promote("callgrind.out").unwrap();
        let read = |w| std::fs::read_to_string(paths.file("callgrind.out", w)).unwrap();
        assert_eq!(read(Which::Current), "two");
        assert_eq!(read(Which::Old), "one");
        assert!(!paths.file("callgrind.out", Which::New).exists());
    }

    #[test]
    fn a_hint_replaces_the_old_contents_whole_and_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("duration");
        write_hint(&path, b"0.5\n").unwrap();
        write_hint(&path, b"0.25\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "0.25\n");
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn the_home_is_next_to_the_target_dirs_tag() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target");
        std::fs::create_dir_all(target.join("release/deps")).unwrap();
        std::fs::write(target.join("CACHEDIR.TAG"), "").unwrap();
        let exe = target.join("release/deps/bench-1234");
        if std::env::var_os("CARGO_TARGET_DIR").is_none() {
            assert_eq!(default_home(&exe, tmp.path()), target.join("benchgrind"));
        }
    }
}

/// Writes a file so that readers see the old contents or the new, never a part: the bytes go
/// to a temporary file in the same directory, which is then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_name(path);
    let result = std::fs::File::create(&tmp)
        .and_then(|mut file| {
            use std::io::Write;
            file.write_all(bytes)?;
            // On disk before the rename, so that even a power loss leaves old or new.
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes a file that is rebuilt when lost (a hint, as a benchmark's last duration) so that
/// readers see the old contents or the new, never a part: as [`write_atomic`], without waiting
/// for the disk (a power loss may lose the new contents, not leave half of them).
pub fn write_hint(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_name(path);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What to do when the home cannot be written, after the error.
const WRITE_HINT: &str = "the results of earlier runs are untouched; free some space, make the \
                          directory writable, or give another home with --home";

/// Checks, before any benchmark runs, that `dir` can take a run's files: a 64 KiB file is
/// written and removed. A full disk or a read-only directory is then one error naming it.
pub fn check_writable(dir: &Path) -> Result<(), Problem> {
    let probe = dir.join(".benchgrind-write-check");
    let written = std::fs::create_dir_all(dir).and_then(|()| write_atomic(&probe, &[0; 1 << 16]));
    let _ = std::fs::remove_file(&probe);
    written
        .file_op("write in", dir)
        .map_err(|e| problem!("{e}; {WRITE_HINT}"))
}

/// `reason` as it is: outside Unix, free space is not looked up.
#[cfg(not(unix))]
pub fn with_disk_full(_dir: &Path, reason: String) -> String {
    reason
}

/// `reason` with the cause added when the file system holding `dir` is full (less than 1 MiB
/// free): a profile cut short by a full disk says so rather than only that it is cut short.
#[cfg(unix)]
pub fn with_disk_full(dir: &Path, reason: String) -> String {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return reason;
    };
    // SAFETY: statvfs fills a zeroed struct from a NUL-terminated path.
    let free = unsafe {
        let mut stat: libc::statvfs = std::mem::zeroed();
        (libc::statvfs(path.as_ptr(), &mut stat) == 0)
            .then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
    };
    match free {
        Some(bytes) if bytes < 1 << 20 => format!(
            "{reason} (the file system holding {} is full; {WRITE_HINT})",
            dir.display()
        ),
        _ => reason,
    }
}

/// Copies a file into place atomically (see [`write_atomic`]).
pub fn copy_atomic(from: &Path, to: &Path) -> io::Result<()> {
    let tmp = temp_name(to);
    let result = std::fs::copy(from, &tmp)
        .and_then(|_| std::fs::File::open(&tmp)?.sync_all())
        .and_then(|()| std::fs::rename(&tmp, to));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.tmp{}", std::process::id()))
}

impl BenchPaths {
    /// The profile saved as baseline `name`.
    pub fn baseline(&self, name: &str) -> PathBuf {
        self.dir.join(format!("baseline.{name}.callgrind.out"))
    }

    /// Another tool's file saved as baseline `name`: `baseline.NAME.dhat.out`.
    pub fn tool_baseline(&self, name: &str, file: &str) -> PathBuf {
        self.dir.join(format!("baseline.{name}.{file}"))
    }

    /// The JSON summary of the last run.
    pub fn summary(&self) -> PathBuf {
        self.dir.join("summary.json")
    }
}

#[cfg(test)]
mod atomic_tests {
    use super::*;

    #[test]
    fn atomic_writes_leave_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("summary.json");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        let copy = tmp.path().join("copy");
        copy_atomic(&target, &copy).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_reader_sees_the_old_baseline_or_the_new_never_a_part() {
        let tmp = tempfile::tempdir().unwrap();
        let baseline = tmp.path().join("baseline.x.callgrind.out");
        let source = tmp.path().join("callgrind.out");
        // Large enough that a copy takes many writes.
        let versions = [vec![b'a'; 1 << 20], vec![b'b'; 3 << 19]];
        write_atomic(&baseline, &versions[0]).unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for round in 0..40 {
                    std::fs::write(&source, &versions[round % 2]).unwrap();
                    copy_atomic(&source, &baseline).unwrap();
                }
                done.store(true, std::sync::atomic::Ordering::SeqCst);
            });
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let read = std::fs::read(&baseline).unwrap();
                assert!(versions.contains(&read), "a read of {} bytes", read.len());
                reads += 1;
            }
            assert!(reads > 0);
        });
    }
}
