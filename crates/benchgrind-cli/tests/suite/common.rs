//! Helpers shared by the `suite_*` integration tests: the real `benchgrind` binary, scratch
//! directories, and copies of the example suite without its build artifacts.

#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

/// The `benchgrind` binary under test. `CARGO_TARGET_DIR` is removed so that a suite's own
/// `cargo build` (the Rust runner) builds into the suite, as it does for a user.
pub fn benchgrind(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchgrind"));
    c.current_dir(cwd)
        .env_remove("CARGO_TARGET_DIR")
        .arg("suite");
    c
}

/// Runs a command and returns its output.
pub fn output(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null())
        .output()
        .expect("the command starts")
}

/// Runs a command with `input` on stdin and returns its output.
pub fn output_with_input(cmd: &mut Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit code, showing both streams when it differs.
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty directory for one test.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "benchgrind-suite-test-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The example suite shipped with the repository.
pub fn example_suite() -> PathBuf {
    repo().join("examples/suite")
}

/// Copies a directory tree, leaving out build artifacts (`target`, `build`, `Cargo.lock`).
pub fn copy_tree(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if ["target", "build", "Cargo.lock", "__pycache__"]
            .iter()
            .any(|s| name == *s)
        {
            continue;
        }
        let to = dst.join(&name);
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}
