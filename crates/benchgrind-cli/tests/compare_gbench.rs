//! `benchgrind compare` on committed Google Benchmark JSON files: changes and p-values against
//! scipy, thresholds, formats, modes and errors. The files and how they were made are described
//! in `tests/compare/fixtures/README.md`.

#[path = "compare/common.rs"]
mod common;

use common::*;
use serde_json::Value;

fn scipy_expected() -> Value {
    let text = std::fs::read_to_string(fixture("scipy_expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn json_report(old: &str, new: &str) -> Value {
    let out = compare([
        fixture(old).as_os_str(),
        fixture(new).as_os_str(),
        "--format=json".as_ref(),
    ]);
    report(&expect_code(&out, 0))
}

#[test]
fn changes_and_p_values_match_scipy_for_every_fixture_pair() {
    let expected = scipy_expected();
    for pair in ["gb_reps9", "gb_reps5", "gb_single"] {
        let report = json_report(&format!("{pair}_old.json"), &format!("{pair}_new.json"));
        assert_matches_reference(&report, &expected["fixtures"][pair]);
    }
}

#[test]
fn u_test_method_and_reliability_follow_the_repetitions() {
    let nine = json_report("gb_reps9_old.json", "gb_reps9_new.json");
    let u = &metric(&nine, "BM_Accumulate/1024", "time")["u_test"];
    assert_eq!(u["method"], "asymptotic");
    assert_eq!(u["reliable"], true);
    assert_eq!(u["significant"], true);
    let five = json_report("gb_reps5_old.json", "gb_reps5_new.json");
    let u = &metric(&five, "BM_StringCopy/64", "cpu")["u_test"];
    assert_eq!(u["method"], "exact");
    assert_eq!(u["reliable"], false);
    // The terminal report says so.
    let out = compare([
        fixture("gb_reps5_old.json").as_os_str(),
        fixture("gb_reps5_new.json").as_os_str(),
    ]);
    let text = expect_code(&out, 0);
    assert!(
        text.contains("fewer than 9 repetitions") && text.contains("BM_StringCopy/64 (5 vs 5)"),
        "{text}"
    );
}

#[test]
fn aggregates_counters_and_non_finite_values_are_compared() {
    let r = json_report("gb_reps9_old.json", "gb_reps9_new.json");
    let old = read_gbench(&fixture("gb_reps9_old.json"));
    let new = read_gbench(&fixture("gb_reps9_new.json"));
    let value = |doc: &Value, name: &str, field: &str| {
        doc["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .unwrap()[field]
            .as_f64()
            .unwrap()
    };
    // Aggregates one to one, with the file's own value.
    let mean = metric(&r, "BM_Accumulate/8192_mean", "cpu");
    let (o, n) = (
        value(&old, "BM_Accumulate/8192_mean", "cpu_time"),
        value(&new, "BM_Accumulate/8192_mean", "cpu_time"),
    );
    assert_eq!(mean["old"].as_f64().unwrap(), o);
    assert_4_decimals(mean["change"].as_f64().unwrap(), (n - o) / o, "mean change");
    // Counters, with their direction.
    let bps = metric(&r, "BM_Accumulate/1024_median", "bytes_per_second");
    assert_eq!(bps["better"], "higher");
    let (o, n) = (
        value(&old, "BM_Accumulate/1024_median", "bytes_per_second"),
        value(&new, "BM_Accumulate/1024_median", "bytes_per_second"),
    );
    assert_4_decimals(
        bps["change"].as_f64().unwrap(),
        (n - o) / o,
        "bytes_per_second",
    );
    assert_eq!(
        metric(&r, "BM_Accumulate/1024", "elements")["better"],
        "unknown"
    );
    // NaN and Infinity counters are read; NaN is null in our JSON.
    let undefined = metric(&r, "BM_OddCounters", "undefined");
    assert!(undefined["old"].is_null() && undefined["change"].is_null());
    assert_eq!(metric(&r, "BM_OddCounters", "unbounded")["change"], 0.0);
}

#[test]
fn names_on_one_side_and_failures_are_reported() {
    let r = json_report("gb_single_old.json", "gb_single_new.json");
    assert_eq!(r["only_old"], serde_json::json!(["BM_OnlyOld"]));
    assert_eq!(r["only_new"], serde_json::json!(["BM_OnlyNew"]));
    assert_eq!(r["failures"][0]["name"], "BM_Fragile");
    assert_eq!(r["failures"][0]["side"], "new");
    assert_eq!(
        r["failures"][0]["message"],
        "resource unavailable in this build"
    );
    let out = compare([
        fixture("gb_single_old.json").as_os_str(),
        fixture("gb_single_new.json").as_os_str(),
    ]);
    let text = expect_code(&out, 0);
    for line in [
        "only in old: BM_OnlyOld",
        "only in new: BM_OnlyNew",
        "failed in new: BM_Fragile: resource unavailable in this build",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn fail_above_5_fails_on_10_percent_and_passes_on_2_percent() {
    let run = |new: &str, extra: &[&str]| {
        let mut args = vec![
            fixture("threshold_old.json").into_os_string(),
            fixture(new).into_os_string(),
        ];
        args.extend(extra.iter().map(Into::into));
        compare(args)
    };
    let out = run("threshold_new_10pct.json", &["--fail-above", "5"]);
    let text = expect_code(&out, 3);
    assert!(
        text.contains("FAIL: BM_Parse time +10.00% is past --fail-above 5%"),
        "{}",
        describe(&out)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("past --fail-above"));
    expect_code(&run("threshold_new_2pct.json", &["--fail-above", "5"]), 0);
    // Per metric: a 12% limit on cpu alone passes the 10% regression; a 1.5% limit on time fails
    // the 2% one.
    expect_code(
        &run("threshold_new_10pct.json", &["--fail-above", "cpu=12"]),
        0,
    );
    expect_code(
        &run("threshold_new_2pct.json", &["--fail-above=time=1.5"]),
        3,
    );
    // No limit, no failure.
    expect_code(&run("threshold_new_10pct.json", &[]), 0);
    // The JSON report lists the violations.
    let out = run(
        "threshold_new_10pct.json",
        &["--fail-above", "5", "--format", "json"],
    );
    let r = report(&expect_code(&out, 3));
    let names: Vec<_> = r["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                v["benchmark"].as_str().unwrap(),
                v["metric"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        names,
        ["BM_Parse time", "BM_Parse cpu"],
        "the geomean moved +4.88%, under the limit"
    );
}

#[test]
fn a_benchmark_failing_in_new_fails_the_threshold() {
    let out = compare([
        fixture("gb_single_old.json").as_os_str(),
        fixture("gb_single_new.json").as_os_str(),
        "--fail-above=cpu=1000".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 3));
    assert_eq!(r["violations"][0]["benchmark"], "BM_Fragile");
    assert_eq!(
        r["violations"][0]["failed"],
        "resource unavailable in this build"
    );
}

#[test]
fn markdown_and_csv_carry_the_same_rows() {
    let args = |format: &str| {
        compare([
            fixture("threshold_old.json").into_os_string(),
            fixture("threshold_new_10pct.json").into_os_string(),
            format!("--format={format}").into(),
        ])
    };
    let md = expect_code(&args("markdown"), 0);
    assert!(
        md.contains("| Benchmark | Metric | Old | New | Change | p-value |"),
        "{md}"
    );
    assert!(
        md.contains("| `BM_Parse` | time | 1.000 us | 1.100 us | +10.00% (worse) |  |"),
        "{md}"
    );
    let csv = expect_code(&args("csv"), 0);
    let lines: Vec<_> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "benchmark,row,metric,unit,better,old,new,change,p_value,significant,samples_old,samples_new"
    );
    let parse_row = lines
        .iter()
        .find(|l| l.starts_with("BM_Parse,single,time,"))
        .unwrap_or_else(|| panic!("{csv}"));
    let fields: Vec<_> = parse_row.split(',').collect();
    assert_eq!(&fields[3..7], ["ns", "lower", "1000", "1100"]);
    assert_4_decimals(fields[7].parse().unwrap(), 0.1, "csv change");
    // time, cpu for BM_Parse; time, cpu, bytes_per_second for BM_Encode; 2 geomean rows.
    assert_eq!(lines.len(), 1 + 2 + 3 + 2, "{csv}");
    let terminal = expect_code(&args("terminal"), 0);
    assert!(!terminal.contains('\x1b'), "no colors when not a terminal");
    let colored = compare([
        fixture("threshold_old.json").into_os_string(),
        fixture("threshold_new_10pct.json").into_os_string(),
        "--color=always".into(),
    ]);
    assert!(expect_code(&colored, 0).contains("\x1b[31m+10.00%"));
}

#[test]
fn filters_modes_rename_and_match_benchmarks_of_one_file() {
    let out = compare([
        "filters".as_ref(),
        fixture("gb_single_old.json").as_os_str(),
        "/1024".as_ref(),
        "/8192".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 0));
    let names: Vec<_> = r["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["BM_Accumulate[/1024 vs. /8192]"]);
    let doc = read_gbench(&fixture("gb_single_old.json"));
    let time = |name: &str| {
        doc["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .unwrap()["real_time"]
            .as_f64()
            .unwrap()
    };
    let (o, n) = (time("BM_Accumulate/1024"), time("BM_Accumulate/8192"));
    let m = metric(&r, "BM_Accumulate[/1024 vs. /8192]", "time");
    assert_4_decimals(m["change"].as_f64().unwrap(), (n - o) / o, "filters change");

    let out = compare([
        "benchmarksfiltered".as_ref(),
        fixture("gb_single_old.json").as_os_str(),
        "StringCopy".as_ref(),
        fixture("gb_single_new.json").as_os_str(),
        "StringCopy".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 0));
    assert_eq!(
        r["benchmarks"][0]["name"],
        "BM_[StringCopy vs. StringCopy]/64"
    );
    assert_eq!(r["benchmarks"].as_array().unwrap().len(), 1);
    assert_eq!(r["only_old"], serde_json::json!([]));
}

#[test]
fn bad_inputs_give_a_clear_error_naming_the_file() {
    let good = fixture("threshold_old.json");
    let cases: [(std::path::PathBuf, &[&str]); 4] = [
        (
            fixture("malformed.json"),
            &["malformed JSON", "malformed.json:"],
        ),
        (
            fixture("other_tool.json"),
            &["other_tool.json", "not a result file", "`results`"],
        ),
        (
            fixture("no_such_file.json"),
            &["no_such_file.json", "cannot read"],
        ),
        (
            fixture("benchgrind/no_summaries"),
            &["no_summaries", "holds no `summary.json`"],
        ),
    ];
    for (bad, wanted) in cases {
        let out = compare([good.as_os_str(), bad.as_os_str()]);
        assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        for w in wanted {
            assert!(err.contains(w), "{bad:?}: missing {w:?} in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_failing_program_is_named() {
    let dir = std::env::temp_dir().join(format!("benchgrind-compare-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("failing-bench");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'cannot open the database' >&2\nexit 4\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = compare([
        script.as_os_str(),
        fixture("threshold_old.json").as_os_str(),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot open the database"), "{err}");
    assert!(
        err.contains("failing-bench` failed (exit status: 4)"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_with_2() {
    let old = fixture("threshold_old.json");
    let cases: [&[&str]; 6] = [
        &[],
        &["only-one"],
        &["filters", "a", "b"],
        &["--format=yaml"],
        &["--fail-above=fast"],
        &["--alpha=2"],
    ];
    for extra in cases {
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        if extra.first().is_some_and(|a| a.starts_with("--")) {
            args.extend([old.clone().into_os_string(), old.clone().into_os_string()]);
        }
        args.extend(extra.iter().map(Into::into));
        let out = compare(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--help"));
    }
    let out = compare(["--help"]);
    assert!(expect_code(&out, 0).contains("benchmarksfiltered"));
    // Options for binaries make no sense with two files.
    let out = compare([
        old.as_os_str(),
        old.as_os_str(),
        "--".as_ref(),
        "--x".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
}

#[test]
fn the_json_report_has_the_fields_its_schema_requires() {
    let schema_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/compare.v1.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let keys = |v: &Value| -> Vec<String> {
        let mut k: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let required = |v: &Value| -> Vec<String> {
        let mut k: Vec<_> = v["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        k.sort();
        k
    };
    let out = compare([
        fixture("gb_single_old.json").as_os_str(),
        fixture("gb_single_new.json").as_os_str(),
        "--fail-above=5".as_ref(),
        "--format=json".as_ref(),
    ]);
    let r = report(&expect_code(&out, 3));
    assert_eq!(keys(&r), required(&schema));
    assert_eq!(
        keys(&r["benchmarks"][0]),
        required(&schema["properties"]["benchmarks"]["items"])
    );
    assert_eq!(
        keys(&r["benchmarks"][0]["metrics"][0]),
        required(&schema["$defs"]["metric"])
    );
    assert_eq!(
        keys(&r["failures"][0]),
        required(&schema["properties"]["failures"]["items"])
    );
    assert_eq!(
        keys(&r["violations"][0]),
        required(&schema["properties"]["violations"]["items"])
    );
    let reps = report(&expect_code(
        &compare([
            fixture("gb_reps5_old.json").as_os_str(),
            fixture("gb_reps5_new.json").as_os_str(),
            "--format=json".as_ref(),
        ]),
        0,
    ));
    let m = metric(&reps, "BM_StringCopy/64", "time");
    assert_eq!(
        keys(&m["repetitions"][0]),
        required(&schema["$defs"]["change"])
    );
    assert_eq!(
        keys(&m["u_test"]),
        required(&schema["$defs"]["metric"]["properties"]["u_test"]["oneOf"][1])
    );
}
