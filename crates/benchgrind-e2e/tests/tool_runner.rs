//! `--tool-runner=CMD`: Valgrind started through a command, here a wrapper script that stands
//! in for a container runner: Valgrind is only on the wrapper's PATH, not on the bench binary's.
//! The counts are those of a direct run, and every Valgrind start went through the wrapper.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_lib");

fn instructions(report: &str) -> BTreeMap<String, u64> {
    blocks(report)
        .into_iter()
        .filter(|b| b.failed.is_none())
        .map(|b| (b.header.clone(), b.get("Instructions")))
        .collect()
}

#[test]
fn counts_through_a_wrapper_equal_a_direct_run() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("runner.log");
    let wrapper = tmp.path().join("in-container");
    std::fs::write(
        &wrapper,
        "#!/bin/sh\n# Valgrind is on this side only.\nPATH=/usr/local/bin:/usr/bin:/bin\n\
         export PATH\nlog=\"$1\"\nshift\necho \"$*\" >> \"$log\"\nexec \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();

    let home = |name: &str| format!("--home={}", tmp.path().join(name).display());
    // (Not env_group: its benchmark counts the environment, which the wrapper changes.)
    let direct = run(BIN, &[&home("direct"), "fib_group"], tmp.path(), &[]);
    // The runner and its arguments: here the file it logs to.
    let runner = format!("--tool-runner={}", wrapper.display());
    let runner_args = format!("--tool-runner-args={}", log.display());
    let wrapped = run(
        BIN,
        &[&home("wrapped"), &runner, &runner_args, "fib_group"],
        tmp.path(),
        &[("PATH", "/nonexistent")],
    );
    assert_eq!(wrapped.status.code(), direct.status.code());
    let (direct, wrapped) = (stdout(&direct), stdout(&wrapped));
    assert!(!instructions(&direct).is_empty(), "{direct}");
    assert_eq!(instructions(&wrapped), instructions(&direct), "{wrapped}");

    let log = std::fs::read_to_string(&log).unwrap();
    // `valgrind` as the runner's PATH finds it, or the one BENCHGRIND_VALGRIND names.
    let valgrind = std::env::var("BENCHGRIND_VALGRIND").unwrap_or_else(|_| "valgrind".into());
    let version = format!("{valgrind} --version");
    assert!(log.lines().any(|l| l == version), "{log}");
    assert!(log.contains("--tool=callgrind"), "{log}");

    // Without the runner, the bench binary's PATH has no Valgrind: the error says so.
    // (Nor a BENCHGRIND_VALGRIND: CI runs this under a second Valgrind named there.)
    let missing = common::bench(BIN)
        .args(["--bench", &home("none")])
        .current_dir(tmp.path())
        .env("PATH", "/nonexistent")
        .env_remove("BENCHGRIND_VALGRIND")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("`valgrind` is not on PATH"));
}
