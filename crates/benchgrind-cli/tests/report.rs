//! `benchgrind report` on the real results committed for the `compare` tests
//! (`tests/compare/fixtures/benchgrind/`, see its README): a home with saved baselines, files of
//! summaries as `--output-format=json` and `benchgrind merge --output-format=json` print them,
//! several inputs like CI partitions, and bad inputs. The browser half is the e2e test
//! `crates/benchgrind-e2e/tests/report.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compare/fixtures/benchgrind")
        .join(name)
}

fn report(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_benchgrind"));
    cmd.arg("report");
    for a in args {
        cmd.arg(a);
    }
    cmd.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `data-value` of the `nth` cell of the row that `marker` starts.
fn cell(html: &str, marker: &str, nth: usize) -> String {
    let at = html.find(marker).unwrap_or_else(|| panic!("no `{marker}`"));
    let row = &html[at..at + html[at..].find("</tr>").unwrap()];
    let td = row.split("<td").nth(nth + 1).unwrap();
    td.split("data-value=\"")
        .nth(1)
        .map_or(String::new(), |v| v[..v.find('"').unwrap()].to_owned())
}

const STRICT: &str = "data-id=\"e2e_regress::limit_5::strict::loop_work\"";

#[test]
fn saved_baselines_are_read_from_their_profiles() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("site");
    let out = report(&[&"--out", &out_dir, &fixture("home"), &"--baseline=before"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    // The last run did E2E_WORK=1100 (Ir 9908); baseline `before` is 1000 (9008).
    assert_eq!(cell(&index, STRICT, 2), "9908");
    let vs_before: f64 = cell(&index, STRICT, 4).parse().unwrap();
    assert!((vs_before - 9.99112).abs() < 1e-4, "{vs_before}");
    let page = std::fs::read_to_string(
        out_dir.join("bench/benchgrind-e2e.e2e_regress.limit_5.strict.loop_work.html"),
    )
    .unwrap();
    assert!(page.contains("<th>Baseline after</th>") && page.contains("<th>Baseline before</th>"));
    assert!(page.contains("<td>9,008</td>"), "baseline before's Ir");
    assert!(page.contains("No history yet"), "this home has no history");

    // Without --baseline: the one the run compared with (`after`, the same values: ±0).
    let again = report(&[&"--out", &out_dir, &fixture("home")]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(cell(&index, STRICT, 4), "0");
}

#[test]
fn summary_files_and_partitions_are_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("site");
    // What `--output-format=json` and `benchgrind merge --output-format=json` print.
    let out = report(&[&"--out", &out_dir, &fixture("work1100.jsonl")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(index.matches("<tr class=").count(), 3);
    assert_eq!(cell(&index, STRICT, 2), "9908");
    // A run of `limit_5` only and the rest, as two partitions: each benchmark once.
    let lenient = tmp.path().join("lenient.jsonl");
    let text = std::fs::read_to_string(fixture("work1020.jsonl")).unwrap();
    let line = text.lines().find(|l| l.contains("lenient")).unwrap();
    std::fs::write(&lenient, format!("{line}\n")).unwrap();
    let out = report(&[
        &"--out",
        &out_dir,
        &fixture("limit_5_work1000.jsonl"),
        &lenient,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(index.matches("<tr class=").count(), 3);
    assert_eq!(cell(&index, STRICT, 2), "9008");
    // The same benchmark twice cannot be told apart.
    let out = report(&[
        &"--out",
        &out_dir,
        &fixture("work1000.jsonl"),
        &fixture("work1100.jsonl"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("e2e_regress::limit_5::strict::loop_work is there twice")
            && err.contains("work1000.jsonl:")
            && err.contains("work1100.jsonl:"),
        "{err}"
    );
}

#[test]
fn bad_inputs_name_the_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("site");
    let cases: [(&[&dyn AsRef<std::ffi::OsStr>], u8, &str); 5] = [
        (&[&"--frobnicate"], 2, "unknown option `--frobnicate`"),
        (&[&"--out"], 2, "--out needs a value"),
        (
            &[&"--out", &out_dir, &tmp.path().join("nothing")],
            1,
            "nothing does not exist",
        ),
        (
            &[&"--out", &out_dir, &fixture("malformed_summary.json")],
            1,
            "malformed_summary.json:1: not JSON",
        ),
        (
            &[&"--out", &out_dir, &fixture("no_summaries")],
            1,
            "no benchmark results in",
        ),
    ];
    for (args, code, message) in cases {
        let out = report(args);
        assert_eq!(out.status.code(), Some(i32::from(code)), "{}", stderr(&out));
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
    // A directory that is not a report is not written over.
    let foreign = tmp.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("index.html"), "<p>mine</p>").unwrap();
    let out = report(&[&"--out", &foreign, &fixture("work1000.jsonl")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not a benchgrind report"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(foreign.join("index.html")).unwrap(),
        "<p>mine</p>"
    );
}
