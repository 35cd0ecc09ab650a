//! gungraun 0.20's perf tool under benchgrind (issue 49), on real bench processes (`e2e_perf`,
//! written for gungraun 0.20 with only the crate path changed): what it counts is the body's
//! window, not the setup; a body twice as slow is a significant change that fails a soft limit,
//! the same body twice is not significant; where perf is not allowed, the run says so and what
//! to change. Times are compared with each other within one run, never with fixed figures.

mod common;

use std::path::Path;
use std::process::Command;

use common::{run, stdout};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_e2e_perf");

/// One test at a time: each times code, and another test's processes on the other processor
/// would be part of what it measures.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The JSON summaries of a run (`--output-format=json`), by benchmark id.
fn summaries(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("a JSON summary"))
        .collect()
}

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema is a valid JSON Schema")
}

/// The perf metric `name` of the summary of the benchmark whose id ends with `id`.
fn metric<'a>(summaries: &'a [Value], id: &str, name: &str) -> &'a Value {
    let summary = summaries
        .iter()
        .find(|s| s["id"].as_str().is_some_and(|i| i.ends_with(id)))
        .unwrap_or_else(|| panic!("no summary of {id}"));
    summary["perf"]["metrics"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == name))
        .unwrap_or_else(|| panic!("no perf metric {name} in {summary}"))
}

#[test]
fn the_counters_run_in_the_body_not_in_the_setup() {
    let _one = serial();
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());
    let out = run(
        BIN,
        &[&h, "--output-format=json", "window"],
        home.path(),
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    let all = summaries(&out);
    assert_eq!(all.len(), 3, "{}", stdout(&out));
    let validator = schema();
    for summary in &all {
        let errors: Vec<String> = validator
            .iter_errors(summary)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{summary}");
        assert_eq!(summary["perf"]["metrics"][0]["unit"], "ns", "{summary}");
    }
    let mean = |id: &str| {
        metric(&all, id, "task-clock")["new"]["mean"]
            .as_f64()
            .unwrap()
    };
    let (long_setup, ten_times, manual) = (
        mean("long_setup_then::body"),
        mean("ten_times::body"),
        mean("manual::body"),
    );
    // The setup (and, in `manual`, the body outside the macros) does ten times the body's work:
    // counted, it would make the time about that of `ten_times`.
    assert!(
        long_setup * 4.0 < ten_times,
        "{long_setup} ns vs {ten_times} ns"
    );
    assert!(manual * 4.0 < ten_times, "{manual} ns vs {ten_times} ns");
    assert!(
        long_setup * 40.0 > ten_times,
        "{long_setup} ns vs {ten_times} ns"
    );
    for summary in &all {
        let n = metric(&all, summary["id"].as_str().unwrap(), "task-clock")["new"]["n"]
            .as_u64()
            .unwrap();
        assert!(n >= 5, "{summary}");
    }
    // Hardware events where the machine has a PMU; where it has none, the report says so.
    let first = &all[0];
    let counted = first["perf"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["name"] == "instructions");
    let said = first["perf"]["notes"].as_array().unwrap().iter().any(|n| {
        n.as_str()
            .unwrap()
            .starts_with("not counted here: cycles, instructions")
    });
    assert!(counted != said, "{first}");
}

#[test]
fn a_body_twice_as_slow_is_significant_and_fails_the_soft_limit() {
    let _one = serial();
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());
    let scaled = |factor: &str| {
        let envs = format!("--envs=E2E_PERF_FACTOR={factor}");
        run(BIN, &[&h, &envs, "--nocapture", "scaled"], home.path(), &[])
    };
    let first = scaled("1");
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    // perf_log! in the setup, shown with the benchmark's output (--nocapture: on stderr).
    let printed = String::from_utf8_lossy(&first.stderr);
    assert!(printed.contains("perf: factor 1"), "perf_log!: {printed}");

    // The same body again: a change within the spread of the rounds.
    let same = scaled("1");
    let report = stdout(&same);
    assert_eq!(same.status.code(), Some(0), "{report}");
    let line = report
        .lines()
        .find(|l| l.trim_start().starts_with("task-clock:"))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains(": not significant)"), "{report}");
    assert!(!report.contains("Performance has regressed"), "{report}");

    // Twice the work: significant, past the soft limit of 40 %, exit 3.
    let slow = scaled("2");
    let report = stdout(&slow);
    assert_eq!(slow.status.code(), Some(3), "{report}");
    let line = report
        .lines()
        .find(|l| l.trim_start().starts_with("task-clock:"))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains(": significant)"), "{report}");
    let pct: f64 = line
        .rsplit_once('(')
        .and_then(|(_, c)| c.split_once('%'))
        .and_then(|(p, _)| p.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((60.0..=160.0).contains(&pct), "{line}");
    assert!(
        report.contains("Performance has regressed: perf task-clock: +")
            && report.contains("is past the soft limit of +40% (task-clock*)"),
        "{report}"
    );
    assert!(report.contains("1 regressed"), "{report}");
}

/// Two shares of one run (`window`, and `scaled` twice, the second twice as slow), merged:
/// every benchmark's perf object as its share printed it (statistics, interval, verdict,
/// rounds, the soft limit passed), the limit counted in merge's exit status; `benchgrind report`
/// over the same files shows each perf metric's verdict and a chart of its rounds.
#[test]
fn merge_and_report_keep_perfs_statistics_and_verdicts() {
    let _one = serial();
    let Some(cli) = common::cli() else { return };
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());
    let json = "--output-format=json";
    let window = run(BIN, &[&h, json, "window"], home.path(), &[]);
    assert_eq!(window.status.code(), Some(0), "{}", stdout(&window));
    let first = run(
        BIN,
        &[&h, "--envs=E2E_PERF_FACTOR=1", "scaled"],
        home.path(),
        &[],
    );
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    let slow = run(
        BIN,
        &[&h, json, "--envs=E2E_PERF_FACTOR=2", "scaled"],
        home.path(),
        &[],
    );
    assert_eq!(slow.status.code(), Some(3), "{}", stdout(&slow));
    let shares = [("window.json", &window), ("scaled.json", &slow)];
    let mut printed = Vec::new();
    for (name, out) in shares {
        std::fs::write(home.path().join(name), stdout(out)).unwrap();
        printed.extend(summaries(out));
    }
    let scaled = metric(&printed, "scaled::body", "task-clock");
    let verdict = scaled["verdict"]
        .as_str()
        .unwrap_or_else(|| panic!("{scaled}"));
    assert!(scaled["interval_pct"].is_array(), "{scaled}");
    assert_eq!(
        scaled["new_rounds"].as_array().map(Vec::len),
        Some(5),
        "{scaled}"
    );

    let merged = Command::new(&cli)
        .args(["merge", "--color=never", json])
        .args(shares.map(|(name, _)| home.path().join(name)))
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(3), "{}", stdout(&merged));
    let merged = summaries(&merged);
    assert_eq!(merged.len(), printed.len());
    for share in &printed {
        let id = share["id"].as_str().unwrap();
        let again = merged.iter().find(|m| m["id"] == id).unwrap();
        assert!(share["perf"].is_object(), "{share}");
        assert_eq!(again["perf"], share["perf"], "{id}");
    }
    let validator = schema();
    for summary in &merged {
        let errors: Vec<String> = validator
            .iter_errors(summary)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{summary}");
    }

    let site = home.path().join("site");
    let out = Command::new(&cli)
        .arg("report")
        .arg(format!("--out={}", site.display()))
        .args(shares.map(|(name, _)| home.path().join(name)))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_dir(site.join("bench"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("scaled.body.html"))
        .expect("a page of scaled::body");
    let page = std::fs::read_to_string(page).unwrap();
    let section = &page[page.find("id=\"perf\"").expect("a perf section")..];
    assert!(
        section.contains(&format!(
            "data-metric=\"task-clock\" data-verdict=\"{verdict}\""
        )),
        "{section}"
    );
    // A dot per round of each side: five old, five new.
    let chart = &section[section.find("<svg").unwrap()..section.find("</svg>").unwrap()];
    assert!(chart.contains(">task-clock<"), "{chart}");
    assert_eq!(chart.matches("<circle").count(), 10, "{chart}");
}

#[test]
fn perf_without_permission_says_so_and_what_to_change() {
    let _one = serial();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("needs root to run the benchmark as a user without privileges; skipped");
        return;
    }
    const USER: &str = "benchgrind-perf";
    let exists = Command::new("id").arg(USER).output().unwrap();
    if !exists.status.success() {
        let made = Command::new("useradd")
            .args(["--system", "--no-create-home", "--shell", "/bin/sh", USER])
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
    }
    // Kernel time needs perf_event_paranoid 1 or less from a user: at 2 (most distributions'
    // default) counting it is refused, user space is allowed. Set to 2 for the test where it is
    // not (Debian's kernels start at 3 or 4, which refuse users everything).
    let paranoid = Path::new("/proc/sys/kernel/perf_event_paranoid");
    let before: i32 = std::fs::read_to_string(paranoid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    struct Restore(i32);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = std::fs::write("/proc/sys/kernel/perf_event_paranoid", self.0.to_string());
        }
    }
    let _restore = if before != 2 {
        if let Err(e) = std::fs::write(paranoid, "2") {
            eprintln!("perf_event_paranoid is {before} and cannot be set to 2 here ({e}); skipped");
            return;
        }
        Some(Restore(before))
    } else {
        None
    };
    let home = common::owned_by(USER);
    let as_user = |args: &[&str]| {
        let out = Command::new("setpriv")
            .args(["--reuid", USER, "--regid", USER, "--clear-groups"])
            .args([
                "--inh-caps=+dac_read_search",
                "--ambient-caps=+dac_read_search",
            ])
            .args(["env", "BENCHGRIND_COLOR=never", BIN, "--bench"])
            .arg(format!("--home={}", home.path().display()))
            .args(args)
            .current_dir(home.path())
            .output()
            .unwrap();
        (out.status.code(), stdout(&out))
    };
    let (code, report) = as_user(&["--perf-events=task-clock:k", "scaled"]);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("FAILED e2e_perf::scaled_group::scaled::body: perf: perf is not allowed")
            && report.contains("perf_event_paranoid is 2, and this event needs 1 or less")
            && report.contains("`sudo sysctl kernel.perf_event_paranoid=1`")
            && report.contains("--perf=no"),
        "{report}"
    );
    // User space alone is allowed at 2, and the report says kernel time is left out.
    let (code, report) = as_user(&["scaled"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.contains("perf: user space only: perf_event_paranoid is 2"),
        "{report}"
    );
    // --perf=no: Valgrind's counts alone.
    let (code, report) = as_user(&["--perf=no", "--perf-events=task-clock:k", "scaled"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(!report.contains("PERF"), "{report}");
}
