//! What the tests running the programs of `tests/program` share: building them, running them
//! natively or under Valgrind, reading what they printed and what Valgrind logged.

// Each test crate uses its own part of the helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The magic preamble of a client request: four rotations of a register by 128 bits in all.
#[cfg(target_arch = "x86_64")]
pub const PREAMBLE: &[u8] = &[
    0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d, 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33,
];
/// `ror x12, x12, #3; #13; #51; #61`, encoded as EXTR (not yet run on an aarch64 host).
#[cfg(target_arch = "aarch64")]
pub const PREAMBLE: &[u8] = &[
    0x8c, 0x0d, 0xcc, 0x93, 0x8c, 0x35, 0xcc, 0x93, 0x8c, 0xcd, 0xcc, 0x93, 0x8c, 0xf5, 0xcc, 0x93,
];

/// Instructions allowed between the toggled region and the reference: the call of the work
/// function and the part of the request sequence that falls inside the region.
pub const REGION_TOLERANCE: u64 = 32;

#[derive(Clone, Copy)]
pub enum Build {
    Real,
    Defs,
}

/// Builds the programs once per variant and returns their directory.
pub fn programs(build: Build) -> &'static Path {
    static REAL: OnceLock<PathBuf> = OnceLock::new();
    static DEFS: OnceLock<PathBuf> = OnceLock::new();
    let (cell, feature) = match build {
        Build::Real => (&REAL, "real"),
        Build::Defs => (&DEFS, "defs"),
    };
    cell.get_or_init(|| {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/program/Cargo.toml");
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("creq-program-{feature}"));
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--release",
                "--offline",
                "--quiet",
                "--features",
                feature,
            ])
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target)
            .status()
            .expect("cargo starts");
        assert!(
            status.success(),
            "building {} with `{feature}` failed",
            manifest.display()
        );
        target.join("release")
    })
}

/// What one run left behind: the program's `key=value` lines, Valgrind's log, its directory.
pub struct Run {
    pub values: HashMap<String, String>,
    pub log: String,
    pub dir: PathBuf,
}

impl Run {
    pub fn get(&self, key: &str) -> &str {
        self.values.get(key).unwrap_or_else(|| {
            panic!(
                "no `{key}=` line; got {:?}\nlog:\n{}",
                self.values, self.log
            )
        })
    }

    pub fn number(&self, key: &str) -> u64 {
        self.get(key).parse().expect("a number")
    }

    /// The `totals:` line of a Callgrind out file in the run's directory.
    pub fn callgrind_total(&self, file: &str) -> u64 {
        let text = std::fs::read_to_string(self.dir.join(file)).expect("callgrind wrote the file");
        let line = text
            .lines()
            .find(|l| l.starts_with("totals:"))
            .expect("a totals line");
        line["totals:".len()..].trim().parse().expect("a count")
    }
}

/// Runs `program` (with `args`) under `valgrind` with `options`, in a fresh directory named
/// `name`, with the log in `valgrind.log` there. Without `options` it runs natively.
pub fn run(name: &str, options: Option<&[&str]>, program: &str, args: &[&str]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("creq-runs")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("run directory");
    let exe = programs(Build::Real).join(program);
    let mut cmd = match options {
        Some(options) => {
            let mut cmd = Command::new("valgrind");
            cmd.args(options).arg("--log-file=valgrind.log").arg(&exe);
            cmd
        }
        None => Command::new(&exe),
    };
    let output = cmd
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("valgrind starts");
    let log = std::fs::read_to_string(dir.join("valgrind.log")).unwrap_or_default();
    assert!(
        output.status.success(),
        "{name}: {:?}\nstderr: {}\nlog:\n{log}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let values = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    Run { values, log, dir }
}

/// The `N` of the log's `ERROR SUMMARY: N errors` line.
pub fn error_summary(log: &str) -> u64 {
    let line = log
        .lines()
        .find(|l| l.contains("ERROR SUMMARY:"))
        .expect("an error summary");
    let after = line
        .split("ERROR SUMMARY:")
        .nth(1)
        .expect("text after the colon");
    after
        .split_whitespace()
        .next()
        .expect("a count")
        .parse()
        .expect("a number")
}

/// The installed Valgrind's (major, minor), from `valgrind --version`.
pub fn valgrind_version() -> (u32, u32) {
    let output = Command::new("valgrind")
        .arg("--version")
        .output()
        .expect("valgrind starts");
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text.trim().trim_start_matches("valgrind-");
    let mut parts = version.split('.').map(|p| p.parse::<u32>());
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor),
        _ => panic!("cannot read a version from `valgrind --version`: {text:?}"),
    }
}
