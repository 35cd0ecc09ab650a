//! What the compatibility tests share: building and running bench binaries, reading their
//! reports, and checking the profiles they leave.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds a bench target (bench profile, as `cargo bench` does) and returns its executable.
pub fn bench_binary(package: &str, name: &str) -> PathBuf {
    bench_binary_with(package, name, &[]).0
}

/// [`bench_binary`] with cargo `features`; also the compiler's messages about the bench (JSON
/// lines, replayed by cargo when the bench is already built).
pub fn bench_binary_with(package: &str, name: &str, features: &[&str]) -> (PathBuf, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "build",
            "--profile",
            "bench",
            "--bench",
            name,
            "-p",
            package,
        ])
        .arg("--message-format=json")
        .args(features.iter().flat_map(|f| ["--features", f]))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo starts");
    assert!(
        output.status.success(),
        "cargo build --bench {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let target = format!("\"name\":\"{name}\"");
    let exe = stdout
        .lines()
        .filter(|l| l.contains("\"compiler-artifact\"") && l.contains(&target))
        .find_map(|l| {
            let key = "\"executable\":\"";
            let start = l.find(key)? + key.len();
            let end = l[start..].find('"')? + start;
            Some(PathBuf::from(&l[start..end]))
        })
        .unwrap_or_else(|| panic!("cargo reported no executable for {name}:\n{stdout}"));
    let messages = stdout
        .lines()
        .filter(|l| l.contains("\"compiler-message\"") && l.contains(&target))
        .collect::<Vec<_>>()
        .join("\n");
    (exe, messages)
}

/// One benchmark of a report: its header and `(label, new, rest of the line)`.
#[derive(Debug)]
pub struct Block {
    pub header: String,
    pub lines: Vec<(String, u64, String)>,
}

impl Block {
    pub fn get(&self, label: &str) -> u64 {
        self.lines
            .iter()
            .find(|l| l.0 == label)
            .unwrap_or_else(|| panic!("{}: no {label} in {:?}", self.header, self.lines))
            .1
    }
}

/// Runs a bench binary as `cargo bench` does, in the package's directory, with `envs` besides
/// this environment; returns its stdout.
pub fn run(exe: &Path, home: &Path, cwd: &str, envs: &[(&str, &Path)]) -> String {
    let output = Command::new(exe)
        .arg("--bench")
        .arg(format!("--home={}", home.display()))
        .current_dir(cwd)
        .envs(envs.iter().copied())
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .expect("the bench binary starts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}\n{stdout}\n{}",
        exe.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The blocks of a report: a header is the unindented line before an `Instructions:` line.
pub fn blocks(report: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut last_header = None;
    // Under `## thread N` (a thread's part of the counts, `show_intermediate`): not the total.
    let mut in_part = false;
    for line in report.lines() {
        // `show_grid` marks a metric line `|-` and a tool's title `|=`: indented lines.
        let marked = line.strip_prefix("|-").or_else(|| line.strip_prefix("|="));
        let line = &marked.map_or_else(|| line.to_owned(), |rest| format!("  {rest}"));
        if !line.starts_with(' ') {
            last_header = Some(line.to_owned());
            in_part = false;
            continue;
        }
        if line.trim_start().starts_with("## ") {
            in_part = true;
        }
        if in_part {
            continue;
        }
        let Some((label, rest)) = line.trim().split_once(':') else {
            continue;
        };
        let Some((value, tail)) = rest.trim().split_once('|') else {
            continue;
        };
        let Ok(value) = value.trim().parse::<u64>() else {
            continue;
        };
        if label == "Instructions" {
            let header = last_header.take().expect("a header before Instructions");
            blocks.push(Block {
                header,
                lines: Vec::new(),
            });
        }
        if let Some(block) = blocks.last_mut() {
            block.lines.push((label.to_owned(), value, tail.to_owned()));
        }
    }
    blocks
}

/// Runs one benchmark of a bench binary of this package (`--exact ID`) with a home of its own,
/// which it returns with the output.
pub fn run_exact(name: &str, id: &str) -> (tempfile::TempDir, std::process::Output) {
    let home = tempfile::tempdir().unwrap();
    let exe = bench_binary("benchgrind-compat-tests", name);
    let output = Command::new(&exe)
        .args(["--bench", "--exact", id])
        .arg(format!("--home={}", home.path().display()))
        .current_dir(HERE)
        .output()
        .unwrap();
    (home, output)
}

/// Runs twice; checks that the second run has the same headers and counts and says so.
pub fn run_twice(package: &str, name: &str, cwd: &str) -> (String, Vec<Block>) {
    run_twice_with(package, name, cwd, &[])
}

/// [`run_twice`] with `envs` besides this environment.
pub fn run_twice_with(
    package: &str,
    name: &str,
    cwd: &str,
    envs: &[(&str, &Path)],
) -> (String, Vec<Block>) {
    let exe = bench_binary(package, name);
    let home = tempfile::tempdir().unwrap();
    // The two runs of one test while no other test of the file runs its own: a child-process
    // count moved by 4 instructions once in CI with 16 tests at once; not reproduced, under load
    // or with the page cache dropped. Most likely the line of Valgrind's gdbserver file in
    // `/proc/self/maps`, which the Rust child reads and which is gone now
    // (`execute::args::NO_GDBSERVER`), but not shown.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let first = run(&exe, home.path(), cwd, envs);
    let second = run(&exe, home.path(), cwd, envs);
    drop(one);
    assert_profiles_read_in_full(home.path());
    let (a, b) = (blocks(&first), blocks(&second));
    assert!(!a.is_empty(), "{first}");
    assert_eq!(a.len(), b.len(), "{first}\n{second}");
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(a.header, b.header);
        // All count something but the bench whose entry point is never entered, on purpose.
        assert!(
            a.get("Instructions") > 0 || a.header.contains("misnamed"),
            "{}",
            a.header
        );
        for (line, again) in a.lines.iter().zip(&b.lines) {
            assert_eq!(line.0, again.0);
            assert_eq!(line.1, again.1, "{}: {} moved", a.header, line.0);
            assert!(again.2.contains("No change"), "{}: {again:?}", a.header);
        }
    }
    (first, a)
}

/// Every `callgrind.out` below `home` reads in full, and its functions' self costs add up to its
/// totals: every instruction is attributed to a function (what `--explain`, the flamegraphs
/// and `benchgrind explain` need). Returns how many there were.
pub fn assert_profiles_read_in_full(home: &Path) -> usize {
    use benchgrind_runner::explain::{explain_profiles, Options};
    use benchgrind_runner::parse::profile::{parse_file, Read};
    let mut found = 0;
    let mut dirs = vec![home.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "callgrind.out") {
                let profile = parse_file(&path, Read::Full)
                    .unwrap_or_else(|e| panic!("{} does not read: {e}", path.display()));
                assert_eq!(profile.self_sum(), profile.totals(), "{}", path.display());
                // Every name resolved: a compressed id never defined would stay `(n)`.
                let undefined = |name: &str| {
                    name.strip_prefix('(')
                        .and_then(|n| n.strip_suffix(')'))
                        .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                };
                for f in &profile.functions {
                    let names = [Some(&f.name), f.object.as_ref(), f.file.as_ref()];
                    assert!(
                        !names.into_iter().flatten().any(|n| undefined(n)),
                        "{}: {f:?}",
                        path.display()
                    );
                }
                // The attribution reads it: compared with itself, nothing changed.
                let same = explain_profiles(&profile, &profile, &Options::default())
                    .unwrap_or_else(|e| panic!("{}: no attribution: {e}", path.display()));
                assert!(!same.changed(), "{}", path.display());
                found += 1;
            }
        }
    }
    found
}

pub fn headers(blocks: &[Block]) -> Vec<&str> {
    blocks.iter().map(|b| b.header.as_str()).collect()
}

/// Whether the bench binaries are built in this workspace's `target/`: a binary benchmark's
/// header shows its program relative to the workspace there, else by its absolute path (a
/// `CARGO_TARGET_DIR` elsewhere), which also moves where a long header is cut.
pub fn target_in_workspace() -> bool {
    let root = Path::new(HERE).parent().unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), |dir| {
        let dir = PathBuf::from(dir);
        if dir.is_absolute() {
            dir
        } else {
            root.join(dir)
        }
    });
    target == root.join("target")
}

/// Compares headers of binary benchmarks (`id:(args) -> program args`) with `expected`: whole
/// where the programs are in the workspace's `target/`, else up to the program.
pub fn assert_same_headers<S: AsRef<str>>(blocks: &[Block], expected: &[S], report: &str) {
    let expected: Vec<&str> = expected.iter().map(AsRef::as_ref).collect();
    if target_in_workspace() {
        assert_eq!(headers(blocks), expected, "{report}");
        return;
    }
    let before_program = |h: &str| h.split(" -> ").next().unwrap().to_owned();
    let shown: Vec<String> = headers(blocks).into_iter().map(before_program).collect();
    let expected: Vec<String> = expected.into_iter().map(before_program).collect();
    assert_eq!(shown, expected, "{report}");
}

pub fn find<'a>(blocks: &'a [Block], header: &str) -> &'a Block {
    blocks
        .iter()
        .find(|b| b.header == header)
        .unwrap_or_else(|| panic!("no {header} in {:?}", headers(blocks)))
}

pub const HERE: &str = env!("CARGO_MANIFEST_DIR");
