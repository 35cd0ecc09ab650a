//! Ctrl-C, SIGTERM and SIGKILL in the middle of a run of `e2e_many` (1,000 benchmarks, about
//! 30 s under Valgrind): the run stops at once with 130 or 143, no Valgrind process and no
//! fork-server or sandbox directory is left, and every benchmark reported before the signal
//! has its files. A run killed by SIGKILL leaves its directories; the next run removes them.

#[path = "common/procs.rs"]
mod procs;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use procs::{entries, processes_mentioning, signal_group, spawn, wait_bounded, wait_for_lines};

const MANY: &str = env!("CARGO_BIN_EXE_e2e_many");
const SLOW_BIN: &str = env!("CARGO_BIN_EXE_e2e_slow_bin");
const HEADER: &str = "e2e_many::many_group::cheap ";
const LIMIT: Duration = Duration::from_secs(60);

/// Every benchmark the report shows has its profile in place, complete; returns how many.
fn reported_have_files(home: &Path, report: &str) -> usize {
    let mut reported = 0;
    for line in report.lines().filter(|l| l.starts_with(HEADER)) {
        let id = line[HEADER.len()..].split(':').next().unwrap();
        let dir = home.join(format!("benchgrind-e2e/e2e_many/many_group/cheap.{id}"));
        let profile = std::fs::read_to_string(dir.join("callgrind.out"))
            .unwrap_or_else(|e| panic!("{line}: no profile in {}: {e}", dir.display()));
        assert!(
            profile
                .lines()
                .any(|l| l.starts_with("totals:") || l.starts_with("summary:")),
            "{line}: the profile in {} is cut short",
            dir.display()
        );
        reported += 1;
    }
    reported
}

/// Starts a run of every benchmark and waits until it has reported `count` of them.
fn started(tmp: &Path, name: &str, count: usize) -> std::process::Child {
    let args = vec![
        format!("--home={}", tmp.join("home").display()),
        "--jobs=2".into(),
    ];
    std::fs::create_dir_all(tmp.join("tmp")).unwrap();
    let child = spawn(MANY, &args, tmp, &tmp.join("tmp"), name);
    wait_for_lines(&tmp.join(format!("{name}.out")), HEADER, count, LIMIT);
    child
}

/// Sends `signal` to the run's process group, as a terminal does, and checks what is left.
fn interrupt(signal: i32, code: i32) {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    let mut child = started(tmp, "run", 3);
    let servers_before = entries(&tmp.join("home/.servers"), "").len();
    let at = Instant::now();
    signal_group(&child, signal);
    let status = wait_bounded(&mut child, LIMIT);
    let took = at.elapsed();
    let stderr = std::fs::read_to_string(tmp.join("run.err")).unwrap();
    let report = std::fs::read_to_string(tmp.join("run.out")).unwrap();
    assert_eq!(status.code(), Some(code), "{stderr}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    // Valgrind processes die with the harness's group kill; their parent reaps them at once.
    let left = processes_mentioning(&tmp.to_string_lossy());
    assert!(left.is_empty(), "left running: {left:?}");
    assert!(!tmp.join("home/.servers").exists());
    assert!(entries(&tmp.join("tmp"), "benchgrind-sandbox-").is_empty());
    let reported = reported_have_files(&tmp.join("home"), &report);
    assert!((3..1000).contains(&reported), "{reported}");
    let not_run: usize = stderr
        .lines()
        .find_map(|l| l.split("; ").last()?.strip_suffix(" not run")?.parse().ok())
        .unwrap_or_else(|| panic!("no count of benchmarks not run in {stderr}"));
    assert_eq!(reported + not_run, 1000, "{stderr}");
    assert!(
        stderr.contains("not run: e2e_many::many_group::cheap::n_"),
        "{stderr}"
    );
    eprintln!(
        "signal {signal}: exit {code} {took:?} after it; {servers_before} server directories \
         before, none after; {reported} measured, {not_run} not run"
    );
}

#[test]
fn ctrl_c_stops_at_once_and_leaves_nothing_behind() {
    interrupt(libc::SIGINT, 130);
}

#[test]
fn sigterm_stops_at_once_and_leaves_nothing_behind() {
    interrupt(libc::SIGTERM, 143);
}

#[test]
fn the_run_after_a_sigkill_removes_what_it_left() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    let mut child = started(tmp, "killed", 3);
    // The harness alone, as the OOM killer would: its servers are left without it.
    // SAFETY: kill(2) on a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    let servers = entries(&tmp.join("home/.servers"), "");
    assert!(
        !servers.is_empty(),
        "the killed run left no server directory"
    );
    // A sandbox of a process that is gone, as a killed run with binary benchmarks leaves.
    let sandbox = tmp.join("tmp/benchgrind-sandbox-999999999-0-000000001");
    std::fs::create_dir_all(sandbox.join("fixture")).unwrap();
    // Servers see their stdin close and end.
    let start = Instant::now();
    while !processes_mentioning(&tmp.to_string_lossy()).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "servers outlive the harness"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "SIGKILL: {} server directories and 1 sandbox left; the servers ended {:?} after",
        servers.len(),
        start.elapsed()
    );
    let args = vec![
        format!("--home={}", tmp.join("home").display()),
        "cheap::n_99".into(),
    ];
    let mut next = spawn(MANY, &args, tmp, &tmp.join("tmp"), "next");
    let status = wait_bounded(&mut next, LIMIT);
    let stderr = std::fs::read_to_string(tmp.join("next.err")).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    // The servers', the sandbox and the killed run's home for its measured processes.
    assert!(
        stderr.contains(&format!("removed {} directories", servers.len() + 2)),
        "{stderr}"
    );
    assert!(!tmp.join("home/.servers").exists());
    assert!(!sandbox.exists());
    assert_eq!(entries(&tmp.join("tmp"), ""), Vec::<PathBuf>::new());
    let report = std::fs::read_to_string(tmp.join("next.out")).unwrap();
    // n_99 and n_990 to n_999.
    assert_eq!(reported_have_files(&tmp.join("home"), &report), 11);
}

#[test]
fn ctrl_c_stops_a_binary_benchmark_its_setup_and_removes_its_sandbox() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    std::fs::create_dir_all(tmp.join("tmp")).unwrap();
    let args = vec![format!("--home={}", tmp.join("home").display())];
    let mut child = spawn(SLOW_BIN, &args, tmp, &tmp.join("tmp"), "bin");
    // Running: the sandbox exists and Valgrind and the setup beside it run in it.
    let start = Instant::now();
    while processes_mentioning(&tmp.join("tmp").to_string_lossy()).len() < 2 {
        assert!(start.elapsed() < LIMIT, "the benchmark never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let sandboxes = entries(&tmp.join("tmp"), "benchgrind-sandbox-");
    let running = processes_mentioning(&tmp.to_string_lossy());
    assert_eq!(sandboxes.len(), 1);
    let at = Instant::now();
    signal_group(&child, libc::SIGINT);
    let status = wait_bounded(&mut child, LIMIT);
    let took = at.elapsed();
    let stderr = std::fs::read_to_string(tmp.join("bin.err")).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    let left = processes_mentioning(&tmp.to_string_lossy());
    assert!(left.is_empty(), "left running: {left:?}");
    assert!(entries(&tmp.join("tmp"), "benchgrind-sandbox-").is_empty());
    assert!(
        stderr.contains("not run: e2e_slow_bin::slow_group::slow::fed"),
        "{stderr}"
    );
    eprintln!(
        "binary benchmark: {} processes and 1 sandbox before SIGINT, none after; exit 130 {took:?} \
         after it",
        running.len()
    );
}
