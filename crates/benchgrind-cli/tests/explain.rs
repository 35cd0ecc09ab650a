//! `benchgrind explain` end to end: real programs under real Callgrind, on their own (two
//! profiles) and as benchgrind benchmarks (a binary benchmark of a C program, library
//! benchmarks with saved baselines), checked against the totals the profiles state.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use benchgrind_runner::parse::profile::{self, Read};
use serde_json::Value;

/// The C programs of the runner's `explain` tests (`crates/benchgrind-runner/tests/explain/`).
fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benchgrind-runner/tests/explain")
        .join(name)
}

fn check(cmd: &mut Command) -> Output {
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?} ({e}); run `bash .ci/deps --tests` first"));
    assert!(
        output.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `deep.c` built as `<dir>/<variant>/prog` (with `-DEXTRA` for `b`): the helper two calls
/// below `work` does more in `b`.
fn deep(dir: &Path, variant: &str) -> PathBuf {
    let exe = dir.join(variant).join("prog");
    std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
    let mut cc = Command::new("cc");
    cc.args(["-O1", "-g"])
        .arg(source("deep.c"))
        .arg("-o")
        .arg(&exe);
    if variant == "b" {
        cc.arg("-DEXTRA");
    }
    check(&mut cc);
    exe
}

fn callgrind_profile(exe: &Path, out: &Path) {
    check(
        Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(exe),
    );
}

fn explain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_benchgrind"))
        .arg("explain")
        .args(args)
        .env_remove("BENCHGRIND_HOME")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The difference of the stated `Ir` totals of two profiles.
fn stated_ir_diff(old: &Path, new: &Path) -> i64 {
    let ir = |p: &Path| {
        profile::parse_file(p, Read::Totals)
            .unwrap()
            .total("Ir")
            .unwrap() as i64
    };
    ir(new) - ir(old)
}

/// Checks a JSON report against the committed schema.
fn assert_valid(json: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/explain.v1.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let errors: Vec<String> = validator.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?} in {json}");
}

/// Checks a terminal report of one benchmark: `helper` first, with the exact difference.
fn helper_first(text: &str, diff: i64) {
    let first = text
        .lines()
        .skip_while(|l| !l.contains("self diff"))
        .nth(1)
        .unwrap_or_else(|| panic!("no function listed: {text}"));
    let fields: Vec<&str> = first.split_whitespace().collect();
    assert_eq!(fields[0], format!("+{diff}"), "{text}");
    assert_eq!(fields[4], "helper", "{text}");
    let total = text.lines().find(|l| l.contains(" total (")).unwrap();
    assert_eq!(total.split_whitespace().next(), Some(&*format!("+{diff}")));
}

#[test]
fn two_profiles_of_any_program() {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = (tmp.path().join("old.out"), tmp.path().join("new.out"));
    callgrind_profile(&deep(tmp.path(), "a"), &old);
    callgrind_profile(&deep(tmp.path(), "b"), &new);
    let (o, n) = (old.to_str().unwrap(), new.to_str().unwrap());
    let diff = stated_ir_diff(&old, &new);
    assert!(diff > 0);

    let text = stdout(&explain(&[o, n, "--lines", "--top", "3"]));
    println!("{text}");
    helper_first(&text, diff);
    assert!(text.contains("at explain/deep.c:"), "{text}");

    // JSON: the full list; the self differences of all functions add up to the total's.
    let json: Value =
        serde_json::from_str(&stdout(&explain(&[o, n, "--output-format=json"]))).unwrap();
    assert_valid(&json);
    let e = &json["benchmarks"][0]["explanation"];
    assert_eq!(e["functions"][0]["name"], "helper");
    for metric in e["metrics"].as_array().unwrap() {
        let m = metric.as_str().unwrap();
        let sum: i64 = e["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["self"][m]["diff"].as_i64().unwrap())
            .sum();
        assert_eq!(sum, e["total"][m]["diff"].as_i64().unwrap(), "{m}");
    }
    assert_eq!(e["total"]["Ir"]["diff"], diff);

    let markdown = stdout(&explain(&[o, n, "--output-format=markdown"]));
    assert!(
        markdown.contains("<details>") && markdown.contains("| `helper` |"),
        "{markdown}"
    );
}

#[test]
fn damaged_profiles_and_wrong_usage() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.out");
    let bad = tmp.path().join("bad.out");
    std::fs::write(&good, "events: Ir\nfn=a\n1 5\n").unwrap();
    std::fs::write(&bad, "events: Ir\nfn=a\n1 5\ncfn=b\ncalls=1 2\n3 x\n").unwrap();
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let out = explain(&[g, b]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{b}:6: `x` is not a count")), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    for (args, words) in [
        (vec![g], "must be a directory"),
        (vec![g, g, g], "got 3 arguments"),
        (vec![g, g, "--metric=Cycles"], "no metric"),
        (vec!["--home", "x", g, g], "no baseline is named"),
    ] {
        let out = explain(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{args:?}: {err}");
    }
    let out = explain(&[g, "missing.out"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`missing.out` does not exist"));
}

/// An e2e bench program: from next to `benchgrind` when the workspace build put it there, else
/// built into Cargo's temporary folder for tests.
fn e2e(bin: &str) -> PathBuf {
    let beside = Path::new(env!("CARGO_BIN_EXE_benchgrind")).with_file_name(bin);
    if beside.is_file() {
        return beside;
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    check(
        Command::new(cargo)
            .args([
                "build",
                "-p",
                "benchgrind-e2e",
                "--bin",
                bin,
                "--target-dir",
            ])
            .arg(&target)
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    target.join("debug").join(bin)
}

#[test]
fn a_binary_benchmark_against_its_previous_run() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let bench = e2e("e2e_bin");
    for variant in ["a", "b"] {
        let exe = deep(tmp.path(), variant);
        check(
            Command::new(&bench)
                // `--bench` as `cargo bench` passes it: under `cargo test` a bench binary
                // would otherwise run in test mode.
                .arg("--bench")
                .arg(format!("--home={}", home.display()))
                .arg("c_program")
                .env("E2E_C_PROGRAM", exe),
        );
    }
    let dir = home.join("benchgrind-e2e/e2e_bin/programs/c_program.thousand");
    let diff = stated_ir_diff(&dir.join("callgrind.out.old"), &dir.join("callgrind.out"));
    // The benchmark directory, and the home above it.
    for root in [&dir, &home] {
        let text = stdout(&explain(&[root.to_str().unwrap()]));
        println!("{text}");
        assert!(
            text.starts_with("e2e_bin::programs::c_program::thousand\n"),
            "{text}"
        );
        helper_first(&text, diff);
    }
}

#[test]
fn library_benchmarks_between_saved_baselines() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let h = home.to_str().unwrap();
    let bench = e2e("e2e_regress");
    for (work, name) in [("1000", "before"), ("1100", "after")] {
        check(
            Command::new(&bench)
                .arg("--bench")
                .args([&format!("--home={h}"), &format!("--save-baseline={name}")])
                .env("E2E_WORK", work),
        );
    }
    let json: Value = serde_json::from_str(&stdout(&explain(&[
        "--home",
        h,
        "before",
        "after",
        "--format=json",
    ])))
    .unwrap();
    assert_valid(&json);
    let benches = json["benchmarks"].as_array().unwrap();
    let ids: Vec<&str> = benches.iter().map(|b| b["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "e2e_regress::limit_20::lenient::loop_work",
            "e2e_regress::limit_5::strict::loop_work",
            "e2e_regress::limit_5::unchanged::fixed",
        ]
    );
    let dir = home.join("benchgrind-e2e/e2e_regress/limit_5/strict.loop_work");
    let diff = stated_ir_diff(
        &dir.join("baseline.before.callgrind.out"),
        &dir.join("baseline.after.callgrind.out"),
    );
    // 100 more loop iterations, all in the function that holds the loop.
    assert!(diff > 0);
    let strict = &benches[1]["explanation"];
    assert_eq!(strict["total"]["Ir"]["diff"], diff);
    assert_eq!(strict["functions"][0]["self"]["Ir"]["diff"], diff);
    assert_eq!(benches[2]["explanation"]["total"]["Ir"]["diff"], 0);

    // The last run against a baseline, as `--baseline=before` compares it.
    let text = stdout(&explain(&["--baseline", "before", h]));
    assert!(text.contains(&format!("(+{diff}), by function:")), "{text}");
}
