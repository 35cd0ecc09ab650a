//! `benchgrind ab --base REV` on a repository of two commits, the second of which adds work to
//! one of two benchmarks: the change is that benchmark's exact difference between the two
//! revisions measured directly, the other is unchanged, a limit makes it exit 3, and a second
//! call reuses the base's counts.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{blocks, cli, target_dir, Block};

#[path = "ab/turns.rs"]
mod turns;

/// The bench file at a revision: `steady` sums 1,000 numbers at both, `grows` sums `n`.
fn bench_file(grows: u32) -> String {
    format!(
        r#"use std::hint::black_box;

use benchgrind::{{library_benchmark, library_benchmark_group, main}};

fn mix(n: u64) -> u64 {{
    (0..n).fold(7, |acc, x| acc.rotate_left(5) ^ x.wrapping_mul(0x9e37_79b9))
}}

#[library_benchmark]
fn steady() -> u64 {{
    mix(black_box(1000))
}}

#[library_benchmark]
fn grows() -> u64 {{
    mix(black_box({grows}))
}}

library_benchmark_group!(name = work; benchmarks = steady, grows);
main!(library_benchmark_groups = work);
"#
    )
}

fn git(repo: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=ab", "-c", "user.email=ab@example.invalid"])
        .args(args)
        .current_dir(repo)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// A repository whose HEAD~1 has `grows` sum 1,000 numbers and HEAD 3,000.
fn repository(dir: &Path) -> PathBuf {
    let repo = dir.join("app");
    std::fs::create_dir_all(repo.join("benches")).unwrap();
    let benchgrind = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchgrind");
    std::fs::write(
        repo.join("Cargo.toml"),
        format!(
            "[package]\nname = \"ab-app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dev-dependencies]\nbenchgrind = {{ path = {:?} }}\n\n\
             [[bench]]\nname = \"work\"\nharness = false\n\n\
             [profile.bench]\ndebug = true\n\n[workspace]\n",
            benchgrind.canonicalize().unwrap()
        ),
    )
    .unwrap();
    std::fs::write(repo.join(".gitignore"), "/target\n").unwrap();
    std::fs::write(repo.join("benches/work.rs"), bench_file(1000)).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "base"]);
    std::fs::write(repo.join("benches/work.rs"), bench_file(3000)).unwrap();
    git(&repo, &["commit", "-qam", "grows does more"]);
    repo
}

/// The target directory every test of `ab` shares, and the right to use it: one test at a
/// time, since `ab` keeps its checkout, home and cargo target below it (`benchgrind-ab/`). On a
/// fresh machine the dependencies are then built once for all the tests (a target directory
/// each built benchgrind's dependencies five times: the slowest tests of CI).
fn shared_target() -> (std::sync::MutexGuard<'static, ()>, PathBuf) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    (guard, target_dir().join("ab-test"))
}

/// Runs `benchgrind ab` (or cargo, for `cargo bench`) in the repository with the shared target.
fn run(program: &Path, args: &[&str], repo: &Path, target: &Path) -> Output {
    run_with(program, args, repo, target, &[])
}

/// [`run`] with more variables set.
fn run_with(
    program: &Path,
    args: &[&str],
    repo: &Path,
    target: &Path,
    envs: &[(&str, &str)],
) -> Output {
    let output = Command::new(program)
        .args(args)
        .current_dir(repo)
        .env("CARGO_TARGET_DIR", target)
        .env("BENCHGRIND_COLOR", "never")
        .envs(envs.iter().copied())
        .output()
        .expect("starts");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn block<'a>(blocks: &'a [Block], name: &str) -> &'a Block {
    blocks
        .iter()
        .find(|b| b.header.contains(name))
        .unwrap_or_else(|| panic!("no block for {name} in {blocks:?}"))
}

/// The Ir of each benchmark of one revision, run directly with cargo bench.
fn direct(repo: &Path, target: &Path, home: &Path) -> (u64, u64) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let home = format!("--home={}", home.display());
    let output = run(
        Path::new(&cargo),
        &["bench", "-q", "--bench", "work", "--", &home],
        repo,
        target,
    );
    assert!(output.status.success());
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let blocks = blocks(&report);
    (
        block(&blocks, "steady").get("Instructions"),
        block(&blocks, "grows").get("Instructions"),
    )
}

#[test]
fn ab_reports_the_change_of_the_one_benchmark_that_changed_and_reuses_the_base() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    // Kept between test runs: the dependencies are built once.
    let (_one, target) = shared_target();

    let output = run(&cli, &["ab", "--base=HEAD~1"], &repo, &target);
    assert_eq!(output.status.code(), Some(0));
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let ab = blocks(&report);
    let (steady, grows) = (block(&ab, "steady"), block(&ab, "grows"));

    // What each revision counts, measured directly (built where `ab` built, whose
    // dependencies are there).
    let cargo_target = target.join("benchgrind-ab/target");
    let (now_steady, now_grows) = direct(&repo, &cargo_target, &dir.path().join("now"));
    git(&repo, &["checkout", "-q", "HEAD~1"]);
    let (base_steady, base_grows) = direct(&repo, &cargo_target, &dir.path().join("base"));
    git(&repo, &["checkout", "-q", "-"]);
    assert!(now_grows > base_grows + 1000, "{now_grows} vs {base_grows}");
    assert_eq!(base_steady, now_steady);

    let ir = |b: &Block| {
        b.metrics
            .iter()
            .find(|m| m.0 == "Instructions")
            .cloned()
            .unwrap()
    };
    let (_, new, old, change) = ir(grows);
    assert_eq!(new, now_grows, "{report}");
    assert_eq!(old, base_grows.to_string(), "{report}");
    let expected = (now_grows as f64 - base_grows as f64) / base_grows as f64 * 100.0;
    let shown: f64 = change
        .split(' ')
        .next()
        .unwrap()
        .trim_start_matches("(+")
        .trim_end_matches("%)")
        .parse()
        .unwrap_or_else(|_| panic!("a change in percent: {change}"));
    assert!((shown - expected).abs() < 0.001, "{change} vs {expected}");
    let (_, new, old, change) = ir(steady);
    assert_eq!(
        (new, old.as_str()),
        (now_steady, now_steady.to_string().as_str())
    );
    assert_eq!(change, "(No change)", "{report}");

    // With a limit: new arguments measure the base again, the same ones reuse its counts; the
    // limit decides the status either way.
    let mut output = None;
    for reused in [false, true] {
        let run = run(
            &cli,
            &["ab", "--base=HEAD~1", "--", "--regression=ir=5%"],
            &repo,
            &target,
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(stderr.contains("counts are reused"), reused, "{stderr}");
        assert_eq!(run.status.code(), Some(3));
        output = Some(run);
    }
    let output = output.unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(report.contains("Performance has regressed"), "{report}");
}

/// The base's counts are reused only while nothing that reaches the build or the bench
/// binaries changed: a second `ab` reuses them, one with other Valgrind arguments (or another
/// toolchain) measures the base again.
#[test]
fn ab_measures_the_base_again_when_what_reaches_the_bench_binaries_changes() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    let (_one, target) = shared_target();
    let ab = |envs: &[(&str, &str)]| {
        let output = run_with(&cli, &["ab", "--base=HEAD~1"], &repo, &target, envs);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let measured = "building and measuring the base";
    let reused = "its counts are reused";
    assert!(ab(&[]).contains(measured));
    let again = ab(&[]);
    assert!(
        again.contains(reused) && !again.contains(measured),
        "{again}"
    );
    let other_args = ab(&[("BENCHGRIND_VALGRIND_ARGS", "--separate-threads=no")]);
    assert!(other_args.contains(measured), "{other_args}");
    // What only sets how much is logged keeps the base.
    let logged = ab(&[
        ("BENCHGRIND_VALGRIND_ARGS", "--separate-threads=no"),
        ("BENCHGRIND_LOG", "warn"),
    ]);
    assert!(logged.contains(reused), "{logged}");
}

#[test]
fn ab_names_a_revision_that_does_not_exist() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    let output = run(
        &cli,
        &["ab", "--base=no-such-branch"],
        &repo,
        &target_dir().join("ab-test"),
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`no-such-branch` is not a revision"),
        "{stderr}"
    );
}

/// The CI script's `ab REV` on a branch that changes nothing measured, while REV (main) moved
/// on after the branch left it with a commit that makes `grows` do more: compared with the
/// merge base, nothing changed; compared with main's tip (what `ab --base=main` does), `grows`
/// would show main's change as the branch's.
#[test]
fn the_ci_script_compares_a_branch_with_its_merge_base_not_the_tip_of_main() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    // `repository` made main's two commits; the branch leaves main at the first and changes a
    // file no benchmark reads.
    git(&repo, &["branch", "-q", "-M", "main"]);
    git(&repo, &["checkout", "-q", "-b", "feature", "HEAD~1"]);
    std::fs::write(repo.join("NOTES.md"), "nothing measured\n").unwrap();
    git(&repo, &["add", "NOTES.md"]);
    git(&repo, &["commit", "-qm", "notes"]);
    let (_one, target) = shared_target();
    let ci = dir.path().join("ci");

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates/benchgrind-ci.sh");
    let output = Command::new("bash")
        .arg(&script)
        .args(["ab", "main"])
        .current_dir(&repo)
        .env("BENCHGRIND", &cli)
        .env("BENCHGRIND_CI_DIR", &ci)
        .env("CARGO_TARGET_DIR", &target)
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let merge_base = Command::new("git")
        .args(["merge-base", "main", "feature"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let merge_base = String::from_utf8_lossy(&merge_base.stdout)
        .trim()
        .to_owned();
    assert!(
        stderr.contains(&format!(
            "comparing with {merge_base}, the merge base of main"
        )),
        "{stderr}"
    );
    let markdown = std::fs::read_to_string(ci.join("ab.md")).unwrap();
    let unchanged = markdown
        .lines()
        .filter(|l| l.starts_with("| `") && l.ends_with("| unchanged |"));
    assert_eq!(unchanged.count(), 2, "{markdown}");

    // The tip of main instead: `grows` differs, as if the branch had made it do less.
    let output = run(&cli, &["ab", "--base=main"], &repo, &target);
    assert_eq!(output.status.code(), Some(0));
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let ab = blocks(&report);
    let grows = block(&ab, "grows");
    let change = &grows
        .metrics
        .iter()
        .find(|m| m.0 == "Instructions")
        .unwrap()
        .3;
    assert!(change.starts_with("(-"), "{change}\n{report}");
}

/// `ab` over a package with two bench binaries, the head adding a benchmark the base lacks: one
/// report of both (terminal and markdown), one tally, one exit status; the new benchmark is
/// uncompared (exit 4 with `--uncompared=fail`), and the markdown names both revisions.
#[test]
fn ab_over_two_bench_binaries_prints_one_report_and_one_exit_status() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    let more = |extra: &str| {
        format!(
            "use std::hint::black_box;\nuse benchgrind::{{library_benchmark, \
             library_benchmark_group, main}};\n\n#[library_benchmark]\nfn other() -> u64 {{\n    \
             (0..black_box(500u64)).sum()\n}}\n{extra}\nlibrary_benchmark_group!(name = more; \
             benchmarks = other{});\nmain!(library_benchmark_groups = more);\n",
            if extra.is_empty() { "" } else { ", fresh" }
        )
    };
    let manifest = std::fs::read_to_string(repo.join("Cargo.toml")).unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        manifest.replace(
            "[profile.bench]",
            "[[bench]]\nname = \"more\"\nharness = false\n\n[profile.bench]",
        ),
    )
    .unwrap();
    std::fs::write(repo.join("benches/more.rs"), more("")).unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "a second bench binary"]);
    let fresh =
        "\n#[library_benchmark]\nfn fresh() -> u64 {\n    (0..black_box(900u64)).sum()\n}\n";
    std::fs::write(repo.join("benches/more.rs"), more(fresh)).unwrap();
    git(&repo, &["commit", "-qam", "a new benchmark"]);
    let base = Command::new("git")
        .args(["rev-parse", "HEAD~1", "HEAD"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let shas = String::from_utf8_lossy(&base.stdout).into_owned();
    let shas: Vec<&str> = shas.lines().collect();
    let (_one, target) = shared_target();

    let output = run(&cli, &["ab", "--base=HEAD~1"], &repo, &target);
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert_eq!(blocks(&report).len(), 4, "{report}");
    let tallies: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("benchgrind: "))
        .collect();
    assert_eq!(tallies.len(), 1, "{report}");
    assert!(
        tallies[0].starts_with("benchgrind: more, work: 4 benchmarks in "),
        "{report}"
    );
    // `work` is the base's bench binary (the change touched `more` alone): reused. In `more`,
    // `fresh` added beside `other` may move `other`'s code and data to other cache lines; it
    // executes the same instructions, so it is unchanged or layout only (here L1 hits 15 -> 14
    // and RAM hits 2 -> 3 under /work; the same lines under CI's /check, where it was unchanged:
    // the build's paths are part of the layout). `fresh` is reused too where an earlier run of
    // this test left its result in the shared target (the same head binary); `other` was
    // measured on the base since, so never is.
    let (_, counts) = tallies[0].split_once(" benchmarks in ").unwrap();
    let other = report
        .split_once("more::more::other\n")
        .and_then(|(_, rest)| rest.split_once("more::more::fresh\n"))
        .map_or("", |(block, _)| block);
    let layout_only = other.contains("\n  Layout only:");
    let moved = if layout_only { "1 layout only, " } else { "" };
    assert!(
        [": 2 measured, 2 reused", ": 1 measured, 3 reused"]
            .iter()
            .any(|r| counts.contains(&format!("{r}, {moved}0 failed, 0 regressed, 1 uncompared"))),
        "{report}"
    );
    let instructions = other
        .lines()
        .find(|l| l.trim_start().starts_with("Instructions:"))
        .unwrap_or("");
    assert!(instructions.ends_with("(No change)"), "{report}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains(" measured, "), "{stderr}");
    assert!(
        report.contains("UNCOMPARED more::more::fresh: no baseline `ab-"),
        "{report}"
    );

    let output = run(
        &cli,
        &[
            "ab",
            "--base=HEAD~1",
            "--",
            "--output-format=markdown",
            "--uncompared=fail",
        ],
        &repo,
        &target,
    );
    let markdown = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(4), "{markdown}");
    assert_eq!(markdown.matches("## benchgrind").count(), 1, "{markdown}");
    let rows = markdown.lines().filter(|l| l.starts_with("| `")).count();
    // Four benchmarks, and the uncompared one again in its section.
    assert_eq!(rows, 5, "{markdown}");
    assert!(markdown.contains("### 1 uncompared"), "{markdown}");
    assert!(markdown.contains("| `more::more::fresh` |"), "{markdown}");
    for sha in &shas {
        assert!(
            markdown.contains(&format!("`{}`", &sha[..12])),
            "{markdown}"
        );
    }
}

/// A workspace of three crates, each with a bench binary of one benchmark mixing `n` numbers.
fn workspace(dir: &Path, sizes: [u64; 3]) -> PathBuf {
    let repo = dir.join("ws");
    let benchgrind = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benchgrind")
        .canonicalize()
        .unwrap();
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        "[workspace]\nmembers = [\"alpha\", \"beta\", \"gamma\"]\nresolver = \"2\"\n\n\
         [profile.bench]\ndebug = true\n",
    )
    .unwrap();
    std::fs::write(repo.join(".gitignore"), "/target\n").unwrap();
    for (name, n) in ["alpha", "beta", "gamma"].iter().zip(sizes) {
        let krate = repo.join(name);
        std::fs::create_dir_all(krate.join("benches")).unwrap();
        std::fs::write(
            krate.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dev-dependencies]\nbenchgrind = {{ path = {benchgrind:?} }}\n\n\
                 [[bench]]\nname = \"{name}_bench\"\nharness = false\n"
            ),
        )
        .unwrap();
        std::fs::write(
            krate.join(format!("benches/{name}_bench.rs")),
            format!(
                "use std::hint::black_box;\nuse benchgrind::{{library_benchmark, \
                 library_benchmark_group, main}};\n\n#[library_benchmark]\nfn sum() -> u64 {{\n    \
                 (0..black_box({n}u64)).fold(7, |a, x| a.rotate_left(5) ^ x.wrapping_mul(0x9e37_79b9))\n}}\n\nlibrary_benchmark_group!(name = g; \
                 benchmarks = sum);\nmain!(library_benchmark_groups = g);\n"
            ),
        )
        .unwrap();
    }
    repo
}

#[test]
fn ab_on_a_workspace_simulates_only_the_benchmarks_of_the_crate_the_change_touched() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let repo = workspace(dir.path(), [1000, 2000, 3000]);
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "three crates"]);
    // The change touches alpha alone (uncommitted: ab measures the working tree).
    workspace(dir.path(), [1500, 2000, 3000]);
    let (_one, target) = shared_target();

    let output = run(&cli, &["ab", "--base=HEAD"], &repo, &target);
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{report}");
    let mut reused = Vec::new();
    let mut header = "";
    for line in report.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            header = line;
        } else if line.trim_start().starts_with("Reused:") {
            reused.push(header.split("::").next().unwrap_or(""));
        }
    }
    assert_eq!(reused, ["beta_bench", "gamma_bench"], "{report}");
    let blocks = blocks(&report);
    let alpha = block(&blocks, "alpha_bench");
    assert!(alpha.metrics[0].3.starts_with("(+"), "{report}");
    assert!(
        report.contains(": 3 benchmarks in ")
            && report.contains(": 1 measured, 2 reused, 0 failed"),
        "{report}"
    );
}
