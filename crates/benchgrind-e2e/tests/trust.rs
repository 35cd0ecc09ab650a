//! Numbers users can trust, end to end on `e2e_lib` under real Valgrind: a benchmark that
//! measures almost nothing is flagged (and fails with `--fail-on-empty`), and every result
//! carries the machine's fingerprint, whose changed fields the next comparison names: against
//! the previous run, and in `benchgrind compare` of two summaries.

mod common;

use std::path::Path;
use std::process::Command;

use common::{blocks, cli, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_lib");

/// Only the `empty` benchmark and a real one, into `home`.
fn run_two(home: &Path, extra: &[&str]) -> std::process::Output {
    let home_arg = format!("--home={}", home.display());
    let mut args = vec![home_arg.as_str(), "--save-summary=pretty-json", "--exact"];
    args.extend_from_slice(extra);
    args.extend([
        "e2e_lib::fib_group::empty",
        "e2e_lib::fib_group::bench_fibonacci::short",
    ]);
    run(BIN, &args, home, &[])
}

fn summary(home: &Path, function_dir: &str) -> serde_json::Value {
    let path = home.join(format!(
        "benchgrind-e2e/e2e_lib/fib_group/{function_dir}/summary.json"
    ));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn an_empty_benchmark_is_flagged_and_fails_on_request() {
    let home = tempfile::tempdir().unwrap();
    let output = run_two(home.path(), &[]);
    let report = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{report}");
    let warned: Vec<&str> = report
        .lines()
        .filter(|l| {
            l.trim_start()
                .starts_with("Warning: measures almost nothing")
        })
        .collect();
    assert_eq!(warned.len(), 1, "only `empty` is flagged:\n{report}");
    let empty = blocks(&report)
        .into_iter()
        .find(|b| b.header.contains("::empty"))
        .unwrap();
    assert!(empty.get("Instructions") < 10, "{report}");
    let json = summary(home.path(), "empty");
    let warnings = json["warnings"]
        .as_array()
        .expect("warnings in the summary");
    assert!(warnings[0]
        .as_str()
        .unwrap()
        .contains("measures almost nothing"));
    assert!(summary(home.path(), "bench_fibonacci.short")
        .get("warnings")
        .is_none());

    let output = run_two(home.path(), &["--fail-on-empty"]);
    let report = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains("FAILED e2e_lib::fib_group::empty: measures almost nothing"),
        "{report}"
    );
    assert!(report.contains("1 measured, 1 failed"), "{report}");
}

#[test]
fn a_changed_machine_is_named_in_the_next_comparison() {
    let home = tempfile::tempdir().unwrap();
    let output = run_two(home.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let first = summary(home.path(), "bench_fibonacci.short");
    let fingerprint = &first["fingerprint"];
    for field in ["valgrind", "cpu", "glibc", "rustc", "cache", "target"] {
        assert!(
            !fingerprint[field].as_str().unwrap_or("").is_empty(),
            "{field} in {fingerprint}"
        );
    }
    assert!(fingerprint["valgrind"]
        .as_str()
        .unwrap()
        .starts_with("valgrind-3."));
    // The CPU is Valgrind's, read by the bench binary under Valgrind.
    assert!(fingerprint["cpu"].as_str().unwrap().contains(" | fms "));

    // The previous run's machine, edited: the next run names the field and both values.
    let dir = home
        .path()
        .join("benchgrind-e2e/e2e_lib/fib_group/bench_fibonacci.short");
    let file = dir.join("fingerprint.json");
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    saved["glibc"] = "2.17".into();
    std::fs::write(&file, saved.to_string()).unwrap();
    let output = run_two(home.path(), &[]);
    let report = stdout(&output);
    let glibc = fingerprint["glibc"].as_str().unwrap();
    let line = format!("glibc `2.17` -> `{glibc}`");
    let named: Vec<&str> = report.lines().filter(|l| l.contains(&line)).collect();
    assert_eq!(named.len(), 1, "only the edited benchmark:\n{report}");
    assert!(named[0].trim_start().starts_with("Machine:"), "{report}");
    let second = summary(home.path(), "bench_fibonacci.short");
    assert_eq!(second["machine_differences"][0]["field"], "glibc");
    assert_eq!(second["machine_differences"][0]["old"], "2.17");

    // `benchgrind compare` of two summaries, one edited.
    let Some(cli) = cli() else {
        return;
    };
    let old = home.path().join("old.json");
    let mut edited = second.clone();
    edited["fingerprint"]["valgrind"] = "valgrind-3.22.0".into();
    std::fs::write(&old, edited.to_string()).unwrap();
    let new = dir.join("summary.json");
    let compared = Command::new(cli)
        .args(["compare", "--color=never"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&compared.stderr);
    assert_eq!(compared.status.code(), Some(0), "{stderr}");
    let version = fingerprint["valgrind"].as_str().unwrap();
    assert!(
        stderr.contains(&format!("valgrind `valgrind-3.22.0` -> `{version}`")),
        "{stderr}"
    );
}

#[test]
fn other_tools_get_no_callgrind_request() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let output = run(
        BIN,
        &[
            &home_arg,
            "--tools=dhat,memcheck",
            "--exact",
            "e2e_lib::fib_group::bench_fibonacci::short",
        ],
        home.path(),
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let dir = home
        .path()
        .join("benchgrind-e2e/e2e_lib/fib_group/bench_fibonacci.short");
    for log in ["dhat.log", "memcheck.log"] {
        let text = std::fs::read_to_string(dir.join(log)).unwrap();
        assert!(
            text.contains("Command:"),
            "{log} is Valgrind's log:\n{text}"
        );
        assert!(
            !text.contains("unknown") && !text.contains("client request"),
            "{log}:\n{text}"
        );
    }
}
