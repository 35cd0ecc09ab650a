//! Two runs of one bench binary on one home at once, as two terminals or two CI steps sharing a
//! cache start them: the second waits for the first (saying so once), both complete, and every
//! profile, log and baseline is whole, none left half-written or temporary.

#[path = "common/procs.rs"]
mod procs;

use std::path::Path;
use std::time::{Duration, Instant};

use procs::{signal_group, spawn, wait_bounded, wait_for_lines};

const MANY: &str = env!("CARGO_BIN_EXE_e2e_many");
const HEADER: &str = "e2e_many::many_group::cheap ";
/// n_5 and n_50 to n_59 and n_500 to n_599: 111 benchmarks.
const FILTER: &str = "cheap::n_5";
const LIMIT: Duration = Duration::from_secs(120);

/// Whether a Callgrind profile is complete: it ends with its totals.
fn complete(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines()
            .any(|l| l.starts_with("totals:") || l.starts_with("summary:"))
    })
}

#[test]
fn two_runs_at_once_take_turns_and_leave_every_file_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    let home = tmp.join("home");
    std::fs::create_dir_all(tmp.join("tmp")).unwrap();
    let home_arg = format!("--home={}", home.display());
    let first_args = vec![home_arg.clone(), "--jobs=2".into(), FILTER.into()];
    let mut first = spawn(MANY, &first_args, tmp, &tmp.join("tmp"), "first");
    // The second starts once the first is measuring, so it finds the lock taken.
    wait_for_lines(&tmp.join("first.out"), HEADER, 1, LIMIT);
    let second_args = vec![
        home_arg,
        "--jobs=2".into(),
        "--save-baseline=x".into(),
        FILTER.into(),
    ];
    let mut second = spawn(MANY, &second_args, tmp, &tmp.join("tmp"), "second");
    let first_status = wait_bounded(&mut first, LIMIT);
    let second_status = wait_bounded(&mut second, LIMIT);
    let read = |name: &str| std::fs::read_to_string(tmp.join(name)).unwrap();
    assert_eq!(first_status.code(), Some(0), "{}", read("first.err"));
    assert_eq!(second_status.code(), Some(0), "{}", read("second.err"));
    let waited = read("second.err");
    assert_eq!(
        waited
            .matches("waiting for another benchmark run on")
            .count(),
        1,
        "{waited}"
    );
    assert!(
        waited.contains(&format!("(pid {})", first.id())),
        "{waited}"
    );
    for name in ["first.out", "second.out"] {
        let report = read(name);
        let measured = report.lines().filter(|l| l.starts_with(HEADER)).count();
        assert_eq!(measured, 111, "{name}: {report}");
        assert!(!report.contains("FAILED"), "{name}: {report}");
    }
    let group = home.join("benchgrind-e2e/e2e_many/many_group");
    let mut dirs = 0;
    for entry in std::fs::read_dir(&group).unwrap() {
        let dir = entry.unwrap().path();
        dirs += 1;
        for file in [
            "callgrind.out",
            "callgrind.out.old",
            "baseline.x.callgrind.out",
        ] {
            assert!(complete(&dir.join(file)), "{}/{file}", dir.display());
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                !name.ends_with(".new") && !name.contains(".tmp"),
                "{}/{name} left behind",
                dir.display()
            );
        }
    }
    assert_eq!(dirs, 111);
    assert!(!home.join(".servers").exists());
}

#[test]
fn ctrl_c_while_waiting_for_the_lock_ends_the_wait() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    std::fs::create_dir_all(tmp.join("tmp")).unwrap();
    let args = vec![
        format!("--home={}", tmp.join("home").display()),
        FILTER.into(),
    ];
    let mut first = spawn(MANY, &args, tmp, &tmp.join("tmp"), "first");
    wait_for_lines(&tmp.join("first.out"), HEADER, 1, LIMIT);
    let mut second = spawn(MANY, &args, tmp, &tmp.join("tmp"), "second");
    wait_for_lines(&tmp.join("second.err"), "benchgrind: waiting", 1, LIMIT);
    let at = Instant::now();
    signal_group(&second, libc::SIGINT);
    let status = wait_bounded(&mut second, LIMIT);
    let took = at.elapsed();
    let err = std::fs::read_to_string(tmp.join("second.err")).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert!(err.contains("; 111 not run"), "{err}");
    assert!(
        !std::fs::read_to_string(tmp.join("second.out"))
            .unwrap()
            .contains(HEADER),
        "the interrupted run measured something"
    );
    // The first run, holding the lock, goes on undisturbed.
    assert_eq!(wait_bounded(&mut first, LIMIT).code(), Some(0));
}
