//! `ab` sampling perf's benchmarks of base and head in turns: twice the work is slower and
//! gates, data sorted in setup is faster on perf at the same instructions, in one report, and
//! the head's hard limits are checked on its rounds.

use super::*;

/// A bench file with perf: `spin` does `permille` thousandths of a fixed amount of arithmetic;
/// `sum` adds the bytes above 127 of data its setup leaves in a fixed shuffled order or sorts
/// (the same bytes, so the same instructions; sorted, the branch is predicted).
fn perf_bench_file(permille: u64, sorted: bool) -> String {
    format!(
        r#"use std::hint::black_box;
use std::time::Duration;

use benchgrind::{{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Perf}};

fn perf() -> LibraryBenchmarkConfig {{
    let mut config = LibraryBenchmarkConfig::default();
    config.tool(Perf::default().event_set("task-clock").sample_duration(Duration::from_millis(300)));
    config
}}

#[inline(never)]
fn mix(rounds: u64) -> u64 {{
    let mut x = black_box(1u64);
    for i in 0..black_box(rounds) {{
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i) ^ (x >> 29);
    }}
    x
}}

#[library_benchmark(config = perf())]
fn spin() -> u64 {{
    mix(black_box(300_000 * {permille} / 1000))
}}

fn data(_: ()) -> Vec<u8> {{
    let mut x = 12345u32;
    let mut data: Vec<u8> = (0..200_000)
        .map(|_| {{
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        }})
        .collect();
    if {sorted} {{
        data.sort_unstable();
    }}
    data
}}

#[inline(never)]
fn add(sum: u64, x: u8) -> u64 {{
    sum.wrapping_add(u64::from(x))
}}

#[library_benchmark(config = perf())]
#[bench::data(args = (()), setup = data)]
fn sum(data: Vec<u8>) -> u64 {{
    let mut total = 0u64;
    for &x in black_box(&data) {{
        if x >= 128 {{
            total = add(total, x);
        }}
    }}
    total
}}

library_benchmark_group!(name = timed; benchmarks = spin, sum);
main!(library_benchmark_groups = timed);
"#
    )
}

/// perf's benchmarks of base and head sampled in turns, in one report with Callgrind's counts:
/// `spin` twice the work is slower (exit 3) and its instructions double; `sum` over data its
/// setup sorts is faster on perf (the branch predicted) while Callgrind counts the same
/// instructions. A hard limit of 1 µs, which both means pass, fails both (faster or not). The
/// terminal report shows the verdicts beside the counts.
#[test]
fn ab_samples_perf_in_turns_slower_gates_and_sorted_data_is_faster_at_the_same_instructions() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    std::fs::write(repo.join("benches/work.rs"), perf_bench_file(1000, false)).unwrap();
    git(&repo, &["commit", "-qam", "perf"]);
    std::fs::write(repo.join("benches/work.rs"), perf_bench_file(2000, true)).unwrap();
    let (_one, target) = shared_target();

    let args = [
        "ab",
        "--base=HEAD",
        "--perf-rounds=6",
        "--",
        "--output-format=json",
        "--perf-limits=task-clock=0.001ms",
    ];
    let output = run(&cli, &args, &repo, &target);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(stderr.contains("perf in turns: 6 rounds"), "{stderr}");
    let summaries: Vec<serde_json::Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |name: &str| {
        summaries
            .iter()
            .find(|s| s["function"] == name)
            .unwrap_or_else(|| panic!("no summary of {name}: {stdout}"))
    };
    let clock = |s: &serde_json::Value| s["perf"]["metrics"][0].clone();
    let (spin, sum) = (of("spin"), of("sum"));
    assert_eq!(spin["perf"]["paired_rounds"], 6, "{spin}");
    assert_eq!(clock(spin)["name"], "task-clock", "{spin}");
    assert_eq!(clock(spin)["verdict"], "slower", "{spin}");
    assert_eq!(clock(spin)["new_rounds"].as_array().unwrap().len(), 6);
    let spin_ir = spin["metrics"]["Ir"]["diff_pct"].as_f64().unwrap();
    assert!(spin_ir > 90.0, "{spin}");
    // The hard limit fired on both, so the verdict is not said twice (the terminal run below,
    // without it, gates on `slower`).
    for s in [spin, sum] {
        assert!(
            s["perf"]["regressions"][0]
                .as_str()
                .is_some_and(|r| r.starts_with("task-clock: mean ")
                    && r.ends_with("is above the hard limit of 1.000 µs (task-clock)")),
            "{s}"
        );
    }
    // The branch case: the same instructions, less time.
    assert_eq!(clock(sum)["verdict"], "faster", "{sum}");
    let high = clock(sum)["interval_pct"][1].as_f64().unwrap();
    assert!(high < -20.0, "{sum}");
    let sum_ir = sum["metrics"]["Ir"]["diff_pct"].as_f64().unwrap_or(0.0);
    assert!(sum_ir.abs() < 1.0, "{sum}");

    // The terminal report: perf sampled again in turns, the verdicts beside the counts.
    let output = run(
        &cli,
        &["ab", "--base=HEAD", "--perf-rounds=6"],
        &repo,
        &target,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(3), "{report}\n{stderr}");
    // The block of `sum`: its header, then indented lines (perf's among Callgrind's).
    let lines: Vec<&str> = report
        .lines()
        .skip_while(|l| l.starts_with(' ') || !l.contains("timed::sum"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .collect();
    let line = |label: &str| {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label} line in\n{report}"))
    };
    assert!(line("Instructions:").ends_with("(No change)"), "{report}");
    assert!(line("task-clock:").contains(" faster ["), "{report}");
    assert!(
        report.contains("perf: base and head sampled in turns, 6 rounds"),
        "{report}"
    );
    assert!(
        report.contains("Performance has regressed: perf task-clock: slower"),
        "{report}"
    );
}
