//! The whole pipeline of a bench binary without Valgrind: the harness (`harness::run_with`)
//! parses the command line, plans, runs the jobs on parallel workers with the canned executor
//! (`BENCHGRIND_CANNED`), which copies profiles real Callgrind runs wrote (`tests/fixtures`),
//! compares with the previous run or a baseline, reports and decides the exit code.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use benchgrind_runner::harness::{exit, run_with};
use benchgrind_runner::spec::{Function, Group, LibBench, Main};

const FIB10: &str = "fib10.cache-sim.callgrind.out"; // Ir 2658
const FIB15: &str = "fib15.instr-branch.callgrind.out"; // Ir 29598
const MEMCHECK_LOG: &str = "read_uninit.memcheck.log"; // 1 error in 1 context

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn never_runs() {
    panic!("the canned executor runs no benchmark code");
}

fn bench(id: &'static str) -> LibBench {
    LibBench {
        id: Some(id),
        args: "",
        config: None,
        run: never_runs,
        iter: None,
    }
}

fn group(name: &'static str, functions: Vec<Function>) -> Group {
    Group {
        name,
        config: None,
        compare_by_id: false,
        max_parallel: None,
        setup: None,
        teardown: None,
        functions,
    }
}

fn function(name: &'static str, ids: &[&'static str]) -> Function {
    Function {
        name,
        path: "pipeline::function",
        config: None,
        benches: ids.iter().map(|id| bench(id)).collect(),
    }
}

fn main_of(groups: Vec<Group>) -> Main {
    Main {
        package: "pkg",
        bench_file: "pipeline",
        manifest_dir: env!("CARGO_MANIFEST_DIR"),
        workspace_root: env!("CARGO_MANIFEST_DIR"),
        config: None,
        groups,
        binary_config: None,
        binary_groups: Vec::new(),
        setup: None,
        teardown: None,
    }
}

/// A home for the output files and a directory of canned files.
struct Run {
    home: tempfile::TempDir,
    canned: tempfile::TempDir,
}

impl Run {
    fn new() -> Run {
        Run {
            home: tempfile::tempdir().unwrap(),
            canned: tempfile::tempdir().unwrap(),
        }
    }

    /// Cans `fixture` as `name` (`default.callgrind.out`, `f.b.fail`, ...).
    fn can(&self, name: &str, fixture_name: &str) -> &Run {
        std::fs::copy(fixture(fixture_name), self.canned.path().join(name)).unwrap();
        self
    }

    /// Cans a text as `name`.
    fn can_text(&self, name: &str, text: &str) -> &Run {
        std::fs::write(self.canned.path().join(name), text).unwrap();
        self
    }

    fn uncan(&self, name: &str) {
        std::fs::remove_file(self.canned.path().join(name)).unwrap();
    }

    /// Runs the harness with `args` (and `--bench --home=...`); exit code and stdout.
    fn run(&self, main: &Main, args: &[&str]) -> (i32, String) {
        let mut all: Vec<OsString> = vec!["--bench".into()];
        all.push(format!("--home={}", self.home.path().display()).into());
        all.extend(args.iter().map(OsString::from));
        let env: HashMap<&str, String> = [(
            "BENCHGRIND_CANNED",
            self.canned.path().display().to_string(),
        )]
        .into();
        let mut out = Vec::new();
        let code = run_with(main, &all, &|k| env.get(k).cloned(), &mut out);
        (code, String::from_utf8(out).unwrap())
    }

    fn bench_dir(&self, group: &str, leaf: &str) -> PathBuf {
        self.home.path().join("pkg/pipeline").join(group).join(leaf)
    }
}

/// The benchmark headers of a terminal report, in order.
fn headers(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.starts_with("pipeline::"))
        .collect()
}

#[test]
fn parallel_workers_report_in_plan_order_and_a_rerun_compares_with_the_first() {
    let ids: Vec<&'static str> = vec!["a", "b", "c", "d", "e", "f", "g", "h"];
    let main = main_of(vec![group(
        "g",
        vec![function("one", &ids), function("two", &ids)],
    )]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let (code, report) = run.run(&main, &["--jobs=4"]);
    assert_eq!(code, exit::OK, "{report}");
    let expected: Vec<String> = ["one", "two"]
        .iter()
        .flat_map(|f| ids.iter().map(move |id| format!("pipeline::g::{f} {id}")))
        .collect();
    assert_eq!(headers(&report), expected, "{report}");
    assert!(report.contains("16 benchmarks"), "{report}");
    assert!(
        report.contains("16 measured, 0 failed, 0 regressed"),
        "{report}"
    );
    assert!(report.contains("2658"), "{report}");
    let dir = run.bench_dir("g", "two.h");
    assert!(dir.join("callgrind.out").exists());
    assert!(!dir.join("callgrind.out.new").exists());

    // The second run finds the first as the previous run: the same numbers, no change.
    let (code, report) = run.run(&main, &["--jobs=3", "two"]);
    assert_eq!(code, exit::OK, "{report}");
    assert_eq!(headers(&report).len(), 8, "{report}");
    assert!(report.contains("No change"), "{report}");
    assert!(dir.join("callgrind.out.old").exists());
}

#[test]
fn a_failing_benchmark_is_reported_and_the_run_goes_on_with_exit_1() {
    let main = main_of(vec![group(
        "g",
        vec![function("f", &["ok", "bad", "late"])],
    )]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10)
        .can_text("f.bad.fail", "panicked: boom (at benches/x.rs:1:1)");
    let (code, report) = run.run(&main, &["--jobs=2"]);
    assert_eq!(code, exit::ERROR, "{report}");
    assert!(report.contains("FAILED: panicked: boom"), "{report}");
    assert!(
        report.contains("2 measured, 1 failed"),
        "the others still run: {report}"
    );
    assert!(report.contains("FAILED pipeline::g::f::bad: panicked: boom"));
    // A failed run leaves no profile behind.
    assert!(!run.bench_dir("g", "f.bad").join("callgrind.out").exists());

    // No canned profile at all: the executor's error is the benchmark's failure.
    run.uncan("default.callgrind.out");
    let (code, report) = run.run(&main, &["ok"]);
    assert_eq!(code, exit::ERROR, "{report}");
    assert!(report.contains("no canned callgrind.out"), "{report}");
}

#[test]
fn a_passed_limit_exits_3_and_fail_fast_leaves_the_rest_out() {
    let main = main_of(vec![group("g", vec![function("f", &["a", "b", "c", "d"])])]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    assert_eq!(run.run(&main, &[]).0, exit::OK);
    run.can("default.callgrind.out", FIB15);
    let (code, report) = run.run(&main, &["--regression=ir=5%"]);
    assert_eq!(code, exit::REGRESSION, "{report}");
    assert!(
        report.contains("Performance has regressed: Instructions (2658 -> 29598)"),
        "{report}"
    );
    assert!(report.contains("4 regressed"), "{report}");

    // One worker and fail-fast: the first regression stops the run. The benchmark the worker
    // started while the first was being reported still finishes and is reported.
    run.can("default.callgrind.out", FIB10);
    run.run(&main, &[]);
    // Without recorded durations the worker starts them in plan order (else longest first).
    for id in ["a", "b", "c", "d"] {
        std::fs::remove_file(run.bench_dir("g", &format!("f.{id}")).join("duration")).unwrap();
    }
    run.can("default.callgrind.out", FIB15)
        .can_text("default.seconds", "0.05");
    let (code, report) = run.run(
        &main,
        &["--jobs=1", "--regression=ir=5%", "--regression-fail-fast"],
    );
    assert_eq!(code, exit::REGRESSION, "{report}");
    let tally = report.lines().find(|l| l.contains("not run (fail fast)"));
    let tally = tally.unwrap_or_else(|| panic!("{report}"));
    let regressed = headers(&report).len();
    assert!((1..4).contains(&regressed), "{report}");
    assert!(
        tally.ends_with(&format!(
            "{regressed} regressed, {} not run (fail fast)",
            4 - regressed
        )),
        "{report}"
    );
}

#[test]
fn usage_errors_exit_2_before_anything_runs() {
    let main = main_of(vec![group("g", vec![function("f", &["a"])])]);
    let run = Run::new();
    for args in [
        &["--jobs=0"][..],
        &["--frobnicate"],
        &["--regression=ir=lots"],
    ] {
        let (code, report) = run.run(&main, args);
        assert_eq!(code, exit::USAGE, "{args:?}");
        assert!(report.is_empty(), "{report}");
    }
    assert!(!run.bench_dir("g", "f.a").exists(), "nothing ran");
    let (code, report) = run.run(&main, &["--help"]);
    assert_eq!(code, exit::OK);
    assert!(report.contains("[env: BENCHGRIND_JOBS]"), "{report}");
}

#[test]
fn plan_errors_exit_1_and_filters_select() {
    let main = main_of(vec![
        group("g", vec![function("f", &["a"])]),
        group("g", vec![function("h", &["a"])]),
    ]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let (code, report) = run.run(&main, &[]);
    assert_eq!(code, exit::ERROR, "the group is given twice: {report}");

    let main = main_of(vec![group(
        "g",
        vec![function("f", &["a", "b"]), function("h", &["a"])],
    )]);
    let (code, report) = run.run(&main, &["--list"]);
    assert_eq!(code, exit::OK);
    assert_eq!(
        report,
        "pipeline::g::f::a: benchmark\npipeline::g::f::b: benchmark\npipeline::g::h::a: benchmark\n"
    );
    let (code, report) = run.run(&main, &["--skip=b", "*::f::*"]);
    assert_eq!(code, exit::OK);
    assert_eq!(headers(&report), ["pipeline::g::f a"], "{report}");
    let (code, report) = run.run(&main, &["nothing-matches"]);
    assert_eq!(code, exit::OK);
    assert!(
        report.contains("no benchmark of pipeline matches"),
        "{report}"
    );
}

fn three_items() -> usize {
    3
}

#[test]
fn an_iter_bench_is_one_bench_per_item_and_a_clashing_id_is_a_plan_error() {
    let mut f = function("f", &["plain"]);
    f.benches.insert(
        0,
        LibBench {
            iter: Some(three_items),
            ..bench("many")
        },
    );
    let main = main_of(vec![group("g", vec![f])]);
    let run = Run::new();
    let (code, report) = run.run(&main, &["--list"]);
    assert_eq!(code, exit::OK, "{report}");
    assert_eq!(
        report,
        "pipeline::g::f::many_0: benchmark\npipeline::g::f::many_1: benchmark\n\
         pipeline::g::f::many_2: benchmark\npipeline::g::f::plain: benchmark\n"
    );

    let mut f = function("f", &["many_1"]);
    f.benches.push(LibBench {
        iter: Some(three_items),
        ..bench("many")
    });
    let main = main_of(vec![group("g", vec![f])]);
    // The error itself goes to stderr, which `run` does not capture.
    let (code, report) = run.run(&main, &["--list"]);
    assert_eq!(code, exit::ERROR, "{report}");
}

#[test]
fn baselines_are_saved_loaded_and_missing_ones_fail() {
    let main = main_of(vec![group("g", vec![function("f", &["a"])])]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    assert_eq!(run.run(&main, &["--save-baseline=before"]).0, exit::OK);
    run.can("default.callgrind.out", FIB15);
    assert_eq!(run.run(&main, &["--save-baseline=after"]).0, exit::OK);
    // Comparing two saved baselines runs nothing: even without canned profiles.
    run.uncan("default.callgrind.out");
    let (code, report) = run.run(
        &main,
        &[
            "--load-baseline=after",
            "--baseline=before",
            "--regression=ir=5%",
        ],
    );
    assert_eq!(code, exit::REGRESSION, "{report}");
    assert!(report.contains("after|before"), "{report}");
    let (code, report) = run.run(&main, &["--load-baseline=none", "--baseline=before"]);
    assert_eq!(code, exit::ERROR, "{report}");
    assert!(report.contains("there is no baseline `none`"), "{report}");
}

static SETUPS: AtomicUsize = AtomicUsize::new(0);
static TEARDOWNS: AtomicUsize = AtomicUsize::new(0);

fn count_setup() {
    SETUPS.fetch_add(1, Ordering::SeqCst);
}

fn count_teardown() {
    assert_eq!(SETUPS.load(Ordering::SeqCst), 1, "teardown after setup");
    TEARDOWNS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn group_hooks_run_once_around_their_group_and_json_lines_are_summaries() {
    let mut hooked = group("hooked", vec![function("f", &["a", "b"])]);
    hooked.setup = Some(count_setup);
    hooked.teardown = Some(count_teardown);
    let main = main_of(vec![group("plain", vec![function("f", &["a"])]), hooked]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let (code, report) = run.run(&main, &["--output-format=json", "--jobs=2"]);
    assert_eq!(code, exit::OK, "{report}");
    assert_eq!(
        (
            SETUPS.load(Ordering::SeqCst),
            TEARDOWNS.load(Ordering::SeqCst)
        ),
        (1, 1)
    );
    let lines: Vec<serde_json::Value> = report
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{report}");
    assert!(lines.iter().all(|l| l["version"].is_number()), "{report}");
}

#[test]
fn another_tools_errors_fail_the_benchmark_and_its_limits_exit_3() {
    let main = main_of(vec![group("g", vec![function("f", &["a"])])]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10)
        .can("default.memcheck.log", MEMCHECK_LOG);
    let (code, report) = run.run(&main, &["--tools=memcheck", "--regression=errors<=0"]);
    assert_eq!(code, exit::REGRESSION, "{report}");
    assert!(
        report.contains("Memcheck Errors is 1, past the hard limit of 0"),
        "{report}"
    );
    run.can_text("default.memcheck.fail", "exited with code 201");
    let (code, report) = run.run(&main, &["--tools=memcheck"]);
    assert_eq!(code, exit::ERROR, "{report}");
    assert!(
        report.contains("Memcheck found 1 error in 1 context (exited with code 201)"),
        "{report}"
    );
}

#[test]
fn nocapture_shows_a_benchmarks_output_under_its_own_header() {
    let main = main_of(vec![group("g", vec![function("f", &["a", "b"])])]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10)
        .can_text("f.b.stdout", "printed by b\n");
    let (_, report) = run.run(&main, &["--jobs=2"]);
    assert!(!report.contains("printed by b"), "captured: {report}");
    let (code, report) = run.run(&main, &["--jobs=2", "--nocapture=stdout"]);
    assert_eq!(code, exit::OK);
    let b = report.find("pipeline::g::f b").unwrap();
    assert!(report[b..].contains("printed by b"), "{report}");
    assert!(!report[..b].contains("printed by b"), "{report}");
}

static MAIN_SETUPS: AtomicUsize = AtomicUsize::new(0);
static MAIN_TEARDOWNS: AtomicUsize = AtomicUsize::new(0);

fn count_main_setup() {
    MAIN_SETUPS.fetch_add(1, Ordering::SeqCst);
}

fn count_main_teardown() {
    MAIN_TEARDOWNS.fetch_add(1, Ordering::SeqCst);
}

fn main_hooks() -> (usize, usize) {
    (
        MAIN_SETUPS.load(Ordering::SeqCst),
        MAIN_TEARDOWNS.load(Ordering::SeqCst),
    )
}

#[test]
fn main_setup_and_teardown_run_once_around_a_run_that_measures() {
    let mut main = main_of(vec![group("g", vec![function("f", &["a", "b"])])]);
    main.setup = Some(count_main_setup);
    main.teardown = Some(count_main_teardown);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let (code, report) = run.run(&main, &["--jobs=2", "--save-baseline=base"]);
    assert_eq!(code, exit::OK, "{report}");
    assert_eq!(main_hooks(), (1, 1));
    // `--load-baseline` measures nothing, so there is nothing to set up.
    let (code, report) = run.run(&main, &["--load-baseline=base", "--baseline=base"]);
    assert_eq!(code, exit::OK, "{report}");
    assert_eq!(main_hooks(), (1, 1));
}

#[test]
fn labels_are_iai_callgrinds_unless_benchgrinds_are_asked_for() {
    let main = main_of(vec![group("g", vec![function("f", &["a"])])]);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let (_, report) = run.run(&main, &[]);
    assert!(report.contains("\n  L2 Hits: "), "{report}");
    let (_, report) = run.run(&main, &["--labels=benchgrind"]);
    assert!(report.contains("\n  LL Hits: "), "{report}");
    assert!(!report.contains("L2 Hits"), "{report}");
}

#[test]
fn an_empty_bench_file_says_so_and_an_empty_selection_names_the_filter() {
    let run = Run::new();
    let (code, report) = run.run(&main_of(Vec::new()), &[]);
    assert_eq!(code, exit::OK);
    assert_eq!(report, "benchgrind: pipeline has no benchmarks\n");
    let main = main_of(vec![group("g", vec![function("f", &["a"])])]);
    let (code, report) = run.run(&main, &["nothing-is-called-this"]);
    assert_eq!(code, exit::OK);
    assert_eq!(
        report,
        "benchgrind: no benchmark of pipeline matches the filter\n"
    );
}

/// How often the profiles in `dir` (`callgrind.out`, `.new`, `.old`) were opened to be read
/// while `run` ran, as the kernel saw it (inotify's `IN_CLOSE_NOWRITE`): the library keeps no
/// count of its own.
#[cfg(target_os = "linux")]
fn profile_reads(dir: &Path, run: impl FnOnce()) -> usize {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).unwrap();
    // SAFETY: a new inotify descriptor, watching a path that lives for the call; closed below.
    let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
    assert!(fd >= 0, "inotify: {}", std::io::Error::last_os_error());
    // SAFETY: as above.
    let watch = unsafe { libc::inotify_add_watch(fd, path.as_ptr(), libc::IN_CLOSE_NOWRITE) };
    assert!(watch >= 0, "inotify: {}", std::io::Error::last_os_error());
    run();
    let (mut reads, mut events) = (0, [0u8; 1 << 16]);
    loop {
        // SAFETY: reads into a buffer of its length.
        let n = unsafe { libc::read(fd, events.as_mut_ptr().cast(), events.len()) };
        let Ok(n) = usize::try_from(n) else { break };
        // Each event: wd, mask, cookie, len (4 bytes each), then a name of `len` bytes.
        let mut at = 0;
        while at + 16 <= n {
            let len = u32::from_ne_bytes(events[at + 12..at + 16].try_into().unwrap()) as usize;
            let name = &events[at + 16..at + 16 + len];
            reads += usize::from(name.starts_with(b"callgrind.out"));
            at += 16 + len;
        }
    }
    // SAFETY: the descriptor opened above.
    unsafe { libc::close(fd) };
    reads
}

#[cfg(target_os = "linux")]
#[test]
fn each_profile_is_read_once_for_totals_explanation_and_flamegraphs() {
    use benchgrind_runner::{FlamegraphConfig, LibraryBenchmarkConfig};

    let mut config = LibraryBenchmarkConfig::default();
    config.flamegraph(FlamegraphConfig::default());
    let mut main = main_of(vec![group("g", vec![function("f", &["one"])])]);
    main.config = Some(config);
    let run = Run::new();
    run.can("default.callgrind.out", FIB10);
    let dir = run.bench_dir("g", "f.one");
    std::fs::create_dir_all(&dir).unwrap();
    // The first run: the new profile, once; nothing to compare with.
    let reads = profile_reads(&dir, || {
        let (code, report) = run.run(&main, &["--explain=always"]);
        assert_eq!(code, exit::OK, "{report}");
    });
    assert_eq!(reads, 1);
    // The second: the old profile once (totals, explanation, differential flamegraph) and the
    // new one once (totals, parts, explanation, flamegraphs).
    run.can("default.callgrind.out", FIB15);
    let reads = profile_reads(&dir, || {
        let (code, report) = run.run(&main, &["--explain=always"]);
        assert_eq!(code, exit::OK, "{report}");
        assert!(report.contains("Why "), "{report}");
    });
    assert!(dir.join("callgrind.Ir.diff.flamegraph.svg").exists());
    assert_eq!(reads, 2);
}
