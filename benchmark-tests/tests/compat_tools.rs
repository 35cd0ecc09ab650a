//! Benchmark code written for iai-callgrind and gungraun, built against benchgrind and run under
//! real Valgrind, for what the tools around Callgrind see: an `--outfile` modifier's files per
//! process, an entry point nothing entered, the bundled examples' profiles read in full, and a
//! user's `--toggle-collect` in every generation.

#[allow(dead_code)]
mod common;

use common::*;
use std::path::Path;
use std::process::Command;

#[test]
fn an_outfile_modifier_keeps_each_processs_file() {
    let (home, output) = run_exact("compat_lib", "compat_lib::configs::bench_child_process");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{report}");
    assert!(report.contains("DHAT"), "{report}");
    let dir = home
        .path()
        .join("benchgrind-compat-tests/compat_lib/configs/bench_child_process");
    // The benchmark's own process's file under the usual name, as JSON DHAT writes.
    let own = std::fs::read_to_string(dir.join("dhat.out")).unwrap();
    assert!(own.contains("\"dhatFileVersion\""), "{own}");
    // The child's (echo's) files in children/, named with its process id (beside the child's
    // Callgrind log of the benchmark's Callgrind run).
    let mut children: Vec<String> = std::fs::read_dir(dir.join("children"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("dhat."))
        .collect();
    children.sort();
    assert_eq!(children.len(), 2, "{children:?}");
    for (file, prefix) in children.iter().zip(["dhat.log.", "dhat.out."]) {
        let pid = file
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{file}"));
        assert!(pid.parse::<u32>().is_ok(), "{file}");
    }
    let child = std::fs::read_to_string(dir.join("children").join(&children[1])).unwrap();
    assert!(
        child.contains("echo"),
        "the child's profile names its command"
    );
    assert!(!dir
        .join(format!("dhat.out.new.{}", &children[1][9..]))
        .exists());
}

#[test]
fn an_entry_point_nothing_entered_warns() {
    let (_home, output) = run_exact(
        "compat_bin",
        "compat_bin::low_level_group::misnamed::nowhere",
    );
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{report}");
    assert!(
        report.contains(
            "Warning: nothing was counted: the entry point `echo::no_such_function` was never \
             entered"
        ),
        "{report}"
    );
    assert!(
        report.contains("Instructions:                   0|"),
        "{report}"
    );
}

#[test]
fn every_bundled_examples_profile_reads_in_full() {
    let examples = Path::new(HERE).parent().unwrap().join("examples");
    let benches: Vec<String> = std::fs::read_dir(examples.join("benches"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some(name.strip_suffix(".rs")?.to_owned())
        })
        .collect();
    assert!(benches.len() >= 20, "{benches:?}");
    let home = tempfile::tempdir().unwrap();
    for name in &benches {
        let exe = bench_binary("benchgrind-examples", name);
        let status = Command::new(&exe)
            .arg("--bench")
            .arg(format!("--home={}", home.path().display()))
            .current_dir(&examples)
            .env("BENCHGRIND_COLOR", "never")
            .output()
            .unwrap()
            .status;
        assert!(status.success(), "{name}: {status}");
    }
    // 127 benchmarks in the bundled files, each with a profile.
    let read = assert_profiles_read_in_full(home.path());
    assert!(read >= 120, "{read} profiles");
}

/// The Instructions of each benchmark of a run of bench `name` with `args`, by function name,
/// and the run's exit status and report.
fn toggle_run(name: &str, args: &[&str]) -> (Option<i32>, String, Vec<(String, u64)>) {
    let exe = bench_binary("benchgrind-compat-tests", name);
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(&exe)
        .arg("--bench")
        .arg(format!("--home={}", home.path().display()))
        .args(args)
        .current_dir(HERE)
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let counts = blocks(&report)
        .iter()
        .map(|b| {
            let name = b.header.rsplit("::").next().unwrap().to_owned();
            (name, b.get("Instructions"))
        })
        .collect();
    (output.status.code(), report, counts)
}

/// A user's `--toggle-collect`, in each API generation and on the command line, comes on top of
/// the benchmark's own count (as in iai-callgrind and gungraun): a pattern that matches nothing
/// the body calls counts what the body counts without it, and one that names a function the
/// body calls leaves that function out. Collection left off for the whole window fails the
/// benchmark, saying which arguments did it.
#[test]
fn a_users_toggle_collect_counts_the_benchmark_in_every_generation() {
    let count = |counts: &[(String, u64)], name: &str| {
        let found = counts.iter().find(|(n, _)| n == name);
        found.unwrap_or_else(|| panic!("no {name} in {counts:?}")).1
    };
    // 0.1's plain functions, against the same file without its `callgrind_args`.
    let (code, report, toggled) = toggle_run("toggles_v01", &[]);
    assert_eq!(code, Some(0), "{report}");
    let (_, _, none) = toggle_run("toggles_v01_none", &[]);
    assert_eq!(count(&toggled, "plain"), count(&none, "plain"), "{report}");
    let (with, without) = (
        count(&toggled, "calls_helper"),
        count(&none, "calls_helper"),
    );
    assert!(0 < with && with < without, "{with} vs {without}: {report}");

    // 0.13's raw_callgrind_args and 0.16's tool values, against the bodies without them.
    let (code, report, v13) = toggle_run("toggles_v13", &[]);
    assert_eq!(code, Some(0), "{report}");
    let plain = count(&v13, "plain");
    let helper = count(&v13, "calls_helper");
    let (code, report16, v16) = toggle_run("toggles_v16", &[]);
    assert_eq!(code, Some(0), "{report16}");
    for counts in [&v13, &v16] {
        assert_eq!(
            count(counts, "plain_toggled"),
            plain,
            "{report}\n{report16}"
        );
        let toggled = count(counts, "helper_toggled");
        assert!(
            plain < toggled && toggled < helper,
            "{toggled}: {report}\n{report16}"
        );
    }

    // The command line's, for every benchmark of the run.
    let args = ["--callgrind-args=--toggle-collect=*helper_square_sum*"];
    let (code, report, line) = toggle_run("toggles_v13", &args);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(count(&line, "plain"), plain, "{report}");
    assert_eq!(
        count(&line, "calls_helper"),
        count(&v13, "helper_toggled"),
        "{report}"
    );

    // Collection off for the whole window is never a silent pass.
    let (code, report, _) = toggle_run("toggles_v13", &["--callgrind-args=--collect-atstart=no"]);
    assert_ne!(code, Some(0), "{report}");
    assert!(
        report.contains("nothing was counted: its Callgrind arguments `--collect-atstart=no`"),
        "{report}"
    );
}
