//! Library benchmarks end to end: the `e2e_lib` program under real Valgrind.

mod common;

use std::path::Path;
use std::process::Command;

use common::{blocks, run, stdout, Block};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_lib");
const DRAW: &str = env!("CARGO_BIN_EXE_e2e_draw");

const HEADERS: [&str; 8] = [
    "e2e_lib::fib_group::bench_fibonacci short:10",
    "e2e_lib::fib_group::bench_fibonacci medium:15",
    "e2e_lib::fib_group::bench_panics boom:7",
    "e2e_lib::fib_group::bench_sort sort_0:make_vec(100)",
    "e2e_lib::fib_group::bench_sort sort_1:make_vec(1000)",
    "e2e_lib::fib_group::empty",
    "e2e_lib::env_group::env_reader env_size:()",
    "e2e_lib::env_group::reads_stdin_and_prints",
];

fn bench_dir(home: &Path, group: &str, leaf: &str) -> std::path::PathBuf {
    home.join("benchgrind-e2e/e2e_lib").join(group).join(leaf)
}

fn check_invariants(block: &Block) {
    let (l1, ll, ram) = (
        block.get("L1 Hits"),
        block.get("L2 Hits"),
        block.get("RAM Hits"),
    );
    assert_eq!(
        block.get("Total read+write"),
        l1 + ll + ram,
        "{}",
        block.header
    );
    assert_eq!(
        block.get("Estimated Cycles"),
        l1 + 5 * ll + 35 * ram,
        "{}",
        block.header
    );
}

#[test]
fn a_panicking_benchmark_fails_alone_and_a_second_run_shows_no_change() {
    let home = tempfile::tempdir().unwrap();
    let marker = std::env::temp_dir().join("benchgrind-e2e-group-setup");
    let _ = std::fs::remove_file(&marker);
    let home_arg = format!("--home={}", home.path().display());

    let first = run(BIN, &[&home_arg], home.path(), &[]);
    let report = stdout(&first);
    assert_eq!(first.status.code(), Some(1), "{report}");
    let first_blocks = blocks(&report);
    let headers: Vec<&str> = first_blocks.iter().map(|b| b.header.as_str()).collect();
    assert_eq!(headers, HEADERS, "{report}");

    let failed = &first_blocks[2];
    let reason = failed
        .failed
        .as_deref()
        .expect("the panicking bench is reported as failed");
    assert!(
        reason.contains("panicked: the benchmark fell over at 7"),
        "{reason}"
    );
    assert!(failed.metrics.is_empty());
    assert!(
        report.contains("FAILED e2e_lib::fib_group::bench_panics::boom: panicked"),
        "{report}"
    );
    assert!(report.contains("8 benchmarks in"), "{report}");
    assert!(report.contains("7 measured, 1 failed"), "{report}");
    // What a benchmark prints goes to its capture file, never into the report or the fork
    // server's answers; its stdin is empty.
    assert!(!report.contains("read 0 bytes"), "{report}");
    let capture =
        bench_dir(home.path(), "env_group", "reads_stdin_and_prints").join("capture.stdout");
    assert_eq!(
        std::fs::read_to_string(capture).unwrap(),
        "read 0 bytes from stdin\n"
    );
    let log = bench_dir(home.path(), "fib_group", "bench_panics.boom").join("callgrind.log.new");
    assert!(report.contains(&log.display().to_string()), "{report}");
    assert!(log.is_file(), "the failed run's log is kept");
    assert!(marker.is_file(), "the group setup ran");

    for block in first_blocks.iter().filter(|b| b.failed.is_none()) {
        check_invariants(block);
        for (label, _, old, change) in &block.metrics {
            assert_eq!(
                (old.as_str(), change.as_str()),
                ("N/A", "(*********)"),
                "{label}"
            );
        }
    }
    assert!(
        first_blocks[5].get("Instructions") <= 2,
        "empty body: {:?}",
        first_blocks[5]
    );

    let second = run(BIN, &[&home_arg], home.path(), &[]);
    let report = stdout(&second);
    assert_eq!(second.status.code(), Some(1), "{report}");
    for block in blocks(&report).iter().filter(|b| b.failed.is_none()) {
        check_invariants(block);
        for (label, new, old, change) in &block.metrics {
            assert_eq!(change, "(No change)", "{} {label}", block.header);
            assert_eq!(old, &new.to_string());
        }
    }

    let fib = bench_dir(home.path(), "fib_group", "bench_fibonacci.short");
    for file in [
        "callgrind.out",
        "callgrind.out.old",
        "callgrind.log",
        "callgrind.log.old",
    ] {
        assert!(fib.join(file).is_file(), "{file} is missing");
    }
    assert!(!fib.join("callgrind.out.new").exists());
    let failed_dir = bench_dir(home.path(), "fib_group", "bench_panics.boom");
    assert!(
        !failed_dir.join("callgrind.out").exists(),
        "a failed run stores no profile"
    );

    // The profile is plain Callgrind format: callgrind_annotate reads it.
    let annotate = Command::new("callgrind_annotate")
        .arg(fib.join("callgrind.out"))
        .output()
        .expect("callgrind_annotate runs");
    assert!(
        annotate.status.success(),
        "{}",
        String::from_utf8_lossy(&annotate.stderr)
    );
    assert!(String::from_utf8_lossy(&annotate.stdout).contains("fibonacci"));
}

/// All metrics of every benchmark but the one that reads the environment on purpose.
fn counts(report: &str) -> Vec<(String, Vec<(String, u64)>)> {
    blocks(report)
        .into_iter()
        .filter(|b| b.failed.is_none() && !b.header.contains("env_reader"))
        .map(|b| {
            (
                b.header,
                b.metrics.into_iter().map(|m| (m.0, m.1)).collect(),
            )
        })
        .collect()
}

#[test]
fn counts_do_not_depend_on_directory_environment_or_load() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let cwd_a = tempfile::tempdir().unwrap();
    let cwd_b = tempfile::tempdir().unwrap();
    let nested = cwd_b.path().join("some/deeper/directory");
    std::fs::create_dir_all(&nested).unwrap();

    let plain = run(BIN, &[&home_arg], cwd_a.path(), &[]);
    let big = "x".repeat(5000);
    let with_env = run(
        BIN,
        &[&home_arg],
        &nested,
        &[
            ("SOME_VARIABLE", big.as_str()),
            ("ANOTHER", "1"),
            ("LANG", "C"),
        ],
    );
    // The other core busy with a spinning process while the third run measures.
    let mut busy = Command::new("sh")
        .args(["-c", "while :; do :; done"])
        .spawn()
        .unwrap();
    let loaded = run(BIN, &[&home_arg], home.path(), &[]);
    busy.kill().unwrap();
    busy.wait().unwrap();

    let reference = counts(&stdout(&plain));
    assert_eq!(reference.len(), 6, "{}", stdout(&plain));
    assert_eq!(counts(&stdout(&with_env)), reference);
    assert_eq!(counts(&stdout(&loaded)), reference);
}

#[test]
fn env_clear_false_passes_the_environment_through() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let filter = "env_reader";
    let instructions = |envs: &[(&str, &str)]| {
        let out = run(BIN, &[&home_arg, filter], home.path(), envs);
        let b = blocks(&stdout(&out));
        assert_eq!(b.len(), 1, "{}", stdout(&out));
        b[0].get("Instructions")
    };
    let few = instructions(&[]);
    let more = instructions(&[("E1", "1"), ("E2", "2"), ("E3", "3"), ("E4", "4")]);
    assert!(
        more > few,
        "four more variables must cost more: {few} vs {more}"
    );
}

#[test]
fn the_measured_window_holds_only_the_benchmark_function() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let out = run(
        BIN,
        &[&home_arg, "bench_fibonacci::short"],
        home.path(),
        &[],
    );
    let total = blocks(&stdout(&out))[0].get("Instructions");
    let profile =
        bench_dir(home.path(), "fib_group", "bench_fibonacci.short").join("callgrind.out");
    let text = std::fs::read_to_string(&profile).unwrap();
    // Every cost line of the benchmark function's section: its own instructions and, after
    // each `calls=` line, the inclusive cost of the call (Callgrind's format).
    let mut names = std::collections::HashMap::new();
    let mut current = String::new();
    let (mut inclusive, mut in_calls) = (0, 0);
    let mut after_calls = false;
    for line in text.lines() {
        // Names in full (`fn=name`), or compressed: `fn=(4) name` the first time, `(4)` after.
        let named = line.strip_prefix("fn=").or(line.strip_prefix("cfn="));
        if let Some(rest) = named {
            let compressed = rest.starts_with('(') && rest[1..].starts_with(char::is_numeric);
            let (id, name) = match rest.split_once(' ') {
                Some((id, name)) if compressed => (id, name),
                None if compressed => (rest, ""),
                _ => (rest, rest),
            };
            if !name.is_empty() {
                names.insert(id.to_owned(), name.to_owned());
            }
            if line.starts_with("fn=") {
                current = names[id].clone();
            }
        } else if line.starts_with("calls=") {
            after_calls = true;
        } else if current == "e2e_lib::bench_fibonacci"
            && line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c))
        {
            let ir: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            inclusive += ir;
            if after_calls {
                in_calls += ir;
                after_calls = false;
            }
        }
    }
    // The window is the function: everything counted is in it or what it calls, and besides
    // its calls of `fibonacci` it holds only its own few instructions (the `black_box`es and
    // the window's closing jump), no argument moves or harness code.
    assert_eq!(total, inclusive, "{text}");
    assert!(
        in_calls > 2000 && total - in_calls <= 8,
        "{total} vs {in_calls}:\n{text}"
    );
}

#[test]
fn without_valgrind_one_message_with_the_install_hint_and_no_benchmark_runs() {
    let home = tempfile::tempdir().unwrap();
    let out = common::bench(BIN)
        .arg(format!("--home={}", home.path().display()))
        .env_clear()
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("needs Valgrind 3.16 or newer"), "{stderr}");
    assert!(stderr.contains("apt-get install valgrind"), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert!(!stdout(&out).contains("e2e_lib::"), "no benchmark may run");
}

#[test]
fn usage_errors_exit_2_and_list_and_filters_select() {
    let home = tempfile::tempdir().unwrap();
    let out = run(BIN, &["--no-such-flag"], home.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown flag --no-such-flag"));
    // A mistyped flag: three lines that name the flag meant, not the whole help.
    let out = run(BIN, &["--save-basline=main"], home.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "benchgrind: error: unknown flag --save-basline=main\n  \
         a similar flag exists: --save-baseline\n  see the flags with --help\n"
    );
    assert!(out.stdout.is_empty());

    let out = run(BIN, &["--list", "--bench"], home.path(), &[]);
    assert_eq!(out.status.code(), Some(0));
    let listed: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(listed.len(), 8, "{listed:?}");
    assert_eq!(
        listed[0],
        "e2e_lib::fib_group::bench_fibonacci::short: benchmark"
    );

    let out = run(BIN, &["--list", "*::bench_sort::*"], home.path(), &[]);
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    let out = run(BIN, &["nothing-matches-this"], home.path(), &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("no benchmark"));
    // Filters that select nothing fail the run under --no-match=fail or its variable (a CI job
    // with a mistyped filter), and pass in silence under pass.
    let failed = run(
        BIN,
        &["--no-match=fail", "nothing-matches-this"],
        home.path(),
        &[],
    );
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&failed.stderr).contains(
            "benchgrind: error: no benchmark of e2e_lib matches the filter \
             (`nothing-matches-this`); --list shows the benchmarks"
        ),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
    let by_variable = run(
        BIN,
        &["--skip=e2e_lib"],
        home.path(),
        &[("BENCHGRIND_NO_MATCH", "fail")],
    );
    assert_eq!(by_variable.status.code(), Some(1));
    let quiet = run(BIN, &["--no-match=pass", "nothing"], home.path(), &[]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
    // A filter that selects something is not touched by it.
    let listed = run(
        BIN,
        &["--no-match=fail", "--list", "short"],
        home.path(),
        &[],
    );
    assert_eq!(listed.status.code(), Some(0));
}

/// A `--toggle-collect` whose pattern names no function of the program changes nothing: it is
/// noted under the benchmark (lambdaworks-crypto 0.13.0's `iai_merkle` joins two patterns with a
/// comma, which Callgrind reads as one); one that matches is not.
#[test]
fn a_toggle_collect_that_matches_no_function_is_noted() {
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());
    let out = run(
        BIN,
        &[
            &h,
            "--callgrind-args=--toggle-collect=util::*,core::mem::drop \
             --toggle-collect=*fibonacci*",
            "bench_fibonacci::short",
        ],
        home.path(),
        &[],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains(
            "  Warning: --toggle-collect=util::*,core::mem::drop matches no function of the \
             measured program, so it changed nothing: Callgrind takes one pattern per \
             --toggle-collect"
        ),
        "{report}"
    );
    assert!(!report.contains("--toggle-collect=*fibonacci*"), "{report}");
    // A mistyped name, alone.
    let out = run(
        BIN,
        &[
            &h,
            "--callgrind-args=--toggle-collect=*fibonaci*",
            "bench_fibonacci::short",
        ],
        home.path(),
        &[],
    );
    let report = stdout(&out);
    assert!(
        report.contains("--toggle-collect=*fibonaci* matches no function"),
        "{report}"
    );
}

/// Issue 55: a shared library's function first called inside the window costs its call, not
/// the dynamic loader's lookup of its symbol (`_dl_runtime_resolve` and `_dl_fixup`, which run
/// on the first call through a lazily bound entry). A thread's first start is such a call
/// (glibc asks the dynamic loader for the thread's storage). The same benchmark with lazy
/// binding asked for (`LD_BIND_NOW` empty) shows that the profile would show the lookup, and
/// the benchmark itself fails if it sees the harness's `LD_BIND_NOW`.
#[test]
fn no_symbol_is_bound_lazily_inside_the_window() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let out = run(DRAW, &[&home_arg, "first_thread"], home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let profile = |group: &str| {
        let path = home
            .path()
            .join("benchgrind-e2e/e2e_draw")
            .join(group)
            .join("first_thread/callgrind.out");
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let lazy_lookup =
        |text: &str| text.contains("_dl_runtime_resolve") || text.contains("_dl_fixup");
    assert!(!lazy_lookup(&profile("first_call")), "{report}");
    assert!(lazy_lookup(&profile("first_call_lazy")), "{report}");
    let count = |group: &str| {
        blocks(&report)
            .into_iter()
            .find(|b| b.header.contains(&format!("::{group}::first_thread")))
            .unwrap_or_else(|| panic!("{group}: {report}"))
            .get("Instructions")
    };
    let (bound, lazy) = (count("first_call"), count("first_call_lazy"));
    println!("a first thread: {bound} instructions bound at the start, {lazy} bound lazily");
    assert!(bound < lazy, "{report}");
}

/// Issue 55: the heap at the window's start is the benchmark's own. A short string's allocation
/// counts the same whether or not the setup freed a block of its size before the window (224
/// against 90 instructions before the harness warmed the allocator's caches).
#[test]
fn a_short_strings_allocation_counts_the_same_whatever_the_setup_freed() {
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let out = run(DRAW, &[&home_arg, "short_string"], home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let count = |id: &str| {
        blocks(&report)
            .into_iter()
            .find(|b| b.header.contains(&format!("short_string {id}")))
            .unwrap_or_else(|| panic!("{id}: {report}"))
            .get("Instructions")
    };
    let (nothing, one) = (count("nothing_freed"), count("one_freed"));
    println!("String::from: {nothing} instructions with nothing freed before, {one} after a free");
    assert_eq!(nothing, one, "{report}");
}
