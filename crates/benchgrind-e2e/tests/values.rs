//! Code written for gungraun 0.19/0.20 behaves as there, under real Valgrind (`e2e_values`):
//! `default_tool`, `Callgrind::enable(false)`, the tool values' arguments, a library benchmark's
//! sandbox and working directory; and the command-line flags of iai-callgrind 0.15+ and gungraun
//! that benchgrind lacked, each run once and checked for its effect.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{blocks, run, stdout, Block};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_values");

fn bench_dir(home: &Path, leaf: &str) -> PathBuf {
    home.join("benchgrind-e2e/e2e_values/values").join(leaf)
}

/// Runs the program with `--home` and `args`; the output and its report.
fn values(home: &Path, args: &[&str], envs: &[(&str, &str)]) -> (Output, String) {
    let home_arg = format!("--home={}", home.display());
    let mut all = vec![home_arg.as_str()];
    all.extend_from_slice(args);
    let out = run(BIN, &all, home, envs);
    let report = stdout(&out);
    (out, report)
}

/// [`values`], which must exit with 0; the report.
fn ok(home: &Path, args: &[&str], envs: &[(&str, &str)]) -> String {
    let (out, report) = values(home, args, envs);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

fn only_block(report: &str) -> Block {
    let found = blocks(report);
    assert_eq!(found.len(), 1, "{report}");
    found.into_iter().next().unwrap()
}

/// Whether Valgrind wrote this log with `--time-stamp=yes` (`==00:00:00:00.123 4242== ...`).
fn time_stamped(log: &Path) -> bool {
    let text = std::fs::read_to_string(log)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", log.display()));
    text.lines().next().is_some_and(|l| l.starts_with("==00:"))
}

#[test]
fn dhat_as_the_default_tool_runs_alone_and_compares_with_the_previous_run_and_a_baseline() {
    let home = tempfile::tempdir().unwrap();
    let dir = bench_dir(home.path(), "dhat_only.four_kib");
    let first = ok(
        home.path(),
        &["dhat_only", "--save-baseline=b", "--save-summary"],
        &[],
    );
    // The summary names DHAT as the benchmark's tool and its file, and passes the schema.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["tool"], "dhat", "{summary}");
    assert_eq!(summary["metrics"], serde_json::json!({}), "{summary}");
    assert!(
        summary["files"]["profile"]
            .as_str()
            .unwrap()
            .ends_with("dhat.out"),
        "{summary}"
    );
    assert_eq!(
        summary["tools"]["dhat"]["metrics"]["TotalBytes"]["new"],
        4096
    );
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&summary)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let block = only_block(&first);
    assert!(first.contains("======= DHAT"), "{first}");
    // The 4 KiB the benchmark allocates, and no Callgrind metric or file.
    assert_eq!(block.get("Total bytes"), 4096, "{first}");
    assert!(
        block.metrics.iter().all(|m| m.0 != "Instructions"),
        "{first}"
    );
    assert!(!dir.join("callgrind.out").exists());
    assert!(dir.join("dhat.out").exists());
    // `Dhat::with_args(["--time-stamp=yes"])` reached Valgrind.
    assert!(time_stamped(&dir.join("dhat.log")));
    assert!(
        block.metrics.iter().all(|m| m.3 == "(*********)"),
        "{first}"
    );
    for args in [&["dhat_only"][..], &["dhat_only", "--baseline=b"]] {
        let again = ok(home.path(), args, &[]);
        let block = only_block(&again);
        assert_eq!(block.get("Total bytes"), 4096, "{again}");
        assert!(
            block.metrics.iter().all(|m| m.3 == "(No change)"),
            "{args:?}\n{again}"
        );
    }
    // Callgrind's saved profiles are what --load-baseline compares: it says it has none here.
    let (out, report) = values(
        home.path(),
        &["dhat_only", "--baseline=b", "--load-baseline=b"],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("does not run Callgrind"), "{report}");
}

#[test]
fn a_callgrind_value_runs_callgrind_beside_another_default_tool() {
    let home = tempfile::tempdir().unwrap();
    let report = ok(home.path(), &["dhat_and_callgrind"], &[]);
    let block = only_block(&report);
    assert!(block.get("Instructions") > 0, "{report}");
    assert_eq!(block.get("Total bytes"), 2048, "{report}");
    // `--dump-instr=yes` reached Callgrind: its profile has instruction addresses.
    let dir = bench_dir(home.path(), "dhat_and_callgrind.two_kib");
    let profile = std::fs::read_to_string(dir.join("callgrind.out")).unwrap();
    assert!(profile.contains("positions: instr"), "{profile}");
}

#[test]
fn callgrind_turned_off_leaves_cachegrind_alone_until_tools_names_it() {
    let home = tempfile::tempdir().unwrap();
    let dir = bench_dir(home.path(), "cachegrind_only.thousand");
    let report = ok(home.path(), &["cachegrind_only"], &[]);
    assert!(report.contains("======= CACHEGRIND"), "{report}");
    // Cachegrind's own counts, under its title.
    assert!(only_block(&report).get("Instructions") > 1000, "{report}");
    assert!(!dir.join("callgrind.out").exists());
    assert!(dir.join("cachegrind.out").exists());
    let report = ok(home.path(), &["cachegrind_only", "--tools=callgrind"], &[]);
    assert!(only_block(&report).get("Instructions") > 1000, "{report}");
    assert!(report.contains("======= CACHEGRIND"), "{report}");
    assert!(dir.join("callgrind.out").exists());
}

#[test]
fn callgrind_with_args_reach_valgrind() {
    let home = tempfile::tempdir().unwrap();
    ok(home.path(), &["callgrind_args", "env_and_aslr"], &[]);
    assert!(time_stamped(
        &bench_dir(home.path(), "callgrind_args.thousand").join("callgrind.log")
    ));
    // Not another benchmark's.
    assert!(!time_stamped(
        &bench_dir(home.path(), "env_and_aslr.env").join("callgrind.log")
    ));
}

/// The `cwd=` line a `read_numbers` benchmark printed.
fn printed_cwd(report: &str) -> Vec<PathBuf> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("cwd="))
        .map(PathBuf::from)
        .collect()
}

#[test]
fn a_library_benchmark_runs_in_its_sandbox_and_working_directory() {
    let home = tempfile::tempdir().unwrap();
    let report = ok(home.path(), &["sandboxed", "--nocapture"], &[]);
    // The line each benchmark printed reads as a header of its own, its metrics under it.
    let (printed, found): (Vec<Block>, Vec<Block>) = blocks(&report)
        .into_iter()
        .partition(|b| b.header.starts_with("cwd="));
    assert_eq!(found.len(), 2, "{report}");
    // Reading the fixture from the working directory succeeded in both.
    assert!(found.iter().all(|b| b.failed.is_none()), "{report}");
    assert!(
        printed.iter().all(|b| b.get("Instructions") > 1000),
        "{report}"
    );
    let cwds = printed_cwd(&report);
    assert_eq!(cwds.len(), 2, "{report}");
    let temp = std::env::temp_dir();
    for cwd in &cwds {
        assert!(cwd.starts_with(&temp), "{report}");
        let name = cwd
            .strip_prefix(&temp)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("benchgrind-sandbox-"), "{report}");
        // Removed after the run.
        assert!(!cwd.exists(), "{}", cwd.display());
    }
    assert!(cwds[0].parent() == Some(temp.as_path()), "{report}");
    assert!(cwds[1].ends_with("fixtures"), "{report}");
}

#[test]
fn each_tools_args_flag_reaches_that_tool_alone() {
    let home = tempfile::tempdir().unwrap();
    let stamp = "--time-stamp=yes";
    let flags: Vec<String> = [
        "cachegrind",
        "dhat",
        "memcheck",
        "helgrind",
        "drd",
        "massif",
    ]
    .iter()
    .map(|t| format!("--{t}-args={stamp}"))
    .collect();
    let mut args = vec![
        "env_and_aslr",
        "--tools=cachegrind,dhat,memcheck,helgrind,drd,massif,bbv",
    ];
    args.extend(flags.iter().map(String::as_str));
    // BBV's through its variable.
    ok(home.path(), &args, &[("BENCHGRIND_BBV_ARGS", stamp)]);
    let dir = bench_dir(home.path(), "env_and_aslr.env");
    for tool in [
        "cachegrind",
        "dhat",
        "memcheck",
        "helgrind",
        "drd",
        "massif",
        "bbv",
    ] {
        assert!(time_stamped(&dir.join(format!("{tool}.log"))), "{tool}");
    }
    assert!(!time_stamped(&dir.join("callgrind.log")));
}

#[test]
fn default_tool_on_the_command_line_replaces_callgrind() {
    let home = tempfile::tempdir().unwrap();
    let report = ok(home.path(), &["env_and_aslr", "--default-tool=DHAT"], &[]);
    let block = only_block(&report);
    assert!(report.contains("======= DHAT"), "{report}");
    assert!(
        block.metrics.iter().any(|m| m.0 == "Total bytes"),
        "{report}"
    );
    assert!(
        block.metrics.iter().all(|m| m.0 != "Instructions"),
        "{report}"
    );
    assert!(!bench_dir(home.path(), "env_and_aslr.env")
        .join("callgrind.out")
        .exists());
    // A default tool the code did not configure gets the code's core arguments.
    ok(home.path(), &["long_args", "--default-tool=massif"], &[]);
    let dir = bench_dir(home.path(), "long_args.long");
    assert!(time_stamped(&dir.join("massif.log")));
    assert!(!dir.join("callgrind.log").exists());
    let (out, report) = values(home.path(), &["--default-tool=perf"], &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{report}{err}");
    assert!(
        err.contains("--default-tool is `perf`; perf is not a default tool")
            && err.contains("add --perf"),
        "{err}"
    );
}

#[test]
fn nosummary_show_intermediate_and_truncate_description() {
    let home = tempfile::tempdir().unwrap();
    let tally = "benchgrind: e2e_values: 1 benchmark in";
    let report = ok(home.path(), &["long_args"], &[]);
    assert!(report.contains(tally), "{report}");
    assert!(!report.contains("## thread 1"), "{report}");
    let header = &only_block(&report).header;
    assert!(header.ends_with("rather long for a heade..."), "{header}");

    for flag in ["--nosummary", "--no-summary"] {
        let report = ok(
            home.path(),
            &[
                "long_args",
                flag,
                "--show-intermediate",
                "--truncate-description=10",
            ],
            &[],
        );
        assert!(!report.contains(tally), "{report}");
        assert!(report.contains("  ## thread 1"), "{report}");
        let header = &only_block(&report).header;
        assert!(header.ends_with(r#"long:"a string ..."#), "{header}");
    }
    let report = ok(
        home.path(),
        &["long_args", "--truncate-description=no"],
        &[],
    );
    let header = &only_block(&report).header;
    assert!(header.ends_with("for a header line\""), "{header}");
}

/// What `env_and_aslr` printed: `E2E_SET=.. E2E_OUTER=.. personality=..`.
fn printed(report: &str) -> String {
    report
        .lines()
        .find(|l| l.starts_with("E2E_SET="))
        .unwrap_or_else(|| panic!("nothing printed in {report}"))
        .to_owned()
}

#[test]
fn env_clear_envs_and_allow_aslr_reach_the_benchmark_process() {
    let home = tempfile::tempdir().unwrap();
    let outer = [("E2E_OUTER", "outer")];
    // gungraun's spelling of --nocapture.
    let base = ["env_and_aslr", "--no-capture"];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        printed(&ok(home.path(), &args, &outer))
    };
    assert_eq!(with(&[]), "E2E_SET=- E2E_OUTER=- personality=00040000");
    assert_eq!(
        with(&["--env-clear=no"]),
        "E2E_SET=- E2E_OUTER=outer personality=00040000"
    );
    assert_eq!(
        with(&["--envs=E2E_SET=one E2E_OUTER"]),
        "E2E_SET=one E2E_OUTER=outer personality=00040000"
    );
    assert_eq!(
        with(&["--allow-aslr"]),
        "E2E_SET=- E2E_OUTER=- personality=00000000"
    );
}

#[test]
fn valgrind_bin_runs_that_launcher() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let valgrind = benchgrind_runner::execute::valgrind::locate().expect("valgrind");
    let marker = home.path().join("marker");
    let wrapper = home.path().join("my-valgrind");
    let script = format!(
        "#!/bin/sh\necho run >> '{}'\nexec '{}' \"$@\"\n",
        marker.display(),
        valgrind.path.display()
    );
    std::fs::write(&wrapper, script).unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin_arg = format!("--valgrind-bin={}", wrapper.display());
    let report = ok(home.path(), &["long_args", &bin_arg], &[]);
    assert!(only_block(&report).get("Instructions") > 0, "{report}");
    // `--version` once, then the benchmark's run.
    let runs = std::fs::read_to_string(&marker).unwrap().lines().count();
    assert!(runs >= 2, "{runs}");
    let (out, report) = values(
        home.path(),
        &["long_args", "--valgrind-bin=/nonexistent/valgrind"],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{report}{err}");
    assert!(
        err.contains("cannot run Valgrind at /nonexistent/valgrind"),
        "{err}"
    );
}

#[test]
fn libtest_switches_and_parallel_are_accepted() {
    let home = tempfile::tempdir().unwrap();
    // `3` is the seed, not a filter: only `long_args` runs.
    let report = ok(
        home.path(),
        &[
            "--fail-fast",
            "--shuffle",
            "--shuffle-seed",
            "3",
            "--exclude-should-panic",
            "--ensure-time",
            "--parallel",
            "long_args",
        ],
        &[],
    );
    only_block(&report);
    let (out, _) = values(home.path(), &["--parallel=0"], &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--parallel is `0`"), "{err}");
}

#[test]
fn binary_benchmarks_expect_signals_read_a_path_and_run_dhat_alone() {
    const BIN_BENCH: &str = env!("CARGO_BIN_EXE_e2e_values_bin");
    let home = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let out = run(BIN_BENCH, &[&home_arg], home.path(), &[]);
    let report = stdout(&out);
    // Two benchmarks expect another end than the one they have.
    assert_eq!(out.status.code(), Some(1), "{report}");
    let found = blocks(&report);
    let block = |part: &str| {
        found
            .iter()
            .find(|b| b.header.contains(part))
            .unwrap_or_else(|| panic!("no `{part}` in {report}"))
    };
    for measured in [" signal:", " signals:", "stdin_from_path"] {
        let b = block(measured);
        assert!(b.failed.is_none(), "{measured}: {report}");
        assert!(b.get("Instructions") > 100_000, "{report}");
    }
    let failed = |part: &str| block(part).failed.clone().unwrap_or_default();
    assert!(
        failed(" not_a_code:").ends_with("was killed by signal 6, expected code 6"),
        "{report}"
    );
    assert!(
        failed(" other_signal:").ends_with("was killed by signal 6, expected signal 15"),
        "{report}"
    );
    let dhat = block("dhat_only");
    assert!(dhat.get("Total bytes") > 0, "{report}");
    assert!(
        dhat.metrics.iter().all(|m| m.0 != "Instructions"),
        "{report}"
    );
    // `Bench::file`: `seq 1 10` and `seq 1 100000`, one bench per line.
    let (short, long) = (block("ends_0"), block("ends_1"));
    assert!(short.header.ends_with("/usr/bin/seq 1 10"), "{report}");
    assert!(
        long.get("Instructions") > short.get("Instructions") + 1_000_000,
        "{report}"
    );
}
