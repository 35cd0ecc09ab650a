//! Every instruction a benchmark causes, counted, the same on every run (issue 25), under real
//! Valgrind: the same work on spawned threads, scoped threads, a rayon pool built in setup,
//! rayon's global pool and a tokio runtime counts within 2 % of the work done inline, five runs
//! in a row alike; the breakdown per thread and process on request; the processes a library
//! benchmark and a binary benchmark start; and the time limit.
//!
//! The exact repetition needs real-time scheduling ([`realtime`]); where it is not permitted
//! (not root), the test checks instead that threaded benchmarks say their counts may move. The
//! tests but the time-limit one run at once, each run's measured processes on the same
//! processors as the others': the counts repeat with that going on.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use benchgrind_runner::execute::realtime;
use common::{blocks, instructions_by_function, run, stdout};

const THREADS: &str = env!("CARGO_BIN_EXE_e2e_threads");
const PROCESSES: &str = env!("CARGO_BIN_EXE_e2e_processes");
const FORKER: &str = env!("CARGO_BIN_EXE_e2e_forker");
const HANG: &str = env!("CARGO_BIN_EXE_e2e_hang");
const HANG_BIN: &str = env!("CARGO_BIN_EXE_e2e_hang_bin");
const LONG: &str = env!("CARGO_BIN_EXE_e2e_long");
const CROWD: &str = env!("CARGO_BIN_EXE_e2e_crowd");
const STALL: &str = env!("CARGO_BIN_EXE_e2e_stall");

/// The time-limit test runs alone, the others at once with each other. Its benchmark spins on a
/// processor under `SCHED_FIFO` for 2 s, three times, and its other benchmarks must end within
/// their own 2 s limits: beside the other tests' benchmarks on the same processors, both would
/// take longer. (Counts would not move: the other tests, running at once, show that.)
static TIME_LIMITS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// A share of [`TIME_LIMITS`], for every test but the time-limit one.
fn beside_others() -> std::sync::RwLockReadGuard<'static, ()> {
    TIME_LIMITS
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether measured processes run under `SCHED_FIFO` here.
fn exact() -> bool {
    realtime::available()
}

/// Instructions per benchmark (its function name), and the report.
fn counts(
    bin: &str,
    home: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (BTreeMap<String, u64>, String) {
    let home_arg = format!("--home={}", home.display());
    let mut all = vec![home_arg.as_str()];
    all.extend_from_slice(args);
    let out = run(bin, &all, home, envs);
    let report = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (instructions_by_function(&report), report)
}

#[test]
fn work_on_threads_counts_as_the_same_work_inline_and_repeats() {
    let _shared = beside_others();
    let home = tempfile::tempdir().unwrap();
    let runs: Vec<(BTreeMap<String, u64>, String)> = (0..5)
        .map(|_| counts(THREADS, home.path(), &[], &[]))
        .collect();
    let (first, report) = &runs[0];
    let inline = first["inline"];
    for threaded in [
        "spawned",
        "scoped",
        "rayon_pool",
        "rayon_global",
        "tokio_tasks",
    ] {
        let n = first[threaded];
        let off = (n as f64 - inline as f64) / inline as f64 * 100.0;
        assert!(
            off.abs() <= 2.0,
            "{threaded}: {n} vs inline {inline} ({off:+.2}%)\n{report}"
        );
    }
    if exact() {
        for (again, report) in &runs[1..] {
            assert_eq!(again, first, "{report}");
            for line in report.lines().filter(|l| l.contains("Instructions:")) {
                assert!(line.contains("(No change)"), "{line}\n{report}");
            }
            assert!(!report.contains("without real-time scheduling"), "{report}");
        }
    } else {
        eprintln!("\n!!! real-time scheduling is not permitted here: exact repetition not checked");
        for block in blocks(report)
            .iter()
            .filter(|b| !b.header.contains("inline"))
        {
            if !block.header.contains("child_process") {
                assert!(report.contains("without real-time scheduling"), "{report}");
            }
        }
    }
}

#[test]
fn more_threads_at_once_than_the_default_slots_run_again_with_valgrinds_own_number() {
    let _shared = beside_others();
    let home = tempfile::tempdir().unwrap();
    // The default slots (64) are too few for 101 threads: the run is repeated with 500.
    let (first, report) = counts(CROWD, home.path(), &[], &[]);
    assert!(first["crowd"] > 100_000, "{report}");
    let (again, report) = counts(CROWD, home.path(), &[], &[]);
    assert!(report.contains("Instructions:"), "{report}");
    if exact() {
        assert_eq!(again, first, "{report}");
    }
    // A number the user gives stands: with too few slots the benchmark fails, saying what to do.
    let home_arg = format!("--home={}", home.path().display());
    let out = run(
        CROWD,
        &[&home_arg, "--valgrind-args=--max-threads=64"],
        home.path(),
        &[],
    );
    let report = stdout(&out) + &String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("more threads at once than Valgrind's --max-threads allows")
            && report.contains("--valgrind-args=--max-threads=N"),
        "{report}"
    );
}

#[test]
fn each_thread_and_process_is_shown_on_request_and_adds_up() {
    let _shared = beside_others();
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let filter = "e2e_threads::threads::spawned";
    let out = run(
        THREADS,
        &[&home_arg, "--separate-threads", filter],
        home.path(),
        &[],
    );
    let report = stdout(&out);
    assert!(
        report.contains("  ## thread 1\n") && report.contains("  ## thread 2\n"),
        "{report}"
    );
    let out = run(
        THREADS,
        &[
            &home_arg,
            "--separate-threads",
            "--output-format=json",
            filter,
        ],
        home.path(),
        &[],
    );
    let json: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    let parts = json["parts"].as_array().unwrap();
    assert!(parts.len() >= 2, "{json}");
    let ir = |v: &serde_json::Value| v["metrics"]["Ir"]["new"].as_u64().unwrap();
    let sum: u64 = parts.iter().map(ir).sum();
    assert_eq!(sum, ir(&json), "{json}");
    // The spawned threads did the work, the benchmark's own thread spawned and joined them.
    assert!(parts.iter().all(|p| p["process"] == 1), "{json}");
    assert!(ir(&parts[0]) * 10 < sum, "{json}");
    // Without the option, no breakdown.
    let out = run(
        THREADS,
        &[&home_arg, "--output-format=json", filter],
        home.path(),
        &[],
    );
    assert!(!stdout(&out).contains("\"parts\""));
}

#[test]
fn a_library_benchmark_counts_the_processes_it_starts() {
    let _shared = beside_others();
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let args = [
        home_arg.as_str(),
        "--separate-threads",
        "--output-format=json",
        "e2e_threads::threads::child_process",
    ];
    let out = run(THREADS, &args, home.path(), &[]);
    let json: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    let parts = json["parts"].as_array().unwrap();
    let seq = parts
        .iter()
        .find(|p| p["command"].as_str().unwrap().contains("seq 1 20000"))
        .unwrap_or_else(|| panic!("no part of seq in {json}"));
    assert_eq!(seq["process"], 2, "{json}");
    // `seq 1 20000` counts about 1.5 million instructions, from its start.
    assert!(
        seq["metrics"]["Ir"]["new"].as_u64().unwrap() > 1_000_000,
        "{json}"
    );
}

#[test]
fn a_binary_benchmark_counts_every_process_its_command_starts() {
    let _shared = beside_others();
    let home = tempfile::tempdir().unwrap();
    let (counts, report) = counts(
        PROCESSES,
        home.path(),
        &["--separate-threads"],
        &[("E2E_FORKER", FORKER)],
    );
    let block = |name: &str| {
        blocks(&report)
            .into_iter()
            .find(|b| b.header.contains(name))
            .unwrap_or_else(|| panic!("no {name} in {report}"))
    };
    let direct = block("seq direct:").get("Instructions");
    let shell = block("shell seq:").get("Instructions");
    // `sh -c 'seq 1 200000 >/dev/null'` counts the shell and seq.
    assert!(shell >= direct, "sh -c seq {shell}, seq {direct}\n{report}");
    assert!(counts.len() == 3 || counts.len() == 2, "{counts:?}");
    // A child that does not exec counts its own work only, not its parent's before the fork:
    // parent and child each sum 100,000 numbers.
    let forker = block("forker forks:");
    let processes: Vec<u64> = forker
        .metrics
        .iter()
        .filter(|m| m.0 == "Instructions")
        .map(|m| m.1)
        .collect();
    // Total, then process 1, then process 2.
    assert_eq!(processes.len(), 3, "{report}");
    assert_eq!(processes[1] + processes[2], processes[0], "{report}");
    let child = processes[2];
    assert!(
        (500_000..800_000).contains(&child),
        "child {child}\n{report}"
    );
}

#[test]
fn valgrind_args_on_the_command_line_come_last_for_every_tool() {
    let _shared = beside_others();
    // `--trace-children=no` after benchgrind's `--trace-children=yes`: the shell alone counts,
    // not the `seq` it starts, under Callgrind and under DHAT alike.
    let home = tempfile::tempdir().unwrap();
    let shell = |extra: &[&str]| {
        let mut args = vec!["processes::shell::seq", "--tools=dhat"];
        args.extend_from_slice(extra);
        let (counts, report) = counts(PROCESSES, home.path(), &args, &[("E2E_FORKER", FORKER)]);
        let dhat = blocks(&report)[0]
            .metrics
            .iter()
            .find(|m| m.0 == "Total bytes")
            .unwrap_or_else(|| panic!("no DHAT total in {report}"))
            .1;
        (counts["shell"], dhat)
    };
    let (traced, traced_bytes) = shell(&[]);
    let (alone, alone_bytes) = shell(&["--valgrind-args=--trace-children=no"]);
    // `sh -c true` counts about 180,000 instructions, seq 1 200000 about 14 million.
    assert!(
        alone < 1_000_000 && traced > 10_000_000,
        "{alone} vs {traced}"
    );
    assert!(
        alone_bytes < traced_bytes,
        "{alone_bytes} vs {traced_bytes} bytes"
    );
}

#[test]
fn a_benchmark_that_never_returns_is_killed_at_its_limit_and_the_others_run() {
    let _alone = TIME_LIMITS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let test_started = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
    for (bin, isolation) in [(HANG, "fork"), (HANG, "process"), (HANG_BIN, "process")] {
        let home = tempfile::tempdir().unwrap();
        let home_arg = format!("--home={}", home.path().display());
        let isolation = format!("--isolation={isolation}");
        let started = std::time::Instant::now();
        let out = run(
            bin,
            &[&home_arg, "--timeout=2", &isolation, "--jobs=1"],
            home.path(),
            &[],
        );
        let report = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{report}");
        assert!(
            report.contains("did not finish within its time limit of 2 s"),
            "{report}"
        );
        let found = blocks(&report);
        assert_eq!(found.len(), if bin == HANG { 3 } else { 2 }, "{report}");
        assert_eq!(
            found.iter().filter(|b| b.failed.is_some()).count(),
            1,
            "{report}"
        );
        // The benchmark after it was measured.
        assert!(found.last().unwrap().failed.is_none(), "{report}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{report}"
        );
    }
    // The killed processes left nothing in /tmp: no gdbserver, so none of Valgrind's pipes. A
    // file of a process that still runs is in use (another Valgrind on the machine); Valgrind
    // removes its files before it ends, so one whose process has ended was left.
    let left: Vec<_> = std::fs::read_dir("/tmp")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("vgdb-pipe"))
        .filter(|e| {
            let modified = e.metadata().and_then(|m| m.modified());
            modified.is_ok_and(|m| m >= test_started)
        })
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name.split('-').find(|part| part.parse::<u32>().is_ok());
            let ended = pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
            ended && e.path().exists()
        })
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// No wall-clock limit by default: with every limit there is cut to two seconds, a benchmark
/// that works for several times as long runs to its end, and only runs whose processes are all
/// asleep (a library benchmark and a command that sleep) are stopped, naming the stall limit;
/// the benchmarks after them run.
#[test]
fn without_a_timeout_only_a_run_that_makes_no_progress_is_stopped() {
    let _alone = TIME_LIMITS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for (bin, isolation) in [(LONG, "fork"), (LONG, "process"), (HANG_BIN, "process")] {
        let home = tempfile::tempdir().unwrap();
        let home_arg = format!("--home={}", home.path().display());
        let isolation = format!("--isolation={isolation}");
        let out = run(
            bin,
            &[&home_arg, "--stall-limit=2", &isolation, "--jobs=1"],
            home.path(),
            &[],
        );
        let report = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{report}");
        assert!(report.contains("made no progress for 2 s"), "{report}");
        let found = blocks(&report);
        let failed: Vec<_> = found.iter().filter(|b| b.failed.is_some()).collect();
        assert_eq!(failed.len(), 1, "{report}");
        assert!(
            failed[0].header.contains("sleeps") || failed[0].header.contains("forever"),
            "{report}"
        );
        assert!(found.last().unwrap().failed.is_none(), "{report}");
        if bin == LONG {
            // Several seconds of work, past every limit of a second: counted in full.
            let works = found.iter().find(|b| b.header.contains("works")).unwrap();
            assert!(works.get("Instructions") > 100_000_000, "{report}");
        }
    }
}

/// Keeps every processor this process may use busy until it is dropped (also when the test
/// panics): a thread spinning on each. On the first, where the measured processes of a run of
/// one job are placed, under `SCHED_FIFO` at the lowest priority where that is permitted, as
/// they run: 2 s of spinning, then 0.3 s of rest, so that a measured process that wakes while it
/// spins (the fork server given a request, or its child ended) waits up to 2 s for its
/// processor, as it does behind another run's long benchmark, while the harness watching it runs
/// on another processor. Elsewhere, and where `SCHED_FIFO` is not permitted, as any other
/// process, all the time.
struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    spinners: Vec<std::thread::JoinHandle<bool>>,
}

impl Load {
    fn start() -> Load {
        use std::sync::atomic::Ordering;
        use std::time::{Duration, Instant};
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let fifo = exact();
        let spinners = (realtime::allowed_cpus().into_iter().enumerate())
            .map(|(i, cpu)| {
                let stop = stop.clone();
                let fifo = fifo && i == 0;
                std::thread::spawn(move || {
                    // SAFETY: plain system calls on the calling thread, values on the stack.
                    let placed = unsafe {
                        let mut set: libc::cpu_set_t = std::mem::zeroed();
                        libc::CPU_SET(cpu, &mut set);
                        let size = std::mem::size_of::<libc::cpu_set_t>();
                        let mut param: libc::sched_param = std::mem::zeroed();
                        param.sched_priority = libc::sched_get_priority_min(libc::SCHED_FIFO);
                        libc::sched_setaffinity(0, size, &set) == 0
                            && (!fifo || libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0)
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let spun = Instant::now();
                        while spun.elapsed() < Duration::from_secs(2)
                            && !stop.load(Ordering::Relaxed)
                        {
                            std::hint::spin_loop();
                        }
                        if fifo {
                            std::thread::sleep(Duration::from_millis(300));
                        }
                    }
                    placed
                })
            })
            .collect();
        Load { stop, spinners }
    }

    /// Stops the spinners; whether each was placed on its processor.
    fn end(mut self) -> Vec<bool> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let spinners = self.spinners.drain(..);
        spinners.map(|s| s.join().unwrap_or(false)).collect()
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for spinner in self.spinners.drain(..) {
            let _ = spinner.join();
        }
    }
}

/// Each benchmark's metrics (label and value), by its header line.
fn metrics_by_header(report: &str) -> BTreeMap<String, Vec<(String, u64)>> {
    blocks(report)
        .into_iter()
        .filter(|b| b.failed.is_none())
        .map(|b| {
            let metrics = b.metrics.iter().map(|m| (m.0.clone(), m.1)).collect();
            (b.header, metrics)
        })
        .collect()
}

/// A stop is contained (issue 55): with a thread spinning on each processor (on the measured
/// processes' own under `SCHED_FIFO` where permitted, as they run: they then wait up to 2 s for
/// their processor whenever they wake; [`Load`]), a stall limit of 1 s stops the benchmark that sleeps, and only it: the
/// one that works before it progresses slowly and is measured, and the four after it, measured
/// by the fork server that replaced the stopped one, count exactly what they count without the
/// load and without the sleeping benchmark, in every metric. Before the stall limit counted
/// waiting for a processor as progress, the loaded run stopped benchmarks that were waiting.
#[test]
fn a_stall_under_load_stops_only_the_stalled_benchmark_and_the_next_count_as_without_it() {
    let _alone = TIME_LIMITS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let quiet = tempfile::tempdir().unwrap();
    let (_, reference) = counts(STALL, quiet.path(), &["--skip=sleeps", "--jobs=1"], &[]);
    let expected = metrics_by_header(&reference);
    assert_eq!(expected.len(), 5, "{reference}");
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let load = Load::start();
    let out = run(
        STALL,
        &[&home_arg, "--stall-limit=1", "--jobs=1"],
        home.path(),
        &[],
    );
    let placed = load.end();
    let report = stdout(&out);
    assert!(
        placed.iter().all(|&p| p),
        "a spinner was not placed: {placed:?}"
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("made no progress for 1 s"), "{report}");
    let found = blocks(&report);
    let failed: Vec<_> = found.iter().filter(|b| b.failed.is_some()).collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert!(failed[0].header.contains("sleeps"), "{report}");
    let measured = metrics_by_header(&report);
    let slow = (measured.iter()).find(|(header, _)| header.contains("slow"));
    let (_, slow) = slow.unwrap_or_else(|| panic!("{report}"));
    assert!(
        slow.iter()
            .any(|(label, n)| label == "Instructions" && *n > 40_000_000),
        "{report}"
    );
    for (header, metrics) in &expected {
        assert_eq!(
            measured.get(header),
            Some(metrics),
            "{header}\nloaded:\n{report}\nalone:\n{reference}"
        );
    }
}

#[test]
fn two_runs_at_once_keep_each_others_threaded_counts() {
    let _shared = beside_others();
    // Two bench binaries started together, each with a home of its own (so neither waits for the
    // other's lock), their measured processes on the same processors: five times.
    let start = |home: &Path| {
        common::bench(THREADS)
            .arg("--bench")
            .arg(format!("--home={}", home.display()))
            .current_dir(home)
            .env("BENCHGRIND_COLOR", "never")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut all: Vec<(BTreeMap<String, u64>, String)> = Vec::new();
    for _ in 0..5 {
        let homes = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let children: Vec<_> = homes.iter().map(|h| start(h.path())).collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let report = stdout(&out);
            assert_eq!(out.status.code(), Some(0), "{report}");
            let counts = instructions_by_function(&report);
            all.push((counts, report));
        }
    }
    if !exact() {
        eprintln!("\n!!! real-time scheduling is not permitted here: exact repetition not checked");
        return;
    }
    let (first, _) = &all[0];
    assert_eq!(first.len(), 7, "{}", all[0].1);
    for (again, report) in &all[1..] {
        assert_eq!(again, first, "{report}");
    }
}
