//! Running a bench program and reading what it printed.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One benchmark's block in the terminal report.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub header: String,
    /// `(label, new, old as printed, change as printed)`.
    pub metrics: Vec<(String, u64, String, String)>,
    pub failed: Option<String>,
}

impl Block {
    pub fn get(&self, label: &str) -> u64 {
        self.metrics
            .iter()
            .find(|m| m.0 == label)
            .unwrap_or_else(|| panic!("{}: no `{label}` line in {:?}", self.header, self.metrics))
            .1
    }
}

/// A bench binary's command, measuring under `--verify-reuse`: every benchmark runs, as these
/// tests expect, and one whose record of inputs matched fails if it counts otherwise than the
/// results that would have been reused, so that every test that runs a benchmark twice checks
/// the record. A test of reuse itself sets `BENCHGRIND_VERIFY_REUSE=no`.
pub fn bench(bin: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env("BENCHGRIND_VERIFY_REUSE", "yes");
    cmd
}

/// Runs `bin` with `args` in `cwd`, with `envs` added to this process' environment, and with
/// `--bench` first, as `cargo bench` passes it (without it, a bench binary started by cargo's
/// test runner checks its benchmarks natively instead of measuring them).
pub fn run(bin: &str, args: &[&str], cwd: &Path, envs: &[(&str, &str)]) -> Output {
    let mut cmd = bench(bin);
    cmd.arg("--bench")
        .args(args)
        .current_dir(cwd)
        .env("BENCHGRIND_COLOR", "never");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("the bench program starts")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Instructions per benchmark function (the last part of its path, the bench id left out).
pub fn instructions_by_function(report: &str) -> std::collections::BTreeMap<String, u64> {
    blocks(report)
        .into_iter()
        .map(|b| {
            let name = b.header.split_whitespace().next().unwrap();
            let name = name.rsplit("::").next().unwrap().to_owned();
            (name, b.get("Instructions"))
        })
        .collect()
}

/// Splits the report into blocks: a header line, then indented metric or failure lines. The
/// lines of a `Comparison with` section and of an explanation (`Why Ir changed`, up to another
/// tool's `=======` rule) are left out.
pub fn blocks(report: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_comparison = false;
    let mut in_explanation = false;
    for line in report.lines() {
        if line.is_empty() || line.starts_with("benchgrind:") {
            in_comparison = false;
            if line.starts_with("benchgrind:") {
                break;
            }
            continue;
        }
        if !line.starts_with(' ') {
            in_explanation = false;
            blocks.push(Block {
                header: line.to_owned(),
                metrics: Vec::new(),
                failed: None,
            });
            in_comparison = false;
            continue;
        }
        let block = blocks.last_mut().expect("a metric line follows a header");
        let text = line.trim_start();
        if text.starts_with("Why ") {
            in_explanation = true;
        } else if text.starts_with("=======") {
            in_explanation = false;
        }
        if in_explanation {
            continue;
        }
        if let Some(reason) = text.strip_prefix("FAILED: ") {
            block.failed = Some(reason.to_owned());
        } else if text.starts_with("Comparison with") {
            in_comparison = true;
        } else if let (false, Some((label, rest))) = (in_comparison, text.split_once(':')) {
            if text.starts_with("log:")
                || text.starts_with("## ")
                || text.starts_with("out:")
                || text.starts_with("Baselines:")
                || text.starts_with("Performance has regressed")
                || text.starts_with("Warning:")
                || text.starts_with("Machine:")
                || text.starts_with("Uncompared:")
                || text.starts_with("Reused:")
                || text.starts_with("Layout only:")
                || text.starts_with("Layout spread:")
                || text.starts_with("Spread of ")
            {
                continue;
            }
            let (new, rest) = rest.split_once('|').expect("new|old");
            let rest = rest.trim_start();
            let (old, change) = rest.split_once(' ').unwrap_or((rest, ""));
            block.metrics.push((
                label.to_owned(),
                new.trim().parse().expect("a count"),
                old.to_owned(),
                change.trim().to_owned(),
            ));
        }
    }
    blocks
}

/// The indented lines of the block of the benchmark whose id is `id` (`path id:(args)`), from the
/// first such block in a terminal report.
pub fn block_lines<'a>(report: &'a str, id: &str) -> Vec<&'a str> {
    let header = format!(" {id}:");
    let mut lines = report.lines();
    lines
        .find(|l| !l.starts_with(' ') && l.contains(&header))
        .unwrap_or_else(|| panic!("no benchmark {id} in\n{report}"));
    lines.take_while(|l| l.starts_with(' ')).collect()
}

/// The warnings of the benchmark whose id is `id` in a terminal report ([`block_lines`]).
pub fn warnings(report: &str, id: &str) -> Vec<String> {
    block_lines(report, id)
        .into_iter()
        .filter_map(|l| l.trim_start().strip_prefix("Warning: "))
        .map(str::to_owned)
        .collect()
}

/// The `benchgrind` CLI, which `cargo test --workspace` builds; `None` (with a note) when this
/// package's tests run alone and it was not built. On CI it must be there.
pub fn cli() -> Option<PathBuf> {
    let cli = target_dir().join("debug/benchgrind");
    if cli.exists() {
        return Some(cli);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "benchgrind CLI missing at {}",
        cli.display()
    );
    eprintln!("NOTE: skipping the part that needs the CLI: cargo build -p benchgrind-cli");
    None
}

/// Whether the Rust toolchain has the standard library for `target`.
pub fn has_target(target: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc starts");
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib")
        .exists()
}

/// A package at `dir/app` named `name`, with `lib` as its library, `dependencies` (lines of a
/// `[dependencies]` table) and `bench` as its one bench file `benches/<bench_name>.rs`, built in
/// one code-generation unit as the README has users build theirs, with the workspace's lock
/// file so that nothing is resolved again. Its path.
pub fn one_unit_package(
    dir: &Path,
    name: &str,
    lib: &str,
    dependencies: &str,
    bench_name: &str,
    bench: &str,
) -> PathBuf {
    let root = dir.join("app");
    std::fs::create_dir_all(root.join("benches")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), lib).unwrap();
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    std::fs::copy(lock, root.join("Cargo.lock")).unwrap();
    let benchgrind = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchgrind");
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [lib]\nbench = false\n\n\
             [dependencies]\n{dependencies}\n\
             [dev-dependencies]\nbenchgrind = {{ path = {:?} }}\n\n\
             [[bench]]\nname = \"{bench_name}\"\nharness = false\n\n\
             [profile.bench]\ndebug = \"line-tables-only\"\ncodegen-units = 1\n\n[workspace]\n",
            benchgrind.canonicalize().unwrap()
        ),
    )
    .unwrap();
    std::fs::write(root.join(format!("benches/{bench_name}.rs")), bench).unwrap();
    root
}

/// The workspace's target directory (`CARGO_TARGET_DIR` when set).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// HTML that cmark-gfm (GitHub's Markdown, with tables) makes of `markdown`.
pub fn cmark_gfm(markdown: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("cmark-gfm")
        .args(["--extension", "table", "--unsafe"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cmark-gfm runs; install it with `bash .ci/deps --tests`");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(markdown.as_bytes()).unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// A temporary directory that `user` owns: a home for a benchmark run as that user.
pub fn owned_by(user: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let chown = std::process::Command::new("chown")
        .arg(format!("{user}:{user}"))
        .arg(home.path())
        .status()
        .unwrap();
    assert!(chown.success());
    home
}
