//! What tool values of iai-callgrind 0.15+ and gungraun configure, end to end on
//! `e2e_formats` under Valgrind: the cache rates (terminal and JSON), `Callgrind::format` and
//! `--callgrind-metrics`, soft and hard limits (whole and fractional) and DHAT's, tolerance,
//! the grid, `--show-only-comparison`, and every new flag once.

mod common;

use std::path::Path;
use std::process::Output;

use common::{run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_formats");

fn home_arg(home: &Path) -> String {
    format!("--home={}", home.display())
}

/// A metric line: label, new and old value as printed, the change as printed.
#[derive(Debug)]
struct Line {
    label: String,
    new: String,
    old: String,
    change: String,
}

/// The metric lines of the benchmark whose header contains `header` (those before a
/// `Comparison with` line, other tools' included), with or without grid marks.
fn lines(report: &str, header: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in report.lines() {
        let marked = line.starts_with("|-") || line.starts_with("|=");
        if !line.starts_with(' ') && !marked {
            inside = line.contains(header);
            continue;
        }
        if !inside {
            continue;
        }
        let text = line[2..].trim_start();
        if text.starts_with("Comparison with") {
            inside = false;
            continue;
        }
        let Some((label, rest)) = text.split_once(':') else {
            continue;
        };
        let Some((new, rest)) = rest.split_once('|') else {
            continue;
        };
        let rest = rest.trim_start();
        let (old, change) = rest.split_once(' ').unwrap_or((rest, ""));
        out.push(Line {
            label: label.to_owned(),
            new: new.trim().to_owned(),
            old: old.to_owned(),
            change: change.trim().to_owned(),
        });
    }
    out
}

fn value(lines: &[Line], label: &str) -> f64 {
    let line = lines
        .iter()
        .find(|l| l.label == label)
        .unwrap_or_else(|| panic!("no `{label}` line in {lines:?}"));
    line.new.trim_end_matches('%').parse().unwrap()
}

fn labels(lines: &[Line]) -> Vec<&str> {
    lines.iter().map(|l| l.label.as_str()).collect()
}

/// Checks a summary against the committed schema.
fn assert_valid(json: &serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let errors: Vec<String> = validator.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?} in {json}");
}

fn code(output: &Output) -> Option<i32> {
    output.status.code()
}

#[test]
fn rates_follow_the_format_and_agree_with_the_counts() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let out = run(BIN, &[&h, "e2e_formats::rates"], home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(code(&out), Some(0), "{report}");
    let l = lines(&report, "rates::formatted");
    // The format's order; the branch simulation's metrics were not collected and are left out.
    assert_eq!(
        labels(&l),
        [
            "I1 Miss Rate",
            "LLi Miss Rate",
            "D1 Miss Rate",
            "LLd Miss Rate",
            "LL Miss Rate",
            "Instructions",
            "L1 Hit Rate",
            "LL Hit Rate",
            "RAM Hit Rate",
            "I1mr",
            "D1mr",
            "D1mw",
            "ILmr",
            "DLmr",
            "DLmw",
            "Dr",
            "Dw",
            "L1 Hits",
            "L2 Hits",
            "RAM Hits",
            "Total read+write",
        ],
        "{report}"
    );
    let v = |label| value(&l, label);
    for rate in l.iter().filter(|l| l.label.contains("Rate")) {
        assert!(rate.new.ends_with('%'), "{rate:?}");
        let x = v(&rate.label);
        assert!((0.0..=100.0).contains(&x), "{rate:?}");
    }
    // Printed with five decimals: each agrees with the printed counts to 0.000005.
    let close = |rate: f64, part: f64, whole: f64| {
        let expected = part / whole * 100.0;
        assert!(
            (rate - expected).abs() <= 5e-6,
            "{rate} vs {expected}: {report}"
        );
    };
    let (ir, dr, dw) = (v("Instructions"), v("Dr"), v("Dw"));
    close(v("I1 Miss Rate"), v("I1mr"), ir);
    close(v("LLi Miss Rate"), v("ILmr"), ir);
    close(v("D1 Miss Rate"), v("D1mr") + v("D1mw"), dr + dw);
    close(v("LLd Miss Rate"), v("DLmr") + v("DLmw"), dr + dw);
    close(
        v("LL Miss Rate"),
        v("ILmr") + v("DLmr") + v("DLmw"),
        ir + dr + dw,
    );
    let total = v("Total read+write");
    assert_eq!(total, ir + dr + dw, "{report}");
    close(v("L1 Hit Rate"), v("L1 Hits"), total);
    close(v("LL Hit Rate"), v("L2 Hits"), total);
    close(v("RAM Hit Rate"), v("RAM Hits"), total);
    assert!(v("I1mr") > 0.0 && v("L1 Hit Rate") > 50.0, "{report}");

    // The JSON summary has the rates, the same as the terminal's to five decimals.
    let json = run(
        BIN,
        &[&h, "--output-format=json", "e2e_formats::rates"],
        home.path(),
        &[],
    );
    let summary: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert_valid(&summary);
    let rates = summary["rates"].as_object().expect("rates in the summary");
    assert_eq!(rates.len(), 8, "{summary}");
    let l1 = rates["L1HitRate"]["new"].as_f64().unwrap();
    assert!((l1 - v("L1 Hit Rate")).abs() <= 5e-6, "{summary}");
    assert_eq!(
        rates["L1HitRate"]["old"].as_f64(),
        Some(l1),
        "same counts again"
    );
    assert_eq!(rates["L1HitRate"]["diff_points"].as_f64(), Some(0.0));
    assert_eq!(
        summary["metrics"]["Ir"]["new"].as_u64(),
        Some(v("Instructions") as u64)
    );
    assert!(
        summary["metrics"].get("I1mr").is_none(),
        "the counts stay as before"
    );

    // `--callgrind-metrics` replaces the code's format.
    let flag = run(
        BIN,
        &[
            &h,
            "--callgrind-metrics=@hitrates,ir,@hitrates",
            "e2e_formats::rates",
        ],
        home.path(),
        &[],
    );
    let report = stdout(&flag);
    let l = lines(&report, "rates::formatted");
    assert_eq!(
        labels(&l),
        ["L1 Hit Rate", "LL Hit Rate", "RAM Hit Rate", "Instructions"],
        "{report}"
    );
    assert!(l.iter().all(|l| l.change == "(No change)"), "{report}");
}

#[test]
fn soft_and_hard_limits_of_tool_values_fail_with_exit_code_3() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    // A soft limit on the group @hits: +5%.
    let first = run(BIN, &[&h, "e2e_formats::soft_limit"], home.path(), &[]);
    assert_eq!(code(&first), Some(0), "{}", stdout(&first));
    let more = [("E2E_WORK", "1100")];
    let second = run(BIN, &[&h, "e2e_formats::soft_limit"], home.path(), &more);
    let report = stdout(&second);
    assert_eq!(code(&second), Some(3), "{report}");
    assert!(
        report.contains("Performance has regressed: L1 Hits (")
            && report.contains("past the limit of +5.00000%"),
        "{report}"
    );

    // A whole hard limit (Ir <= 100) fails on the first run.
    let int = run(BIN, &[&h, "e2e_formats::hard_limit_int"], home.path(), &[]);
    let report = stdout(&int);
    assert_eq!(code(&int), Some(3), "{report}");
    let ir = value(&lines(&report, "hard_int"), "Instructions");
    assert!(
        report.contains(&format!("Instructions is {ir}, past the hard limit of 100")),
        "{report}"
    );

    // A fractional one on a rate: L1 Hit Rate <= 50 fails, RAM Hit Rate <= 100 cannot.
    let float = run(
        BIN,
        &[&h, "e2e_formats::hard_limit_float"],
        home.path(),
        &[],
    );
    let report = stdout(&float);
    assert_eq!(code(&float), Some(3), "{report}");
    let regressed: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("Performance has regressed"))
        .collect();
    assert_eq!(regressed.len(), 1, "{report}");
    assert!(
        regressed[0].contains("L1 Hit Rate is ")
            && regressed[0].ends_with("past the hard limit of 50"),
        "{report}"
    );

    // In JSON the regression's values are the rate's, the limit the cap.
    let args = [
        &h[..],
        "--output-format=json",
        "e2e_formats::hard_limit_float",
    ];
    let json = run(BIN, &args, home.path(), &[]);
    let summary: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert_valid(&summary);
    let regression = &summary["regressions"][0];
    assert_eq!(regression["metric"], "L1HitRate", "{summary}");
    assert_eq!(regression["kind"], "absolute", "{summary}");
    assert_eq!(regression["limit"].as_f64(), Some(50.0), "{summary}");
    let new = regression["new"].as_f64().unwrap();
    assert_eq!(Some(new), summary["rates"]["L1HitRate"]["new"].as_f64());
    assert!(new > 50.0 && new <= 100.0, "{summary}");

    // DHAT's hard limit from `Dhat::hard_limits`, and its format's order.
    let dhat = run(BIN, &[&h, "e2e_formats::dhat_limit"], home.path(), &[]);
    let report = stdout(&dhat);
    assert_eq!(code(&dhat), Some(3), "{report}");
    let l = lines(&report, "dhat_limit::heap");
    let dhat_lines: Vec<&str> = labels(&l)[6..].to_vec();
    assert_eq!(dhat_lines, ["Total blocks", "Total bytes"], "{report}");
    let bytes = value(&l, "Total bytes");
    assert!(bytes >= 256.0 * 8.0, "{report}");
    assert!(
        report.contains(&format!(
            "DHAT Total bytes is {bytes}, past the hard limit of 100"
        )),
        "{report}"
    );
}

#[test]
fn the_limit_flags_replace_the_codes_limits() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let plain = "e2e_formats::unlimited";
    // Hard, both, and a group, on a benchmark without limits in the code.
    let out = run(
        BIN,
        &[&h, "--callgrind-limits=ir=5%|100", plain],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(3), "{}", stdout(&out));
    assert!(stdout(&out).contains("past the hard limit of 100"));
    let env = [("BENCHGRIND_CALLGRIND_LIMITS", "@hitrates=100,ir=10%")];
    let out = run(BIN, &[&h, plain], home.path(), &env);
    assert_eq!(code(&out), Some(0), "{}", stdout(&out));
    // The code's hard limit replaced by a looser one.
    let out = run(
        BIN,
        &[
            &h,
            "--callgrind-limits=ir=100000000",
            "e2e_formats::hard_limit_int",
        ],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(0), "{}", stdout(&out));
    // A bad item is named.
    let out = run(
        BIN,
        &[&h, "--callgrind-limits=ir=5%,@nope=1"],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--callgrind-limits: `@nope=1`: unknown Callgrind group `@nope`"),
        "{err}"
    );
    let out = run(BIN, &[&h, "--callgrind-limits=ir=1.5"], home.path(), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(code(&out) == Some(2) && err.contains("`ir=1.5`"), "{err}");

    // DHAT's limits from the command line, over the code's (100 bytes) and `--tools`.
    let dhat = "e2e_formats::dhat_limit";
    let out = run(
        BIN,
        &[&h, "--dhat-limits=tb=1000000", dhat],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(0), "{}", stdout(&out));
    let out = run(
        BIN,
        &[&h, "--dhat-limits=@all=10%,tbk=1", dhat],
        home.path(),
        &[("BENCHGRIND_DHAT_METRICS", "@all")],
    );
    let report = stdout(&out);
    assert_eq!(code(&out), Some(3), "{report}");
    // The code's cap on the bytes is gone; the one on the blocks (2 of them) fires.
    assert!(
        report.contains("DHAT Total blocks is 2, past the hard limit of 1"),
        "{report}"
    );
    assert!(!report.contains("DHAT Total bytes is"), "{report}");
    // Cachegrind's are checked for errors; without Cachegrind running they do nothing.
    let out = run(
        BIN,
        &[&h, "--cachegrind-limits=@cachemisses=5%", plain],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(0), "{}", stdout(&out));
    let out = run(
        BIN,
        &[&h, "--cachegrind-limits=@x=5%", plain],
        home.path(),
        &[],
    );
    assert_eq!(code(&out), Some(2));
}

#[test]
fn cachegrind_values_and_flags() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let group = "e2e_formats::cachegrind";
    let out = run(BIN, &[&h, group], home.path(), &[]);
    let report = stdout(&out);
    // Its hard limit (Ir <= 1000) fails.
    assert_eq!(code(&out), Some(3), "{report}");
    let l = lines(&report, "cachegrind::cached");
    let own = &l[6..];
    assert_eq!(
        labels(own),
        ["Instructions", "L1 Hit Rate", "LL Hit Rate", "RAM Hit Rate"],
        "{report}"
    );
    let ir = value(own, "Instructions");
    let callgrind = value(&l, "Instructions");
    let valgrind = benchgrind_runner::execute::valgrind::locate().unwrap();
    if (valgrind.version.0, valgrind.version.1) >= (3, 22) {
        // Cachegrind's start and stop requests: the benchmark as Callgrind counts it, give or
        // take the requests' own instructions.
        assert!(
            (ir - callgrind).abs() <= 8.0,
            "{ir} vs {callgrind}\n{report}"
        );
    } else {
        // Before 3.22 Cachegrind counts the whole process.
        assert!(ir > 10.0 * callgrind, "{ir} vs {callgrind}\n{report}");
    }
    assert!(
        report.contains(&format!(
            "Performance has regressed: Cachegrind Instructions is {ir}, past the hard limit of 1000"
        )),
        "{report}"
    );
    let hits: f64 = own[1..]
        .iter()
        .map(|l| l.new.trim_end_matches('%').parse::<f64>().unwrap())
        .sum();
    assert!((hits - 100.0).abs() < 3e-5, "{report}");
    // In JSON: its counts by Callgrind's names, its limit passed.
    let args = [&h[..], "--output-format=json", group];
    let json = run(BIN, &args, home.path(), &[]);
    let summary: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert_valid(&summary);
    let cachegrind = &summary["tools"]["cachegrind"];
    assert_eq!(cachegrind["status"], "regressed", "{summary}");
    assert_eq!(
        cachegrind["metrics"]["Ir"]["new"].as_f64(),
        Some(ir),
        "{summary}"
    );
    assert_eq!(cachegrind["regressions"][0]["metric"], "Ir", "{summary}");
    assert_eq!(summary["status"], "regressed", "{summary}");
    // The flags replace the code's limits and format.
    let args = [
        &h[..],
        "--cachegrind-limits=ir=1000000000",
        "--cachegrind-metrics=@misses",
        group,
    ];
    let out = run(BIN, &args, home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(code(&out), Some(0), "{report}");
    let l = lines(&report, "cachegrind::cached");
    assert_eq!(
        labels(&l[6..]),
        ["I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"],
        "{report}"
    );
}

#[test]
fn tolerance_grid_metrics_of_other_tools_and_only_comparisons() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let groups = ["e2e_formats::tolerance", "e2e_formats::unlimited"];
    let first = run(BIN, &[&h, groups[0], groups[1]], home.path(), &[]);
    assert_eq!(code(&first), Some(0), "{}", stdout(&first));
    // About +5% more work: within the code's tolerance of 20%, outside none.
    let more = [("E2E_WORK", "1050")];
    let second = run(BIN, &[&h, groups[0], groups[1]], home.path(), &more);
    let report = stdout(&second);
    let tolerant = lines(&report, "tolerance::tolerant");
    let ir = tolerant.iter().find(|l| l.label == "Instructions").unwrap();
    assert_eq!(ir.change, "(Tolerance)", "{report}");
    assert_ne!(ir.new, ir.old, "{report}");
    let plain = lines(&report, "unlimited::plain");
    let ir = plain.iter().find(|l| l.label == "Instructions").unwrap();
    assert!(ir.change.starts_with("(+"), "{report}");
    // `--tolerance` for every benchmark.
    let third = run(BIN, &[&h, "--tolerance=50", groups[1]], home.path(), &[]);
    let report = stdout(&third);
    let plain = lines(&report, "unlimited::plain");
    let ir = plain.iter().find(|l| l.label == "Instructions").unwrap();
    assert_eq!(ir.change, "(Tolerance)", "{report}");

    // The grid, with another tool's title.
    let grid = run(
        BIN,
        &[
            &h,
            "--show-grid",
            "--tools=memcheck,helgrind,drd",
            "--memcheck-metrics=errors",
            "--helgrind-metrics=ctx,err",
            "--drd-metrics=@all",
            "--dhat-metrics=tb",
            "--cachegrind-metrics=@all",
            "e2e_formats::unlimited",
        ],
        home.path(),
        &[],
    );
    let report = stdout(&grid);
    assert_eq!(code(&grid), Some(0), "{report}");
    assert!(report.contains("\n|-Instructions:"), "{report}");
    assert!(report.contains("\n|-L1 Hits:"), "{report}");
    assert!(report.contains("\n|-Errors:"), "{report}");
    assert!(report.contains("\n|======= MEMCHECK ==="), "{report}");
    let l = lines(&report, "unlimited::plain");
    // Callgrind's six, then Memcheck's one, Helgrind's two in order, DRD's four.
    assert_eq!(
        labels(&l)[6..],
        [
            "Errors",
            "Contexts",
            "Errors",
            "Errors",
            "Contexts",
            "Suppressed errors",
            "Suppr. contexts"
        ],
        "{report}"
    );
    let dhat = run(
        BIN,
        &[&h, "--dhat-metrics=tbk", "e2e_formats::dhat_limit"],
        home.path(),
        &[],
    );
    let report = stdout(&dhat);
    assert_eq!(
        labels(&lines(&report, "heap"))[6..],
        ["Total blocks"],
        "{report}"
    );

    // compare_by_id: the second benchmark's own lines are left out with the flag.
    let pair = "e2e_formats::compared";
    let both = stdout(&run(BIN, &[&h, pair], home.path(), &[]));
    assert!(
        both.contains("Comparison with cmp_first same:300"),
        "{both}"
    );
    assert_eq!(lines(&both, "cmp_second").len(), 6, "{both}");
    let only = stdout(&run(
        BIN,
        &[&h, "--show-only-comparison", pair],
        home.path(),
        &[],
    ));
    assert!(
        only.contains("Comparison with cmp_first same:300"),
        "{only}"
    );
    assert!(lines(&only, "cmp_second").is_empty(), "{only}");
    assert_eq!(lines(&only, "cmp_first").len(), 6, "{only}");
}
