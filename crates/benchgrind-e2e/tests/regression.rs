//! Regression limits, baselines, the JSON summary and its schema, end to end on `e2e_regress`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_regress");

fn home_arg(home: &Path) -> String {
    format!("--home={}", home.display())
}

fn bench_dir(home: &Path, group: &str, leaf: &str) -> PathBuf {
    home.join("benchgrind-e2e/e2e_regress")
        .join(group)
        .join(leaf)
}

#[test]
fn ten_percent_more_fails_a_five_percent_limit_and_passes_a_twenty_percent_one() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let first = run(BIN, &[&h], home.path(), &[("E2E_WORK", "1000")]);
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));

    let second = run(BIN, &[&h], home.path(), &[("E2E_WORK", "1100")]);
    let report = stdout(&second);
    assert_eq!(second.status.code(), Some(3), "{report}");
    let regressed: Vec<&str> = report.lines().filter(|l| l.contains("regressed")).collect();
    assert!(
        report.contains("  Performance has regressed: Instructions (9010 -> 9910) changed by +9.98890%, past the limit of +5.00000%"),
        "{report}"
    );
    assert!(
        report.contains("REGRESSED e2e_regress::limit_5::strict::loop_work: Instructions"),
        "{report}"
    );
    // The +20% group and the unchanged benchmark pass.
    assert!(
        !report.contains("REGRESSED e2e_regress::limit_20"),
        "{report}"
    );
    assert!(
        !report.contains("REGRESSED e2e_regress::limit_5::unchanged"),
        "{report}"
    );
    assert!(
        report.contains("3 measured, 0 failed, 1 regressed"),
        "{regressed:?}"
    );

    // The command line's limits replace the code's: 20% for everyone passes.
    let third = run(
        BIN,
        &[&h, "--regression=ir=20%"],
        home.path(),
        &[("E2E_WORK", "1210")],
    );
    assert_eq!(third.status.code(), Some(0), "{}", stdout(&third));
    // And as a variable, 5% for everyone fails both loops.
    let fourth = run(
        BIN,
        &[&h],
        home.path(),
        &[("E2E_WORK", "1331"), ("BENCHGRIND_REGRESSION", "ir=5%")],
    );
    assert_eq!(fourth.status.code(), Some(3));
    assert!(
        stdout(&fourth).contains("2 regressed"),
        "{}",
        stdout(&fourth)
    );
}

#[test]
fn fail_fast_stops_at_the_first_regression() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    run(BIN, &[&h], home.path(), &[("E2E_WORK", "1000")]);
    let out = run(
        BIN,
        &[&h, "--regression-fail-fast"],
        home.path(),
        &[("E2E_WORK", "1100")],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{report}");
    // The first regression stops the run; benchmarks already running still finish and are
    // reported (how many depends on timing), the others do not start.
    let reported = blocks(&report);
    assert!(
        reported[0]
            .header
            .starts_with("e2e_regress::limit_5::strict"),
        "{report}"
    );
    let not_run = (0..3)
        .find(|n| report.contains(&format!("{n} not run (fail fast)")))
        .unwrap_or(0);
    assert_eq!(reported.len() + not_run, 3, "{report}");
}

#[test]
fn baselines_save_compare_and_load_without_running() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let main = run(
        BIN,
        &[&h, "--save-baseline=main"],
        home.path(),
        &[("E2E_WORK", "1000")],
    );
    // A first save says it saved, and does not call the benchmarks uncompared.
    let first = stdout(&main);
    assert_eq!(main.status.code(), Some(0), "{first}");
    assert!(
        first.contains(
            "\nbenchgrind: saved baseline `main` of 3 benchmarks (new: there was none to \
             compare with); --baseline=main compares with it\n"
        ),
        "{first}"
    );
    assert!(
        !first.contains("ncompared") && first.contains(": 3 measured, 0 failed"),
        "{first}"
    );
    let saved =
        bench_dir(home.path(), "limit_5", "strict.loop_work").join("baseline.main.callgrind.out");
    assert!(saved.is_file());

    // A change, saved as `new` and compared with `main`.
    let new = run(
        BIN,
        &[
            &h,
            "--save-baseline=new",
            "--baseline=main",
            "--regression=ir=50%",
        ],
        home.path(),
        &[("E2E_WORK", "1100")],
    );
    let report = stdout(&new);
    assert_eq!(new.status.code(), Some(0), "{report}");
    assert!(
        report.contains("  Baselines:               run|main"),
        "{report}"
    );
    let changed = "  Instructions:                9910|9010            (+9.98890%) [+1.09989x]";
    assert!(report.contains(changed), "{report}");

    // The same comparison again, from the saved profiles only: Valgrind is not even found.
    let loaded = run(
        BIN,
        &[
            "--load-baseline=new",
            "--baseline=main",
            "--regression=ir=50%",
            &h,
        ],
        home.path(),
        &[
            ("BENCHGRIND_VALGRIND", "/nonexistent/valgrind"),
            ("PATH", "/nonexistent"),
        ],
    );
    let loaded_report = stdout(&loaded);
    assert_eq!(loaded.status.code(), Some(0), "{loaded_report}");
    // Nothing ran: the tally says the benchmarks were loaded.
    assert!(
        loaded_report.contains(": 3 loaded, 0 failed, 0 regressed")
            && !loaded_report.contains(" measured,"),
        "{loaded_report}"
    );
    assert!(
        loaded_report.contains("  Baselines:               new|main"),
        "{loaded_report}"
    );
    assert!(loaded_report.contains(changed), "{loaded_report}");
    let numbers = |r: &str| blocks(r).into_iter().map(|b| b.metrics).collect::<Vec<_>>();
    assert_eq!(numbers(&loaded_report), numbers(&report));

    // A baseline that does not exist, and a damaged one: clear messages, no panic.
    let missing = run(
        BIN,
        &["--load-baseline=nope", "--baseline=main", &h],
        home.path(),
        &[],
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stdout(&missing).contains("there is no baseline `nope` for e2e_regress::limit_5::strict::loop_work; save one with --save-baseline=nope"),
        "{}",
        stdout(&missing)
    );
    std::fs::write(&saved, "events: Ir\ntotals: twelve\n").unwrap();
    let damaged = run(
        BIN,
        &[&h, "--baseline=main"],
        home.path(),
        &[("E2E_WORK", "1000")],
    );
    let text = stdout(&damaged);
    assert_eq!(damaged.status.code(), Some(1), "{text}");
    assert!(text.contains("baseline `main` is damaged ("), "{text}");
    assert!(
        text.contains("baseline.main.callgrind.out:2: `twelve` is not a count"),
        "{text}"
    );
    assert!(
        text.contains("save it again with --save-baseline=main"),
        "{text}"
    );
    assert!(!damaged.stderr.windows(8).any(|w| w == b"panicked"));
}

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema is a valid JSON Schema")
}

fn assert_valid(validator: &jsonschema::Validator, json: &serde_json::Value) {
    let errors: Vec<String> = validator.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?} in {json}");
}

#[test]
fn json_summaries_validate_and_carry_the_terminals_numbers() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let envs = [("E2E_WORK", "1000")];
    let terminal = run(BIN, &[&h], home.path(), &envs);
    let terminal_blocks = blocks(&stdout(&terminal));

    let json = run(
        BIN,
        &[&h, "--save-summary=pretty-json"],
        home.path(),
        &[("E2E_WORK", "1000"), ("BENCHGRIND_OUTPUT_FORMAT", "json")],
    );
    assert_eq!(json.status.code(), Some(0));
    let validator = schema();
    let lines: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every stdout line is one JSON summary"))
        .collect();
    assert_eq!(lines.len(), 3);
    for (summary, block) in lines.iter().zip(&terminal_blocks) {
        assert_valid(&validator, summary);
        assert_eq!(summary["status"], "ok");
        assert_eq!(summary["old_source"], "previous run");
        let names = [
            ("Instructions", "Ir"),
            ("L1 Hits", "L1hits"),
            ("L2 Hits", "LLhits"),
            ("RAM Hits", "RamHits"),
            ("Total read+write", "TotalRW"),
            ("Estimated Cycles", "EstimatedCycles"),
        ];
        for (label, name) in names {
            let metric = &summary["metrics"][name];
            assert_eq!(metric["new"], block.get(label), "{name}");
            // This run's old values are the terminal run's new ones.
            assert_eq!(metric["old"], block.get(label), "{name}");
            assert_eq!(metric["diff_pct"], 0.0);
            assert_eq!(metric["factor"], 1.0);
        }
        let saved = Path::new(summary["files"]["dir"].as_str().unwrap()).join("summary.json");
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
        assert_valid(&validator, &file);
        let without_duration = |v: &serde_json::Value| {
            let mut v = v.clone();
            v["duration_secs"] = 0.into();
            v
        };
        assert_eq!(without_duration(&file), without_duration(summary));
    }

    // A script reads the saved summaries back and finds the terminal's instructions.
    let script = "import json,sys\nfor p in sys.argv[1:]:\n    s=json.load(open(p))\n    print(s['id'], s['metrics']['Ir']['new'])\n";
    let files: Vec<String> = lines
        .iter()
        .map(|s| format!("{}/summary.json", s["files"]["dir"].as_str().unwrap()))
        .collect();
    let py = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&files)
        .output()
        .expect("python3 runs");
    let printed = String::from_utf8(py.stdout).unwrap();
    let expected: Vec<String> = terminal_blocks
        .iter()
        .zip(&lines)
        .map(|(b, s)| format!("{} {}", s["id"].as_str().unwrap(), b.get("Instructions")))
        .collect();
    assert_eq!(printed.lines().collect::<Vec<_>>(), expected);

    // Failed and regressed summaries validate too.
    let regressed = run(
        BIN,
        &[&h, "--output-format=json", "--regression=ir<=100"],
        home.path(),
        &envs,
    );
    assert_eq!(regressed.status.code(), Some(3));
    for line in stdout(&regressed).lines() {
        let summary: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_valid(&validator, &summary);
        assert_eq!(summary["status"], "regressed");
        assert_eq!(summary["regressions"][0]["kind"], "absolute");
    }
    let failed = run(
        BIN,
        &[
            "--load-baseline=absent",
            "--baseline=x",
            "--output-format=json",
            &h,
        ],
        home.path(),
        &[],
    );
    for line in stdout(&failed).lines() {
        let summary: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_valid(&validator, &summary);
        assert_eq!(summary["status"], "failed");
    }
}

#[test]
fn markdown_output_is_a_table() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        BIN,
        &[&home_arg(home.path()), "--output-format=markdown"],
        home.path(),
        &[],
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // The pull-request comment (see tests/explain.rs): counts, then a row per benchmark.
    assert_eq!(lines[0], "## benchgrind: why the counts changed", "{text}");
    assert_eq!(
        lines[2],
        "| improved | regressed | unchanged | new | gone |"
    );
    assert_eq!(lines[4], "| 0 | 0 | 0 | 3 | 0 |", "{text}");
    // Then what was compared: this run's revision and machine (no old side here).
    assert_eq!(lines.len(), 17, "{text}");
    assert_eq!(lines[12], "### Compared", "{text}");
    assert!(lines[16].starts_with("| this run | `"), "{text}");
    assert_eq!(
        lines[8], "| `e2e_regress::limit_5::strict::loop_work` | Ir |  | 9010 |  | new |",
        "{text}"
    );
}

#[test]
fn a_killed_run_never_leaves_a_damaged_baseline() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let good = run(
        BIN,
        &[&h, "--save-baseline=main"],
        home.path(),
        &[("E2E_WORK", "1000")],
    );
    assert_eq!(good.status.code(), Some(0));
    // Kill runs that are overwriting the baseline at many different moments.
    for delay_ms in (0..12).map(|i| 40 + i * 130) {
        let mut child = common::bench(BIN)
            .args(["--bench", &h, "--save-baseline=main"])
            .env("E2E_WORK", "1100")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let loaded = run(
            BIN,
            &["--load-baseline=main", "--baseline=main", &h],
            home.path(),
            &[],
        );
        assert_eq!(
            loaded.status.code(),
            Some(0),
            "after a kill at {delay_ms} ms: {}",
            stdout(&loaded)
        );
        for block in blocks(&stdout(&loaded)) {
            assert!(block.get("Instructions") > 4000, "{block:?}");
        }
    }
}
