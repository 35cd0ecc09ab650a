//! The CI workflow's steps (`templates/benchgrind-ci.sh`, which `templates/github/benchmarks.yml` runs) on
//! `e2e_explain`: main's counts saved by three shares, a change measured by three shares and
//! merged gives the report, the Bencher file and the exit status of one whole run; the report
//! renders with cmark-gfm (tables, the changed functions in `<details>`); the Bencher file
//! validates against the documented format; `--output-file` writes what stdout would show.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{cli, cmark_gfm, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_explain");
const MAIN: [(&str, &str); 2] = [("E2E_EXTRA", "100"), ("E2E_INLINE", "0")];
const CHANGED: [(&str, &str); 2] = [("E2E_EXTRA", "150"), ("E2E_INLINE", "1")];

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates/benchgrind-ci.sh")
}

/// Runs the script with `args`, its directory `dir`, share homes below `tmp`.
fn step(cli: &Path, tmp: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let home = match args {
        ["share", k, _] => tmp.join(format!("home-{k}")),
        _ => tmp.join("home"),
    };
    let output = Command::new("bash")
        .arg(script())
        .args(args)
        .current_dir(tmp)
        .env("BENCHGRIND_CI_DIR", tmp.join("ci"))
        .env("BENCHGRIND_CI_HOME", home)
        .env("BENCHGRIND_CI_BENCH", format!("{BIN} --bench"))
        .env("BENCHGRIND", cli)
        .env("BENCHGRIND_COLOR", "never")
        .envs(envs.iter().copied())
        .output()
        .expect("bash runs");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn merge(cli: &Path, format: &str, input: &Path) -> Output {
    Command::new(cli)
        .args([
            "merge",
            "--color=never",
            &format!("--output-format={format}"),
        ])
        .arg(input)
        .output()
        .unwrap()
}

fn bmf_schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/bmf.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema is a valid JSON Schema")
}

#[test]
fn three_shares_merged_are_one_whole_run() {
    let Some(cli) = cli() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    let save = [("BENCHGRIND_CI_SAVE", "yes")];
    for k in ["1", "2", "3"] {
        let envs: Vec<_> = MAIN.iter().chain(&save).copied().collect();
        let share = step(&cli, tmp, &["share", k, "3"], &envs);
        assert!(share.status.success());
    }
    std::fs::remove_dir_all(tmp.join("ci")).unwrap();
    let mut sizes = Vec::new();
    for k in ["1", "2", "3"] {
        let share = step(&cli, tmp, &["share", k, "3"], &CHANGED);
        assert!(share.status.success());
        let lines = std::fs::read_to_string(tmp.join(format!("ci/share-{k}.json"))).unwrap();
        sizes.push(lines.lines().count());
    }
    // Two benchmarks in three shares: one share is empty, as CI matrices can be.
    assert_eq!(sizes.iter().filter(|&&n| n == 0).count(), 1, "{sizes:?}");
    let merged = step(&cli, tmp, &["merge"], &[]);

    // One whole run: main's counts saved, then the change, as one summary per line.
    let whole_home = format!("--home={}", tmp.join("whole").display());
    let save_main = run(BIN, &[&whole_home, "--save-baseline=main"], tmp, &MAIN);
    assert!(save_main.status.success());
    let whole = run(
        BIN,
        &[&whole_home, "--baseline=main", "--output-format=json"],
        tmp,
        &CHANGED,
    );
    assert_eq!(merged.status.code(), whole.status.code());
    let lines: usize = sizes.iter().sum();
    assert_eq!(lines, stdout(&whole).lines().count(), "each benchmark once");
    let whole_file = tmp.join("whole.json");
    std::fs::write(&whole_file, stdout(&whole)).unwrap();

    let bencher = std::fs::read_to_string(tmp.join("ci/bencher.json")).unwrap();
    assert_eq!(bencher, stdout(&merge(&cli, "bmf", &whole_file)));
    let report = std::fs::read_to_string(tmp.join("ci/report.md")).unwrap();
    assert_eq!(report, stdout(&merge(&cli, "markdown", &whole_file)));

    let document: serde_json::Value = serde_json::from_str(&bencher).unwrap();
    let errors: Vec<String> = bmf_schema()
        .iter_errors(&document)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?} in {bencher}");
    let benchmarks = document.as_object().unwrap();
    assert_eq!(benchmarks.len(), lines);
    for measures in benchmarks.values() {
        assert!(measures["instructions"]["value"].as_u64().unwrap() > 0);
    }

    let html = cmark_gfm(&report);
    assert!(html.contains("<table>"), "{html}");
    assert!(html.contains("<details>"), "{html}");
    for id in benchmarks.keys() {
        let function = id.rsplit("::").nth(1).unwrap();
        assert!(html.contains(function), "{function} in {html}");
    }
}

#[test]
fn output_file_holds_what_stdout_would_show() {
    let tmp = tempfile::tempdir().unwrap();
    let home = format!("--home={}", tmp.path().display());
    let file = tmp.path().join("out/bencher.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let to_file = run(
        BIN,
        &[
            &home,
            "--output-format=bmf",
            &format!("--output-file={}", file.display()),
        ],
        tmp.path(),
        &MAIN,
    );
    assert!(to_file.status.success());
    assert_eq!(stdout(&to_file), "");
    let to_stdout = run(BIN, &[&home, "--output-format=bmf"], tmp.path(), &MAIN);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout(&to_stdout));
    let document: serde_json::Value = serde_json::from_str(&stdout(&to_stdout)).unwrap();
    assert!(bmf_schema().is_valid(&document));
    let empty = run(BIN, &[&home, "--output-file="], tmp.path(), &MAIN);
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("--output-file"));
}
