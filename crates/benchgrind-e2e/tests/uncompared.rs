//! Fail closed (issue 35): with `--baseline=NAME`, a benchmark that has no baseline of its own
//! machine and revision (none saved for it, one saved on a machine with another fingerprint,
//! one saved at another revision than `--baseline-revision`) is reported as `uncompared` in
//! the terminal report, its tally, the JSON summary and the markdown comment, and with
//! `--uncompared=fail` the run exits with 4. The markdown names both sides' revisions and
//! machines. End to end on `e2e_regress` (three benchmarks).

mod common;

use std::path::Path;

use common::{run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_regress");
const STRICT: &str = "e2e_regress::limit_5::strict::loop_work";
const UNCHANGED: &str = "e2e_regress::limit_5::unchanged::fixed";
const TWENTY: &str = "e2e_regress::limit_20::lenient::loop_work";

fn home_arg(home: &Path) -> String {
    format!("--home={}", home.display())
}

#[test]
fn benchmarks_without_a_baseline_of_their_machine_and_revision_are_counted_and_can_fail_the_run() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let work = [("E2E_WORK", "1000"), ("BENCHGRIND_REVISION", "")];
    // A baseline of one benchmark only, saved at a known revision.
    let base_rev = "1111111111111111111111111111111111111111";
    let saved = run(
        BIN,
        &[&h, "--save-baseline=main", "limit_5::strict"],
        home.path(),
        &[("E2E_WORK", "1000"), ("BENCHGRIND_REVISION", base_rev)],
    );
    assert_eq!(saved.status.code(), Some(0), "{}", stdout(&saved));

    // Notice, the default: the run passes and says which two were not compared.
    let notice = run(BIN, &[&h, "--baseline=main"], home.path(), &work);
    let report = stdout(&notice);
    assert_eq!(notice.status.code(), Some(0), "{report}");
    assert!(
        report.contains("3 measured, 0 failed, 0 regressed, 2 uncompared"),
        "{report}"
    );
    for id in [UNCHANGED, TWENTY] {
        assert!(
            report.contains(&format!(
                "UNCOMPARED {id}: no baseline `main` is saved for it"
            )),
            "{report}"
        );
    }
    assert!(
        !report.contains(&format!("UNCOMPARED {STRICT}")),
        "{report}"
    );
    assert!(
        report.contains("  Uncompared: no baseline `main` is saved for it"),
        "{report}"
    );

    // Fail: the same run exits with 4; the JSON summary says why per benchmark.
    let failed = run(
        BIN,
        &[
            &h,
            "--baseline=main",
            "--uncompared=fail",
            "--output-format=json",
        ],
        home.path(),
        &work,
    );
    assert_eq!(failed.status.code(), Some(4), "{}", stdout(&failed));
    let summaries: Vec<serde_json::Value> = stdout(&failed)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(summaries.len(), 3);
    let why = |id: &str| {
        let s = summaries.iter().find(|s| s["id"] == id).unwrap();
        s["uncompared"].as_str().map(str::to_owned)
    };
    assert_eq!(why(STRICT), None);
    assert_eq!(
        why(UNCHANGED).as_deref(),
        Some("no baseline `main` is saved for it")
    );
    let strict = summaries.iter().find(|s| s["id"] == STRICT).unwrap();
    assert_eq!(strict["old_fingerprint"]["revision"], base_rev);
    assert_eq!(strict["version"], 7);
    // The variable sets the same policy.
    let by_variable = run(
        BIN,
        &[&h, "--baseline=main"],
        home.path(),
        &[("E2E_WORK", "1000"), ("BENCHGRIND_UNCOMPARED", "fail")],
    );
    assert_eq!(by_variable.status.code(), Some(4));

    // The revision the baseline must have measured: another one's is uncompared.
    let other_rev = run(
        BIN,
        &[&h, "--baseline=main", "--baseline-revision=2222222", STRICT],
        home.path(),
        &work,
    );
    let report = stdout(&other_rev);
    assert!(
        report.contains(&format!(
            "UNCOMPARED {STRICT}: baseline `main` measured 111111111111, not 2222222"
        )),
        "{report}"
    );
    let same_rev = run(
        BIN,
        &[
            &h,
            "--baseline=main",
            "--baseline-revision=1111111",
            "--uncompared=fail",
            STRICT,
        ],
        home.path(),
        &work,
    );
    assert_eq!(same_rev.status.code(), Some(0), "{}", stdout(&same_rev));

    // A baseline from another machine: flagged in the markdown, its field in bold.
    let fingerprint =
        find(home.path(), "baseline.main.fingerprint.json").expect("the baseline's fingerprint");
    let text = std::fs::read_to_string(&fingerprint).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ours = json["valgrind"].as_str().unwrap().to_owned();
    json["valgrind"] = "valgrind-3.99.0".into();
    std::fs::write(&fingerprint, json.to_string()).unwrap();
    let md = run(
        BIN,
        &[&h, "--baseline=main", "--output-format=markdown", STRICT],
        home.path(),
        &work,
    );
    let markdown = stdout(&md);
    assert_eq!(md.status.code(), Some(0), "{markdown}");
    assert!(markdown.contains("### 1 uncompared"), "{markdown}");
    assert!(
        markdown.contains(&format!(
            "| `{STRICT}` | baseline `main` is from another machine (valgrind differ) |"
        )),
        "{markdown}"
    );
    assert!(markdown.contains("### Compared"), "{markdown}");
    assert!(
        markdown.contains(&format!("| baseline main | `{}` |", &base_rev[..12])),
        "{markdown}"
    );
    assert!(markdown.contains("| valgrind-3.99.0 |"), "{markdown}");
    assert!(markdown.contains(&format!("| **{ours}** |")), "{markdown}");
}

/// The first file named `name` below `dir`.
fn find(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}
