//! A home that cannot take a run's files: a full disk, a read-only file system, a path that is a
//! file. The run ends before measuring anything with one error naming the directory, and the
//! results of earlier runs stay as they were. The full and read-only cases mount a small tmpfs,
//! which needs root; without it they print a note and check nothing else.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::run;

const MANY: &str = env!("CARGO_BIN_EXE_e2e_many");
/// n_99 and n_990 to n_999: 11 benchmarks.
const FILTER: &str = "cheap::n_99";

/// A tmpfs of `size` mounted on `dir`, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .is_ok_and(|o| o.status.success());
        mounted.then(|| Tmpfs(dir.to_path_buf()))
    }

    fn remount(&self, options: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Every file below `dir` (but the lock, which holds the last holder's pid) with its length and
/// a hash of its contents.
fn snapshot(dir: &Path) -> Vec<(PathBuf, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else if !path.ends_with(".lock") {
            let bytes = std::fs::read(&path).unwrap();
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            files.push((path.clone(), bytes.len(), hasher.finish()));
        }
    }
    files.sort();
    files
}

/// Measures into a home on a small tmpfs, breaks the tmpfs with `break_it`, runs again.
fn measure_then_break(break_it: &dyn Fn(&Tmpfs, &Path)) -> Option<(String, String, PathBuf)> {
    let tmp = tempfile::tempdir().unwrap();
    let Some(tmpfs) = Tmpfs::mount(&tmp.path().join("mnt"), "2m") else {
        eprintln!("note: cannot mount a tmpfs (not root?): the full-disk test checks nothing");
        return None;
    };
    let home = tmpfs.0.join("home");
    let home_arg = format!("--home={}", home.display());
    let first = run(MANY, &[&home_arg, FILTER], tmp.path(), &[]);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let before = snapshot(&home);
    assert!(before.len() >= 22, "{}", before.len());
    break_it(&tmpfs, &tmpfs.0);
    let second = run(MANY, &[&home_arg, FILTER], tmp.path(), &[]);
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    assert_eq!(snapshot(&home), before, "earlier results changed");
    let out = String::from_utf8_lossy(&second.stdout).into_owned();
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    let bench_dir = home.join("benchgrind-e2e/e2e_many");
    Some((out, err, bench_dir))
}

#[test]
fn a_full_disk_is_one_error_naming_the_directory() {
    let filled = |_: &Tmpfs, dir: &Path| {
        // Fills what is left, as another program filling the disk would.
        let _ = Command::new("dd")
            .args(["if=/dev/zero", "bs=4k"])
            .arg(format!("of={}", dir.join("filler").display()))
            .output();
    };
    let Some((out, err, dir)) = measure_then_break(&filled) else {
        return;
    };
    assert!(!out.contains("e2e_many::"), "benchmarks ran: {out}");
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("benchgrind: error:"))
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains(&format!("cannot write in {}", dir.display()))
            && err.contains("No space left on device")
            && err.contains("earlier runs are untouched"),
        "{err}"
    );
}

#[test]
fn a_read_only_home_is_one_error_naming_the_directory() {
    let read_only = |tmpfs: &Tmpfs, _: &Path| tmpfs.remount("ro");
    let Some((out, err, dir)) = measure_then_break(&read_only) else {
        return;
    };
    assert!(!out.contains("e2e_many::"), "benchmarks ran: {out}");
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("benchgrind: error:"))
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains(&dir.join(".lock").display().to_string())
            && err.contains("Read-only file system"),
        "{err}"
    );
}

#[test]
fn a_home_that_is_a_file_is_one_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::write(&home, "a file").unwrap();
    let home_arg = format!("--home={}", home.display());
    let output = run(MANY, &[&home_arg, FILTER], tmp.path(), &[]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "cannot create the directory {}",
            home.join("benchgrind-e2e/e2e_many").display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&home).unwrap(), "a file");
}
