//! benchgrind's hot paths, measured by benchgrind: reading a Callgrind profile (totals, and
//! everything), the attribution of a change between two profiles, writing summaries and the
//! terminal and Markdown reports of 17 benchmarks, and planning 10,000 benchmarks. Each has a
//! hard limit on its instructions, about 10 % above what it counts today, so that a change that
//! makes the runner do more work fails `.ci/run` (exit 3). After a deliberate improvement, lower
//! the limit to the new count plus 10 %.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};
use benchgrind_runner::cli::{Cli, Color, Labels};
use benchgrind_runner::config::{EventKind, RegressionConfig};
use benchgrind_runner::explain::{explain_profiles, Options};
use benchgrind_runner::parse::profile::{parse, Profile, Read};
use benchgrind_runner::report::markdown::Markdown;
use benchgrind_runner::report::summary::Summary;
use benchgrind_runner::report::terminal::{Style, Terminal};
use benchgrind_runner::report::{Reporter, RunSummary};
use benchgrind_runner::spec::{Function, Group, LibBench, Main};
use benchgrind_selfbench::{fixture, read_fixture};

/// A hard limit on the instructions.
fn limit(instructions: u64) -> LibraryBenchmarkConfig {
    let mut regression = RegressionConfig::default();
    regression.hard_limits([(EventKind::Ir, instructions)]);
    let mut config = LibraryBenchmarkConfig::default();
    config.regression(regression);
    config
}

fn profile_bytes(name: &str) -> (PathBuf, Vec<u8>) {
    (fixture(name), read_fixture(name))
}

fn parsed(name: &str) -> Profile {
    let (path, bytes) = profile_bytes(name);
    parse(&path, &bytes, Read::Full).expect("the fixture parses")
}

#[library_benchmark]
#[bench::totals(config = limit(18_300_000), args = ("sort2000.callgrind.out", Read::Totals), setup = with_bytes)]
#[bench::full(config = limit(42_600_000), args = ("sort2000.callgrind.out", Read::Full), setup = with_bytes)]
fn read_profile(input: (PathBuf, Vec<u8>, Read)) -> usize {
    let (path, bytes, read) = input;
    let profile = parse(&path, black_box(&bytes), read).expect("the fixture parses");
    black_box(profile.functions.len())
}

fn with_bytes(name: &str, read: Read) -> (PathBuf, Vec<u8>, Read) {
    let (path, bytes) = profile_bytes(name);
    (path, bytes, read)
}

#[library_benchmark]
#[bench::sort(config = limit(40_800_000), setup = two_profiles)]
fn attribute(profiles: (Profile, Profile)) -> usize {
    let (old, new) = profiles;
    let explanation = explain_profiles(&old, &new, &Options::default()).expect("they compare");
    black_box(explanation.functions.len())
}

fn two_profiles() -> (Profile, Profile) {
    (
        parsed("sort500.callgrind.out"),
        parsed("sort2000.callgrind.out"),
    )
}

#[library_benchmark]
#[bench::seventeen(config = limit(1_900_000), setup = summaries)]
fn write_reports(summaries: Vec<Summary>) -> usize {
    let mut out = Vec::new();
    let mut terminal = Terminal {
        style: Style::new(Color::Never, Labels::default()),
    };
    let mut markdown = Markdown::default();
    for summary in &summaries {
        out.extend_from_slice(summary.to_json(false).as_bytes());
        let result = summary.to_result().expect("a summary of ours");
        terminal.bench(&mut out, &result).unwrap();
        markdown.bench(&mut out, &result).unwrap();
    }
    markdown.finish(&mut out, &RunSummary::default()).unwrap();
    black_box(out.len())
}

fn summaries() -> Vec<Summary> {
    let text = String::from_utf8(read_fixture("summary.jsonl")).unwrap();
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a summary"))
        .collect()
}

/// Does nothing: the planned benchmarks' body.
fn nothing() {}

#[library_benchmark]
#[bench::ten_thousand(config = limit(104_000_000), setup = many)]
fn plan_benchmarks(main: Main) -> usize {
    let home = Path::new("/nonexistent/benchgrind-selfbench").to_owned();
    let plan = benchgrind_runner::plan::plan(&main, &Cli::default(), home).expect("it plans");
    black_box(plan.jobs.len())
}

/// 100 groups of 100 functions of one bench each.
fn many() -> Main {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let groups = (0..100)
        .map(|g| Group {
            name: leak(format!("group_{g}")),
            config: None,
            compare_by_id: false,
            max_parallel: None,
            setup: None,
            teardown: None,
            functions: (0..100)
                .map(|f| Function {
                    name: leak(format!("function_{f}")),
                    path: leak(format!("selfbench::group_{g}::function_{f}")),
                    config: None,
                    benches: vec![LibBench {
                        id: Some("case"),
                        args: "",
                        config: None,
                        run: nothing,
                        iter: None,
                    }],
                })
                .collect(),
        })
        .collect();
    Main {
        package: "benchgrind-selfbench",
        bench_file: "selfbench",
        manifest_dir: env!("CARGO_MANIFEST_DIR"),
        workspace_root: env!("CARGO_MANIFEST_DIR"),
        config: None,
        groups,
        binary_config: None,
        binary_groups: Vec::new(),
        setup: None,
        teardown: None,
    }
}

library_benchmark_group!(
    name = hot_paths;
    benchmarks = read_profile, attribute, write_reports, plan_benchmarks
);

main!(library_benchmark_groups = hot_paths);
