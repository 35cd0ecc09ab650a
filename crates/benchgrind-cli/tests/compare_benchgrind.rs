//! `benchgrind compare` on benchgrind's own results: real summaries of the e2e bench program
//! before and after a +10% and a +2% change (`tests/compare/fixtures/benchgrind/README.md` says
//! how they were made), as files of summaries, a directory of `summary.json`, and saved
//! baselines; bad inputs; and, when the e2e bench program can be built, the bench binary itself
//! as an input, run under real Valgrind.

#[path = "compare/common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value;

const STRICT: &str = "e2e_regress::limit_5::strict::loop_work";
const LENIENT: &str = "e2e_regress::limit_20::lenient::loop_work";
const UNCHANGED: &str = "e2e_regress::limit_5::unchanged::fixed";
/// Every metric a Callgrind run with the cache simulation reports, in report order.
const METRICS: [&str; 6] = [
    "Ir",
    "L1hits",
    "LLhits",
    "RamHits",
    "TotalRW",
    "EstimatedCycles",
];

fn bg(name: &str) -> PathBuf {
    fixture(&format!("benchgrind/{name}"))
}

fn change(report: &Value, bench: &str, m: &str) -> f64 {
    metric(report, bench, m)["change"].as_f64().unwrap()
}

fn metric_names(report: &Value, bench: &str) -> Vec<String> {
    let b = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == bench)
        .unwrap();
    b["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_ten_percent_change_is_shown_per_metric_and_fails_above_5() {
    let (old, new) = (bg("work1000.jsonl"), bg("work1100.jsonl"));
    let r = report(&expect_code(
        &compare([old.as_os_str(), new.as_os_str(), "--format=json".as_ref()]),
        0,
    ));
    for bench in [STRICT, LENIENT, UNCHANGED] {
        assert_eq!(metric_names(&r, bench), METRICS, "{bench}");
    }
    let ir = metric(&r, STRICT, "Ir");
    assert_eq!(
        (ir["old"].as_f64(), ir["new"].as_f64()),
        (Some(9008.0), Some(9908.0))
    );
    assert_4_decimals(change(&r, STRICT, "Ir"), 900.0 / 9008.0, "Ir");
    assert_4_decimals(change(&r, STRICT, "L1hits"), 1100.0 / 11008.0, "L1hits");
    assert_4_decimals(
        change(&r, STRICT, "EstimatedCycles"),
        1100.0 / 11078.0,
        "cycles",
    );
    assert_eq!(change(&r, STRICT, "RamHits"), 0.0);
    assert_eq!(change(&r, UNCHANGED, "Ir"), 0.0);
    assert_eq!(r["only_old"], serde_json::json!([]));
    assert_eq!(r["only_new"], serde_json::json!([]));

    let out = compare([old.as_os_str(), new.as_os_str(), "--fail-above=5".as_ref()]);
    let table = expect_code(&out, 3);
    assert!(
        table.contains("FAIL: e2e_regress::limit_5::strict::loop_work Ir +9.99% is past"),
        "{table}"
    );
    assert!(!table.contains("unchanged::fixed Ir +"), "{table}");
    // A per-metric limit: Ir is checked alone.
    expect_code(
        &compare([
            old.as_os_str(),
            new.as_os_str(),
            "--fail-above=Ir=5".as_ref(),
        ]),
        3,
    );
    expect_code(
        &compare([
            old.as_os_str(),
            new.as_os_str(),
            "--fail-above=Ir=11".as_ref(),
        ]),
        0,
    );
    expect_code(
        &compare([
            old.as_os_str(),
            new.as_os_str(),
            "--fail-above=11".as_ref(),
            "--fail-above=EstimatedCycles=9.9".as_ref(),
        ]),
        3,
    );
}

#[test]
fn a_two_percent_change_passes_5() {
    let (old, new) = (bg("work1000.jsonl"), bg("work1020.jsonl"));
    let out = compare([
        old.as_os_str(),
        new.as_os_str(),
        "--fail-above=5".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 0));
    assert_4_decimals(change(&r, STRICT, "Ir"), 180.0 / 9008.0, "Ir");
    assert_4_decimals(change(&r, LENIENT, "TotalRW"), 220.0 / 11010.0, "TotalRW");
    assert_eq!(r["violations"], serde_json::json!([]));
    // And the other formats show it.
    for (format, wanted) in [
        ("terminal", "+2.00%"),
        ("markdown", "+2.00%"),
        (
            "csv",
            "e2e_regress::limit_5::strict::loop_work,single,Ir,count,lower,9008,9188,",
        ),
    ] {
        let out = compare([
            old.as_os_str(),
            new.as_os_str(),
            format!("--format={format}").as_ref(),
        ]);
        let text = expect_code(&out, 0);
        assert!(text.contains(wanted), "{format}: {text}");
    }
}

#[test]
fn names_on_one_side_only_are_reported() {
    let (part, full) = (bg("limit_5_work1000.jsonl"), bg("work1100.jsonl"));
    let r = report(&expect_code(
        &compare([part.as_os_str(), full.as_os_str(), "--format=json".as_ref()]),
        0,
    ));
    assert_eq!(r["only_new"], serde_json::json!([LENIENT]));
    assert_eq!(r["benchmarks"].as_array().unwrap().len(), 2);
    let out = compare([full.as_os_str(), part.as_os_str()]);
    let table = expect_code(&out, 0);
    assert!(table.contains(LENIENT), "{table}");
    let r = report(&expect_code(
        &compare([full.as_os_str(), part.as_os_str(), "--format=json".as_ref()]),
        0,
    ));
    assert_eq!(r["only_old"], serde_json::json!([LENIENT]));
}

#[test]
fn a_directory_a_summary_file_and_baselines_are_inputs() {
    let home = bg("home");
    let old = bg("work1000.jsonl");
    // The directory: the three summary.json of the E2E_WORK=1100 run.
    let r = report(&expect_code(
        &compare([old.as_os_str(), home.as_os_str(), "--format=json".as_ref()]),
        0,
    ));
    assert_4_decimals(change(&r, LENIENT, "Ir"), 900.0 / 9008.0, "dir Ir");
    assert_eq!(r["only_new"], serde_json::json!([]));
    // One summary.json.
    let one = home.join("benchgrind-e2e/e2e_regress/limit_5/strict.loop_work/summary.json");
    let r = report(&expect_code(
        &compare([old.as_os_str(), one.as_os_str(), "--format=json".as_ref()]),
        0,
    ));
    assert_4_decimals(change(&r, STRICT, "Ir"), 900.0 / 9008.0, "file Ir");
    assert_eq!(r["only_old"].as_array().unwrap().len(), 2);
    // Baselines by name: the profiles give the metrics the summaries show, to the count.
    let r = report(&expect_code(
        &compare([
            "before".as_ref(),
            old.as_os_str(),
            "--home".as_ref(),
            home.as_os_str(),
            "--format=json".as_ref(),
        ]),
        0,
    ));
    for bench in [STRICT, LENIENT, UNCHANGED] {
        assert_eq!(metric_names(&r, bench), METRICS, "{bench}");
        for m in METRICS {
            assert_eq!(change(&r, bench, m), 0.0, "{bench} {m}");
        }
    }
    let out = compare([
        "before".as_ref(),
        "after".as_ref(),
        "--home".as_ref(),
        home.as_os_str(),
        "--fail-above=Ir=5".as_ref(),
    ]);
    let table = expect_code(&out, 3);
    assert!(table.contains("Comparing baseline before ("), "{table}");
    assert!(table.contains("+9.99%"), "{table}");
}

#[test]
fn bad_inputs_give_a_clear_error_naming_the_file() {
    let good = bg("work1000.jsonl");
    let home = bg("home");
    let cases: [(PathBuf, &[&str]); 5] = [
        (
            bg("malformed_summary.json"),
            &[
                "malformed_summary.json:18:",
                "malformed JSON",
                "benchgrind summary",
            ],
        ),
        (
            bg("malformed_lines.jsonl"),
            &[
                "malformed_lines.jsonl:2:",
                "malformed JSON",
                "one benchgrind summary per line",
            ],
        ),
        (
            fixture("other_tool.json"),
            &[
                "other_tool.json",
                "not a result file",
                "benchgrind summary",
                "`results`",
            ],
        ),
        (
            bg("no_summaries"),
            &["no_summaries", "holds no `summary.json`"],
        ),
        (
            PathBuf::from("no-such-baseline"),
            &[
                "`no-such-baseline` is neither a file nor a saved baseline",
                "home",
            ],
        ),
    ];
    for (bad, wanted) in cases {
        for args in [[&good, &bad], [&bad, &good]] {
            let out = compare([
                args[0].as_os_str(),
                args[1].as_os_str(),
                "--home".as_ref(),
                home.as_os_str(),
            ]);
            // `--home` without a baseline side is a usage error; the baseline case has one.
            let out = if out.status.code() == Some(2) {
                compare([args[0].as_os_str(), args[1].as_os_str()])
            } else {
                out
            };
            assert_eq!(out.status.code(), Some(1), "{bad:?}: {}", describe(&out));
            let err = String::from_utf8_lossy(&out.stderr);
            for w in wanted {
                assert!(err.contains(w), "{bad:?}: missing {w:?} in {err}");
            }
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    // `--home` is for baselines only.
    let out = compare([good.as_os_str(), good.as_os_str(), "--home=x".as_ref()]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
}

/// The e2e bench program, or `None` (after a loud message) when it cannot be had. It is taken
/// from next to the `benchgrind` binary when `cargo build -p benchgrind-e2e` put it there, else
/// built into Cargo's temporary folder for tests (a target dir of its own: the one of this test
/// run is locked by Cargo while tests run).
fn e2e_regress() -> Option<PathBuf> {
    let skip = |why: String| {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{why}; CI must provide it");
        }
        eprintln!(
            "\n{0}\nSKIPPED bench-binary tests: {why}\n{0}\n",
            "!".repeat(78)
        );
        None
    };
    let valgrind = Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        return skip("valgrind is not installed".into());
    }
    let beside = Path::new(env!("CARGO_BIN_EXE_benchgrind")).with_file_name("e2e_regress");
    if beside.is_file() {
        return Some(beside);
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "-p",
            "benchgrind-e2e",
            "--bin",
            "e2e_regress",
            "--target-dir",
        ])
        .arg(&target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status();
    match status {
        Ok(s) if s.success() => Some(target.join("debug/e2e_regress")),
        other => skip(format!("cannot build e2e_regress: {other:?}")),
    }
}

#[test]
fn a_bench_binary_is_run_for_its_summaries() {
    let Some(binary) = e2e_regress() else {
        return;
    };
    let home = std::env::temp_dir().join(format!("benchgrind-compare-bin-{}", std::process::id()));
    let home_arg = format!("--home={}", home.display());
    let run = |args: &[&std::ffi::OsStr], work: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_benchgrind"));
        cmd.arg("compare").args(args).env_remove("BENCHGRIND_COLOR");
        match work {
            Some(w) => cmd.env("E2E_WORK", w),
            None => cmd.env_remove("E2E_WORK"),
        };
        cmd.output().unwrap()
    };
    let b = binary.as_os_str();
    let sep = "--".as_ref();
    let json = "--format=json".as_ref();

    // The same binary on both sides: exact counts, so no change at all.
    let out = run(
        &[
            b,
            b,
            json,
            "--fail-above=0".as_ref(),
            sep,
            home_arg.as_ref(),
        ],
        None,
    );
    let r = report(&expect_code(&out, 0));
    for bench in [STRICT, LENIENT, UNCHANGED] {
        assert_eq!(metric_names(&r, bench), METRICS, "{bench}");
        assert_eq!(change(&r, bench, "Ir"), 0.0, "{bench}");
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--output-format=json"),
        "the run is announced: {err}"
    );
    assert!(
        err.contains("3 benchmarks"),
        "its stderr passes through: {err}"
    );

    // Against the committed E2E_WORK=1000 run, with the binary doing 10% more work. The limit is
    // on instructions: cache hits of a benchmark this small move when the measured process's
    // stack moves (its environment and arguments), and the committed run is older than the
    // binary.
    let old = bg("work1000.jsonl");
    let args = [
        old.as_os_str(),
        b,
        json,
        "--fail-above=Ir=5".as_ref(),
        sep,
        home_arg.as_ref(),
    ];
    let r = report(&expect_code(&run(&args, Some("1100")), 3));
    let ir = change(&r, STRICT, "Ir");
    assert!((0.05..0.15).contains(&ir), "Ir change {ir}");
    // The committed run is older than the harness too: a benchmark whose code did not change
    // may differ by the few instructions of the window's edges (exact zero is checked above,
    // with one binary on both sides).
    let unchanged = change(&r, UNCHANGED, "Ir");
    assert!(unchanged.abs() < 0.002, "Ir change {unchanged}");
    expect_code(&run(&args, Some("1020")), 0);

    // `filters` on a bench binary: it runs once, the regexes pick and rename.
    let out = run(
        &[
            "filters".as_ref(),
            b,
            "limit_5::strict".as_ref(),
            "limit_20::lenient".as_ref(),
            json,
            sep,
            home_arg.as_ref(),
        ],
        None,
    );
    let r = report(&expect_code(&out, 0));
    let name = "e2e_regress::[limit_5::strict vs. limit_20::lenient]::loop_work";
    assert_eq!(change(&r, name, "Ir"), 0.0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.matches("benchgrind compare: running").count(),
        1,
        "{err}"
    );

    // A binary that fails is named.
    let out = run(&[b, b, sep, "--no-such-option".as_ref()], None);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("e2e_regress` failed (exit status: 2)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
