//! Failures are data: a broken definition file, an unknown engine, a runner that rejects its
//! KLV, hangs, crashes or reports a wrong count. Each is a clear error naming the file or the
//! benchmark and engine; every other benchmark is still measured; comparisons show the errors.
//! The runner is `tests/suite/misbehave/runner/main.py`, which misbehaves one way per engine.

#[path = "suite/common.rs"]
mod common;

use common::*;
use std::path::{Path, PathBuf};

fn misbehave() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/misbehave")
}

fn line_for<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix:?} in:\n{text}"))
}

#[test]
fn test_mode_reports_each_failure_and_runs_the_rest() {
    let o = output(benchgrind(&misbehave()).args(["measure", "-t", "--timeout", "2s"]));
    assert_code(&o, 1);
    let out = stdout(&o);
    assert_eq!(
        line_for(&out, "words/fox,count,py/ok,"),
        "words/fox,count,py/ok,1.2,OK"
    );
    assert_eq!(
        line_for(&out, "words/dog,count,py/ok,"),
        "words/dog,count,py/ok,1.2,OK"
    );
    assert_eq!(
        line_for(&out, "nested/typo/still-fine,"),
        "nested/typo/still-fine,count,py/ok,1.2,OK"
    );
    assert!(line_for(&out, "words/fox,count,py/wrong-count,")
        .contains("count mismatch: expected 3, got 4"));
    assert!(line_for(&out, "words/fox,count,py/hang,")
        .contains("timeout: the runner did not finish within 2.00s"));
    assert!(line_for(&out, "words/fox,count,py/bad-klv,")
        .contains("exited with status 1; last line of stderr: bad KLV length for key 'name'"));
    assert!(line_for(&out, "words/fox,count,py/crash,")
        .contains("crashed (killed by signal 6, SIGABRT)"));
    assert!(line_for(&out, "words/fox,count,py/nope,")
        .contains("engine 'py/nope' is not defined in benchmarks/engines.toml"));
    assert!(line_for(&out, "words/dog,count,py/wrong-count,")
        .contains("no `count` entry matching engine 'py/wrong-count'"));
    assert_eq!(out.lines().count(), 9, "{out}");

    let err = stderr(&o);
    for want in [
        "benchmarks/definitions/broken.toml:6: invalid TOML:",
        "benchmarks/definitions/nested/typo.toml:4: invalid TOML: unknown field `regexx`",
        "benchmarks/definitions/words.toml:7: engine 'py/nope' is not defined",
        "benchgrind suite: error: 6 of 9 benchmark(s) failed the test",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn error_rows_are_kept_in_results_and_shown_by_every_comparison() {
    let tmp = Scratch::new("errors");
    let json = tmp.0.join("res.json");
    let o = output(
        benchgrind(&misbehave())
            .args([
                "measure",
                "--max-time",
                "20ms",
                "--timeout",
                "2s",
                "--format",
                "json",
                "-o",
            ])
            .arg(&json),
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "benchgrind suite: error: 6 of 9 benchmark(s) failed (their rows have `err` set):"
        ),
        "{err}"
    );
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(
        text.contains("\"format\": \"benchgrind-suite-results\"")
            && text.contains("\"version\": 1"),
        "{text}"
    );
    assert_eq!(text.matches("\"engine\":").count(), 9, "{text}");

    let o = output(benchgrind(&misbehave()).args(["cmp"]).arg(&json));
    assert_code(&o, 0);
    let out = stdout(&o);
    let fox = line_for(&out, "words/fox ");
    assert_eq!(fox.matches("ERROR").count(), 5, "{out}");
    assert!(fox.contains("(1.00x)"), "{out}");
    assert!(out.contains("\nerrors (6):\n"), "{out}");
    assert!(out.contains("  words/fox py/hang: timeout:"), "{out}");

    let o = output(
        benchgrind(&misbehave())
            .args(["cmp", "--fail-above", "1000"])
            .arg(&json),
    );
    assert_code(&o, 3);
    assert!(
        stderr(&o).contains("words/fox py/crash: error: the runner crashed"),
        "{}",
        stderr(&o)
    );

    let o = output(benchgrind(&misbehave()).args(["rank"]).arg(&json));
    assert_code(&o, 0);
    assert!(stdout(&o).contains("errors (6):"), "{}", stdout(&o));

    let o = output(benchgrind(&misbehave()).args(["report"]).arg(&json));
    assert_code(&o, 0);
    let md = stdout(&o);
    assert!(
        md.contains("## Errors") && md.contains("- `words/fox` with `py/bad-klv`"),
        "{md}"
    );
}

#[test]
fn configuration_errors_name_the_file_and_usage_errors_exit_2() {
    let tmp = Scratch::new("config");
    let dir = tmp.0.join("benchmarks");
    std::fs::create_dir_all(dir.join("definitions")).unwrap();
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"a\"\n[engine.version]\nbin = \"true\"\n[engine.run]\nbin = 7\n",
    )
    .unwrap();
    let o = output(benchgrind(&tmp.0).arg("list"));
    assert_code(&o, 1);
    assert!(
        stderr(&o).starts_with("benchgrind suite: error: benchmarks/engines.toml:6: invalid TOML:"),
        "{}",
        stderr(&o)
    );

    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"a b\"\n[engine.version]\nfile = \"v\"\n[engine.run]\nbin = \"x\"\n",
    )
    .unwrap();
    let o = output(benchgrind(&tmp.0).arg("list"));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("benchmarks/engines.toml:2: engine 'a b': the name must match"),
        "{}",
        stderr(&o)
    );

    let o = output(benchgrind(&tmp.0).args(["klv", "nope/nothing"]));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("no benchmark named 'nope/nothing'"),
        "{}",
        stderr(&o)
    );

    for args in [
        &["measure", "--bogus"][..],
        &["nope"],
        &["measure", "--max-time", "3 weeks"],
        &["cmp"],
        &["cmp", "x.csv", "--fail-above", "-1"],
    ] {
        let o = output(benchgrind(&tmp.0).args(args));
        assert_code(&o, 2);
        assert!(
            stderr(&o).starts_with("benchgrind suite: error: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = output(benchgrind(&tmp.0).args(["measure", "--help"]));
    assert_code(&o, 0);
    assert!(stdout(&o).contains("--metric <time|instructions>"));
}

#[test]
fn klv_applies_regex_and_haystack_options_byte_for_byte() {
    let o = output(benchgrind(&misbehave()).args([
        "klv",
        "nested/typo/still-fine",
        "--max-iters",
        "3",
        "--max-time",
        "1ms",
        "--max-warmup-time",
        "2us",
    ]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "name:22:nested/typo/still-fine\nmodel:5:count\ncase-insensitive:4:true\nunicode:4:true\nmax-iters:1:3\n\
max-warmup-iters:1:0\nmax-time:7:1000000\nmax-warmup-time:4:2000\npattern:1:a\npattern:1:b\nhaystack:11:>two\nthree<\n"
    );
}

#[test]
fn verify_alone_prints_the_failures_and_verbose_adds_the_rest() {
    // Without the hanging engine, to keep the test short.
    let not_hang = ["-E", "hang", "--timeout", "5s"];
    let o = output(
        benchgrind(&misbehave())
            .args(["measure", "--verify"])
            .args(not_hang),
    );
    assert_code(&o, 1);
    let out = stdout(&o);
    assert!(!out.contains(",OK"), "{out}");
    assert!(
        line_for(&out, "words/fox,count,py/wrong-count,")
            .contains("count mismatch: expected 3, got 4"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 5, "{out}");
    let o = output(
        benchgrind(&misbehave())
            .args(["measure", "--verify", "--verbose"])
            .args(not_hang),
    );
    assert_code(&o, 1);
    let verbose = stdout(&o);
    assert_eq!(verbose.matches(",OK\n").count(), 3, "{verbose}");
    assert_eq!(verbose.lines().count(), 8, "{verbose}");
    let o = output(
        benchgrind(&misbehave())
            .args(["measure", "-t"])
            .args(not_hang),
    );
    assert_eq!(stdout(&o), verbose);

    // All passing, --verify prints nothing (the exit code is 1 for the broken files).
    let o = output(
        benchgrind(&misbehave()).args(["measure", "--verify", "-e", "^py/ok$", "-f", "^words/"]),
    );
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("2 problem(s) in the suite"),
        "{}",
        stderr(&o)
    );

    // Measuring with --verbose passes each runner's stderr on.
    let raw = |o: &std::process::Output| {
        stderr(o)
            .lines()
            .any(|l| l.starts_with("bad KLV length for key 'name'"))
    };
    let measure = ["measure", "-e", "^py/bad-klv$", "-f", "^words/fox$"];
    let o = output(benchgrind(&misbehave()).args(measure).arg("--verbose"));
    assert_code(&o, 1);
    assert!(raw(&o), "{}", stderr(&o));
    let o = output(benchgrind(&misbehave()).args(measure));
    assert!(!raw(&o), "{}", stderr(&o));
}
