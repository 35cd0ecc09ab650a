//! What a user without privileges gets (issue 33), as on a hosted CI runner: a user of its own
//! with an rtprio limit of 0 and no capabilities runs the threaded and multi-process benchmarks
//! five times.
//!
//! - Without the permission real-time scheduling needs, each worker's processes run on one
//!   processor under `SCHED_BATCH`: single-threaded benchmarks repeat; threaded ones may move
//!   (a thread pool's by about 0.1 %), and every one of them says so with the command that
//!   grants the limit.
//! - With the permission granted (the rtprio limit the workflow sets with `sudo prlimit`, or,
//!   where this machine's root cannot raise limits, `CAP_SYS_NICE` alone), every count repeats
//!   and equals root's.
//!
//! Needs root to create the user; elsewhere the test says so and checks nothing. The user gets
//! `CAP_DAC_READ_SEARCH` (read and search only) so that it can reach the bench binary and the
//! package wherever the checkout is (under `/root`, say); nothing that bears on scheduling.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{instructions_by_function, stdout};

const THREADS: &str = env!("CARGO_BIN_EXE_e2e_threads");
const PROCESSES: &str = env!("CARGO_BIN_EXE_e2e_processes");
const FORKER: &str = env!("CARGO_BIN_EXE_e2e_forker");
const HOME: &str = env!("CARGO_BIN_EXE_e2e_home");
const HOME_READER: &str = env!("CARGO_BIN_EXE_e2e_home_reader");
const USER: &str = "benchgrind-unpriv";

/// Whether this test process runs as root.
fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The user, created if missing.
fn ensure_user() {
    // One test at a time: two `useradd` at once on a fresh machine left the name resolving to
    // another uid for a moment (a home chowned to 999 for a run as 995: "Permission denied").
    static MAKING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    let exists = Command::new("id").arg(USER).output().unwrap();
    if exists.status.success() {
        return;
    }
    let made = Command::new("useradd")
        .args(["--system", "--no-create-home", "--shell", "/bin/sh", USER])
        .output()
        .expect("useradd runs");
    assert!(
        made.status.success() || String::from_utf8_lossy(&made.stderr).contains("exists"),
        "useradd: {}",
        String::from_utf8_lossy(&made.stderr)
    );
}

/// How the user's run is privileged.
#[derive(Clone, Copy, PartialEq)]
enum Grant {
    /// Nothing: an rtprio limit of 0 and no capabilities.
    Nothing,
    /// What real-time scheduling needs.
    Realtime,
}

/// Whether root may raise the rtprio limit here (`CAP_SYS_RESOURCE`); where not, the grant is
/// `CAP_SYS_NICE`, which sched_setscheduler accepts the same way.
fn can_raise_rtprio() -> bool {
    Command::new("prlimit")
        .args(["--rtprio=1:1", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `bin` as the user, in and with a home of its own; returns the report.
fn run_as_user(bin: &str, home: &Path, grant: Grant) -> String {
    let mut caps = "+dac_read_search".to_owned();
    let mut cmd = Command::new("prlimit");
    match grant {
        Grant::Nothing => {
            cmd.arg("--rtprio=0:0");
        }
        Grant::Realtime if can_raise_rtprio() => {
            cmd.arg("--rtprio=1:1");
        }
        Grant::Realtime => {
            cmd.arg("--rtprio=0:0");
            caps.push_str(",+sys_nice");
        }
    }
    cmd.args([
        "setpriv",
        "--reuid",
        USER,
        "--regid",
        USER,
        "--clear-groups",
    ])
    .arg(format!("--inh-caps={caps}"))
    .arg(format!("--ambient-caps={caps}"))
    .args(["env", "BENCHGRIND_COLOR=never"])
    .arg(format!("E2E_FORKER={FORKER}"))
    .arg(format!("E2E_HOME_READER={HOME_READER}"))
    .arg(bin)
    .arg("--bench")
    .arg(format!("--home={}", home.display()))
    .current_dir(home);
    let out = cmd.output().expect("prlimit and setpriv run");
    let report = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

/// A home the user owns.
fn user_home() -> tempfile::TempDir {
    common::owned_by(USER)
}

/// The counts of each run, for the test's output.
fn counts_only(runs: &[(BTreeMap<String, u64>, String)]) -> Vec<&BTreeMap<String, u64>> {
    runs.iter().map(|(counts, _)| counts).collect()
}

/// Five runs of `bin` as the user, each in a fresh home.
fn five_runs(bin: &str, grant: Grant) -> Vec<(BTreeMap<String, u64>, String)> {
    (0..5)
        .map(|_| {
            let home = user_home();
            let report = run_as_user(bin, home.path(), grant);
            (instructions_by_function(&report), report)
        })
        .collect()
}

#[test]
fn an_unprivileged_user_counts_exactly_once_granted_the_limit_and_is_told_how_otherwise() {
    if !root() {
        eprintln!("\n!!! not root: cannot create a user here; nothing checked");
        return;
    }
    ensure_user();

    // No permission: single-threaded code repeats; threaded benchmarks say that their counts
    // may move and how to grant the limit, and may move (spawned threads by 94 instructions
    // once, rayon and tokio by about 0.1 %: no policy an ordinary user may set holds them).
    let runs = five_runs(THREADS, Grant::Nothing);
    let (first, _) = &runs[0];
    for (again, report) in &runs {
        let said = report.matches("sudo prlimit --pid $$ --rtprio=1:1").count();
        assert_eq!(said, 5, "every threaded benchmark says it\n{report}");
        assert_eq!(again["inline"], first["inline"], "{report}");
    }
    eprintln!("\nunprivileged, five runs: {:#?}", counts_only(&runs));

    // Granted: everything repeats, says nothing, and counts what root counts.
    let runs = five_runs(THREADS, Grant::Realtime);
    let (first, report) = &runs[0];
    assert!(!report.contains("without real-time scheduling"), "{report}");
    for (again, report) in &runs[1..] {
        assert_eq!(again, first, "{report}");
    }
    let home = tempfile::tempdir().unwrap();
    let as_root = common::run(
        THREADS,
        &[&format!("--home={}", home.path().display())],
        home.path(),
        &[],
    );
    assert_eq!(
        &instructions_by_function(&stdout(&as_root)),
        first,
        "{}",
        stdout(&as_root)
    );

    let runs = five_runs(PROCESSES, Grant::Realtime);
    let (first, _) = &runs[0];
    assert!(!first.is_empty());
    for (again, report) in &runs[1..] {
        assert_eq!(again, first, "{report}");
    }
}

#[test]
fn a_program_that_reads_its_users_home_counts_the_same_for_root_and_another_user() {
    if !root() {
        eprintln!("\n!!! not root: cannot create a user here; nothing checked");
        return;
    }
    ensure_user();
    let home = user_home();
    let as_user = instructions_by_function(&run_as_user(HOME, home.path(), Grant::Realtime));
    let root_home = tempfile::tempdir().unwrap();
    let out = common::run(
        HOME,
        &[&format!("--home={}", root_home.path().display())],
        root_home.path(),
        &[("E2E_HOME_READER", HOME_READER)],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let as_root = instructions_by_function(&report);
    assert_eq!(as_root.len(), 1, "{report}");
    assert_eq!(as_user, as_root, "{report}");
    // What it reads: nothing, in the run's empty home (root's has files here).
    let reader = Command::new(HOME_READER)
        .env_remove("HOME")
        .output()
        .unwrap();
    eprintln!(
        "root's own home: {} bytes read natively",
        stdout(&reader).trim()
    );
}
