//! `--output-format=gungraun-json` read by gungraun's own summary reader (`gungraun-summary`
//! from crates.io, in the workspace `gungraun-check/`): every summary of a run of several tools
//! and of a run compared with a baseline, with a regression, is accepted, and what the reader
//! understood holds benchgrind's counts.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{run, stdout, target_dir};

const TOOLS: &str = env!("CARGO_BIN_EXE_e2e_tools");
const EXPLAIN: &str = env!("CARGO_BIN_EXE_e2e_explain");

/// Builds the reader (once; its own workspace and target directory).
fn reader() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("gungraun-check/Cargo.toml");
    let target = target_dir().join("gungraun-check");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-q", "--locked", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "gungraun-summary-check builds");
    target.join("debug/gungraun-summary-check")
}

/// What gungraun's reader makes of `lines`, a summary per line.
fn read_back(reader: &Path, lines: &str) -> Vec<serde_json::Value> {
    let mut child = Command::new(reader)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}\n{lines}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn total<'a>(summary: &'a serde_json::Value, tool: &str) -> &'a serde_json::Value {
    summary["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["tool"] == tool)
        .unwrap_or_else(|| panic!("a {tool} profile in {summary}"))
        .get("data")
        .unwrap()
        .get("total")
        .unwrap()
}

#[test]
fn gungrauns_reader_reads_every_summary() {
    let reader = reader();
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());

    // Several tools: a profile each.
    let tools = run(
        TOOLS,
        &[&h, "--output-format=gungraun-json"],
        home.path(),
        &[],
    );
    let ours = run(TOOLS, &[&h, "--output-format=json"], home.path(), &[]);
    let read = read_back(&reader, &stdout(&tools));
    assert!(read.len() >= 5, "{}", stdout(&tools));
    let ours: Vec<serde_json::Value> = stdout(&ours)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|s: &serde_json::Value| s["status"] != "failed")
        .collect();
    assert_eq!(read.len(), ours.len());
    let mut other_tools = 0;
    for (theirs, ours) in read.iter().zip(&ours) {
        assert_eq!(theirs["version"], "7");
        assert_eq!(theirs["function_name"], ours["function"]);
        let ir = &total(theirs, "Callgrind")["metrics"]["Ir"]["values"]["new"];
        assert_eq!(*ir, ours["metrics"]["Ir"]["new"], "{theirs}");
        other_tools += theirs["profiles"].as_array().unwrap().len() - 1;
    }
    assert!(other_tools > 0, "some benchmark ran another tool");

    // A change, compared with the previous run, past a limit: old values, changes, regressions.
    run(EXPLAIN, &[&h], home.path(), &[("E2E_EXTRA", "100")]);
    let changed = run(
        EXPLAIN,
        &[&h, "--output-format=gungraun-json", "--regression=ir=5%"],
        home.path(),
        &[("E2E_EXTRA", "150")],
    );
    assert_eq!(changed.status.code(), Some(3));
    let read = read_back(&reader, &stdout(&changed));
    let regressed: Vec<_> = read
        .iter()
        .filter(|s| {
            !total(s, "Callgrind")["regressions"]
                .as_array()
                .unwrap()
                .is_empty()
        })
        .collect();
    assert!(!regressed.is_empty(), "{}", stdout(&changed));
    for summary in regressed {
        let ir = &total(summary, "Callgrind")["metrics"]["Ir"];
        let (new, old) = (
            ir["values"]["new"].as_u64().unwrap(),
            ir["values"]["old"].as_u64().unwrap(),
        );
        assert!(new > old, "{ir}");
        let factor: f64 = ir["change"]["factor"].as_str().unwrap().parse().unwrap();
        assert!((factor - new as f64 / old as f64).abs() < 1e-9, "{ir}");
    }
}
