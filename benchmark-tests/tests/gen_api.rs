//! The API of iai-callgrind 0.15/0.16 (`gen16_api`) and gungraun 0.17-0.20 (`gen20_api`,
//! `gen20_api_bin`), run twice under real Valgrind: every benchmark runs (exit 0 both times,
//! the limits given in the code not passed), the headers are the same, every metric line of the
//! second run, of every tool, says the count did not change, and what the values configure shows
//! in the report (the metric groups' lines, the tools' sections, the grid marks).

#[allow(dead_code)]
mod common;

use common::*;

/// Both runs' reports: the second must change nothing.
fn twice(name: &str) -> (String, String) {
    let exe = bench_binary("benchgrind-compat-tests", name);
    let home = tempfile::tempdir().unwrap();
    let first = run(&exe, home.path(), HERE, &[]);
    let second = run(&exe, home.path(), HERE, &[]);
    (first, second)
}

/// The metric lines (`label: new|old (change)`) of a report, with the header they follow.
fn metric_lines(report: &str) -> Vec<(String, String)> {
    let mut header = String::new();
    let mut lines = Vec::new();
    for line in report.lines() {
        if !line.starts_with(' ') && !line.starts_with('|') {
            header = line.to_owned();
            continue;
        }
        let text = line.trim_start_matches([' ', '|', '-']).trim();
        if let Some((label, rest)) = text.split_once(':') {
            if rest.contains('|') && rest.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                lines.push((header.clone(), format!("{label}:{rest}")));
            }
        }
    }
    lines
}

fn no_change_twice(name: &str) -> String {
    let (first, second) = twice(name);
    let (a, b) = (metric_lines(&first), metric_lines(&second));
    assert!(!a.is_empty(), "{first}");
    assert_eq!(a.len(), b.len(), "{first}\n{second}");
    for ((header, line), (_, again)) in a.iter().zip(&b) {
        let label = line.split(':').next().unwrap();
        assert!(again.starts_with(label), "{header}: {line} vs {again}");
        assert!(
            again.contains("No change") || again.contains("Tolerance"),
            "{header}: {again}\n{second}"
        );
    }
    second
}

#[test]
fn iai_callgrind_0_15_and_0_16_api_runs_unchanged() {
    let report = no_change_twice("gen16_api");
    // The cache rates of `CallgrindMetrics::CacheMissRates` and the DHAT and Memcheck sections.
    for expected in [
        "I1 Miss Rate",
        "LL Miss Rate",
        "======= DHAT",
        "Total bytes",
        "======= MEMCHECK",
        "Errors",
        "======= CACHEGRIND",
    ] {
        assert!(report.contains(expected), "{expected} in\n{report}");
    }
    // `show_grid(true)` at main! level marks the metric lines.
    assert!(report.lines().any(|l| l.starts_with("|-")), "{report}");
    assert!(
        report.contains("gen16_api::values::bench_dhat_only dhat_only:300"),
        "{report}"
    );
}

#[test]
fn gungraun_0_17_to_0_20_api_runs_unchanged() {
    let report = no_change_twice("gen20_api");
    for expected in [
        "gen20_api::tools::sum_squares hundred:squares(100)",
        "gen20_api::tools::dhat_is_the_default_tool heap:200",
        "gen20_api::places::reads_in_sandbox fixture:\"count.txt\"",
        "gen20_api::places::reads_in_current_dir relative:\"count.txt\"",
        "======= HELGRIND",
        "======= DRD",
        "======= MASSIF",
        "L1 Hit Rate",
    ] {
        assert!(report.contains(expected), "{expected} in\n{report}");
    }
}

#[test]
fn gungraun_0_17_to_0_20_binary_api_runs_unchanged() {
    let report = no_change_twice("gen20_api_bin");
    for expected in [
        "gen20_api_bin::gungraun_shapes::ends_by_signal terminated:",
        "gen20_api_bin::gungraun_shapes::reads_stdin from_path:",
        "gen20_api_bin::gungraun_shapes::delayed after_a_moment:",
        "gen20_api_bin::gungraun_shapes::under_dhat dhat_only:",
    ] {
        assert!(report.contains(expected), "{expected} in\n{report}");
    }
}
