//! Exact reuse of results: a benchmark whose recorded inputs are all unchanged is reported as
//! it was, marked reused, without running; changing one input (a fixture file it reads, a
//! variable its configuration gives it, its command's argument) runs exactly the benchmark that
//! depends on it; `--fresh` measures everything; `--verify-reuse` measures what would have been
//! reused and fails, naming what the record lacks, when a count differs.

mod common;

use std::path::Path;

use common::{blocks, run, stdout};

const LIB: &str = env!("CARGO_BIN_EXE_e2e_reuse");
const BIN: &str = env!("CARGO_BIN_EXE_e2e_reuse_bin");

/// A run in `dir` with its own home; `envs` come after the defaults (reuse on, loops 10,
/// argument 10).
fn bench(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> (String, String, i32) {
    bench_of(LIB, dir, args, envs)
}

/// [`bench`] of the binary benchmark.
fn bench_bin(dir: &Path, envs: &[(&str, &str)]) -> (String, String, i32) {
    bench_of(BIN, dir, &[], envs)
}

fn bench_of(bin: &str, dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> (String, String, i32) {
    let home = format!("--home={}", dir.join("home").display());
    let fixture = dir.join("reuse-fixture.txt").display().to_string();
    let mut all_args = vec![home.as_str()];
    all_args.extend_from_slice(args);
    let mut all_envs = vec![
        ("BENCHGRIND_VERIFY_REUSE", "no"),
        ("E2E_REUSE_LOOPS", "10"),
        ("E2E_REUSE_ARG", "10"),
        ("E2E_REUSE_FIXTURE", &fixture),
    ];
    all_envs.extend_from_slice(envs);
    let out = run(bin, &all_args, dir, &all_envs);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (stdout(&out), stderr, out.status.code().unwrap_or(-1))
}

/// The headers of the blocks the report marks reused, and of those it does not.
fn split(report: &str) -> (Vec<String>, Vec<String>) {
    let (mut reused, mut measured) = (Vec::new(), Vec::new());
    let mut header = None;
    for line in report.lines() {
        if line.starts_with("benchgrind:") {
            break;
        }
        if !line.is_empty() && !line.starts_with(' ') {
            if let Some(h) = header.replace(line.to_owned()) {
                measured.push(h);
            }
        } else if line.trim_start().starts_with("Reused:") {
            reused.extend(header.take());
        }
    }
    measured.extend(header);
    let name = |h: &String| h.split_whitespace().next().unwrap_or("").to_owned();
    (
        reused.iter().map(name).collect(),
        measured.iter().map(name).collect(),
    )
}

const FIXTURE: &str = "e2e_reuse::lib::fixture";
const ENV: &str = "e2e_reuse::lib::env";
const UNTOUCHED: &str = "e2e_reuse::lib::untouched";
const ARGUMENT: &str = "e2e_reuse_bin::bin::argument";

#[test]
fn a_second_run_reuses_every_benchmark_with_the_counts_of_the_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("reuse-fixture.txt"), "abc").unwrap();
    let (first, _, code) = bench(dir.path(), &[], &[]);
    assert_eq!(code, 0, "{first}");
    assert_eq!(split(&first).0, Vec::<String>::new(), "{first}");
    let (second, _, code) = bench(dir.path(), &["--save-summary"], &[]);
    assert_eq!(code, 0, "{second}");
    let (reused, measured) = split(&second);
    assert_eq!(reused, [FIXTURE, ENV, UNTOUCHED], "{second}");
    assert!(measured.is_empty(), "{second}");
    assert!(
        second.contains(": 3 benchmarks in ")
            && second.contains(": 0 measured, 3 reused, 0 failed"),
        "{second}"
    );
    // The same counts, compared with the first run's as a run's would be.
    let (a, b) = (blocks(&first), blocks(&second));
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(a.get("Instructions"), b.get("Instructions"), "{}", a.header);
        assert!(b.metrics.iter().all(|m| m.3.contains("No change")), "{b:?}");
    }
    // The summary says when they were measured.
    let summary = dir
        .path()
        .join("home/benchgrind-e2e/e2e_reuse/lib/fixture/summary.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(summary).unwrap()).unwrap();
    let at = json["reused"]
        .as_str()
        .expect("a reused summary names its date");
    assert!(at.len() == 20 && at.ends_with('Z'), "{at}");
}

#[test]
fn changing_one_input_runs_exactly_the_benchmark_that_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = dir.path().join("reuse-fixture.txt");
    std::fs::write(&fixture, "abc").unwrap();
    bench(dir.path(), &[], &[]);
    bench_bin(dir.path(), &[]);
    let (before, _, _) = bench(dir.path(), &[], &[]);
    assert_eq!(split(&before).1, Vec::<String>::new(), "{before}");
    let (before_bin, _, _) = bench_bin(dir.path(), &[]);
    assert_eq!(
        split(&before_bin),
        (vec![ARGUMENT.into()], vec![]),
        "{before_bin}"
    );
    let count = |report: &str, id: &str| {
        let block = blocks(report)
            .into_iter()
            .find(|b| b.header.starts_with(id))
            .unwrap();
        block.get("Instructions")
    };

    // The fixture file's contents.
    std::fs::write(&fixture, "abcdefghijklmnopqrstuvwxyz").unwrap();
    let (after, _, code) = bench(dir.path(), &[], &[]);
    assert_eq!(code, 0, "{after}");
    assert_eq!(
        split(&after),
        (vec![ENV.into(), UNTOUCHED.into()], vec![FIXTURE.into()]),
        "{after}"
    );
    // A library benchmark's file is no input of the binary benchmark's.
    let (bin_after, _, _) = bench_bin(dir.path(), &[]);
    assert_eq!(split(&bin_after).1, Vec::<String>::new(), "{bin_after}");
    assert_ne!(count(&after, FIXTURE), count(&before, FIXTURE));
    // Removed, the file is an input still: its absence runs the benchmark again.
    std::fs::remove_file(&fixture).unwrap();
    let (gone, _, _) = bench(dir.path(), &[], &[]);
    assert_eq!(split(&gone).1, [FIXTURE], "{gone}");

    // The variable its configuration gives it.
    let (env, _, _) = bench(dir.path(), &[], &[("E2E_REUSE_LOOPS", "500")]);
    assert_eq!(split(&env).1, [ENV], "{env}");
    assert!(count(&env, ENV) > count(&before, ENV));

    // Its command's argument.
    let (arg, _, _) = bench_bin(dir.path(), &[("E2E_REUSE_ARG", "2000")]);
    assert_eq!(split(&arg).1, [ARGUMENT], "{arg}");
    assert!(count(&arg, ARGUMENT) > count(&before_bin, ARGUMENT));
    // ... which the library benchmarks' harness does not read: they are reused.
    let (lib, _, _) = bench(
        dir.path(),
        &[],
        &[("E2E_REUSE_LOOPS", "500"), ("E2E_REUSE_ARG", "2000")],
    );
    assert!(split(&lib).1.is_empty(), "{lib}");
    let (again, _, _) = bench_bin(dir.path(), &[("E2E_REUSE_ARG", "2000")]);
    assert!(split(&again).1.is_empty(), "{again}");
}

#[test]
fn fresh_measures_everything_and_verify_reuse_fails_where_the_record_missed_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = dir.path().join("reuse-fixture.txt");
    std::fs::write(&fixture, "abc").unwrap();
    bench(dir.path(), &[], &[]);
    let (fresh, _, _) = bench(dir.path(), &["--fresh"], &[]);
    assert_eq!(split(&fresh).0, Vec::<String>::new(), "{fresh}");
    assert!(fresh.contains(": 3 measured, 0 failed"), "{fresh}");

    let (verified, stderr, code) = bench(dir.path(), &["--verify-reuse"], &[]);
    assert_eq!(code, 0, "{verified}{stderr}");
    assert!(verified.contains(": 3 measured, 0 failed"), "{verified}");
    assert!(
        stderr.contains("--verify-reuse: 3 benchmarks whose record of inputs matched"),
        "{stderr}"
    );

    // A record that lacks the fixture (as one would if benchgrind missed how it was read):
    // reuse would be wrong after the file changes, and --verify-reuse says so.
    let record = dir
        .path()
        .join("home/benchgrind-e2e/e2e_reuse/lib/fixture/inputs");
    let text = std::fs::read_to_string(&record).unwrap();
    let line = format!("file\t{}\t", fixture.display());
    assert!(text.contains(&line), "{text}");
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with(&line))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&record, without).unwrap();
    std::fs::write(&fixture, "a longer fixture than before").unwrap();
    let (caught, _, code) = bench(dir.path(), &["--verify-reuse"], &[]);
    assert_ne!(code, 0, "{caught}");
    let failed = blocks(&caught)
        .into_iter()
        .find(|b| b.header.starts_with(FIXTURE))
        .and_then(|b| b.failed)
        .unwrap_or_default();
    assert!(
        failed.contains("--verify-reuse: its record of inputs matched")
            && failed.contains("Ir")
            && failed.contains(&format!(
                "this run's record differs in: {}",
                fixture.display()
            )),
        "{caught}"
    );
    // The others passed.
    assert!(caught.contains(": 2 measured, 1 failed"), "{caught}");
}
