//! `benchgrind ab --base REV`: the benchmarks of a git revision and of the working tree, run on
//! this machine one after the other, and the working tree's report compared with the base's
//! counts. Both sides are built in one checkout below the target directory
//! (`benchgrind-ab/build`, a git worktree) with one target directory of its own: the base at
//! REV, then the working tree as a commit of its own (every file git would add, on top of HEAD),
//! checked out over it, so that git touches only the files that differ and cargo rebuilds only
//! what they change. A bench binary of a crate the change did not touch is then the very file the
//! base ran, and its benchmarks' records of inputs match: the working tree's run reuses their
//! results instead of simulating them again (`execute::reuse` in the runner). The base's counts
//! are saved as the baseline `ab-<revision>` in a home shared by both runs; the working tree's
//! run compares with that baseline, and its regression limits decide the exit code. A second
//! call for the same revision, with the same options and on an unchanged machine, reuses the
//! base's counts.
//!
//! perf's benchmarks are then sampled in turns (`turns.rs`): the base's bench binaries, kept in
//! `benchgrind-ab/base-bin/`, and the head's, round by round, compared paired, so that drift
//! during the job cancels (`--perf-rounds=0`: each side's perf sampled in its own run, the head
//! compared with the base's samples as with a baseline).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;

use crate::exit::Outcome;
use git::{checkout, git, subject, working_tree};

mod git;
mod key;
mod turns;
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Usage: benchgrind ab --base=REV [CARGO ARGS...] [-- BENCH ARGS...]

Runs the benchmarks of the git revision REV (a branch, tag, commit, HEAD~1) and those of the
working tree on this machine, one after the other, and reports the working tree's counts
compared with the base's: each benchmark's change, with the regression limits of the code or of
`--regression` deciding the exit status. Both are built in one checkout below the target
directory (benchgrind-ab/), the base first: a bench binary the change does not touch is the
base's own, and its benchmarks are reused, not run again. The base's counts are reused when REV,
the arguments and the machine are unchanged. CARGO ARGS select what cargo builds (-p PACKAGE, --bench NAME, --features ...);
BENCH ARGS go to every bench binary (filters, --regression, ...); --output-format (default,
markdown, json, bmf, ...), --output-file and --uncompared=notice|fail choose the one report of
them all. Exit status: 0 no limit passed, 1 error or a failed benchmark, 2 usage, 3 past a
limit, 4 a benchmark without a base (new since REV) with --uncompared=fail.

perf's benchmarks (Perf in the code, or --perf among the bench arguments) are sampled after
both sides have been measured, base and head in turns for --perf-rounds rounds (the order in
each round drawn from a seed that is logged), and compared round by round: each metric's
verdict is faster, slower, unchanged or inconclusive against --perf-margin (default 5%); slower
exits 3, and inconclusive too with --perf-fail-inconclusive.

Options:
      --base=REV          the revision to compare with (required)
      --fresh             measure the base again even when its counts could be reused
      --perf-rounds=N     rounds of perf in turns (default 10); 0: each side's perf sampled in
                          its own run, the head compared with the base's samples
  -h, --help              print this help
";

/// Bench arguments `ab` sets itself.
const RESERVED: [&str; 5] = [
    "--home",
    "--baseline",
    "--save-baseline",
    "--load-baseline",
    "--baseline-revision",
];

/// What `ab` was asked.
#[derive(Debug, Default, PartialEq)]
pub struct Config {
    /// `--base`.
    base: String,
    /// `--fresh`.
    fresh: bool,
    /// `--perf-rounds`: `None` for the default.
    perf_rounds: Option<usize>,
    /// What goes to `cargo bench`.
    cargo_args: Vec<OsString>,
    /// What goes to every bench binary.
    bench_args: Vec<OsString>,
}

impl Config {
    /// Parses the arguments after `ab`.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        let mut config = Config::default();
        let mut args = args.into_iter();
        let mut base = None;
        while let Some(arg) = args.next() {
            match arg.to_str() {
                Some("-h" | "--help") => return Err(UsageError::Help(USAGE)),
                Some("--") => {
                    config.bench_args = args.by_ref().collect();
                    break;
                }
                Some("--base") => {
                    let value = args.next().ok_or_else(|| {
                        UsageError::new("--base needs a revision: --base=main").hint(USAGE)
                    })?;
                    base = Some(value.to_string_lossy().into_owned());
                }
                Some(text) if text.starts_with("--base=") => {
                    base = Some(text["--base=".len()..].to_owned());
                }
                Some("--fresh") => config.fresh = true,
                Some("--perf-rounds") => {
                    let value = args.next().unwrap_or_default();
                    config.perf_rounds = Some(rounds(&value.to_string_lossy())?);
                }
                Some(text) if text.starts_with("--perf-rounds=") => {
                    config.perf_rounds = Some(rounds(&text["--perf-rounds=".len()..])?);
                }
                _ => config.cargo_args.push(arg),
            }
        }
        for arg in &config.bench_args {
            let text = arg.to_string_lossy();
            let name = text.split('=').next().unwrap_or("");
            if RESERVED.contains(&name) {
                return Err(UsageError::new(format!(
                    "`{text}`: ab sets {name} itself (the base's counts are a baseline in a home \
                     of its own); leave it out"
                ))
                .hint(USAGE));
            }
        }
        match base.filter(|b| !b.trim().is_empty()) {
            Some(base) => config.base = base,
            None => {
                return Err(
                    UsageError::new("ab needs --base=REV: the revision to compare with")
                        .hint(USAGE),
                )
            }
        }
        Ok(config)
    }
}

/// `--perf-rounds`' value.
fn rounds(text: &str) -> Result<usize, UsageError> {
    text.trim().parse::<usize>().map_err(|_| {
        UsageError::new(format!(
            "--perf-rounds={text}: write a number of rounds such as 10, or 0 for perf sampled \
             in each side's own run"
        ))
        .hint(USAGE)
    })
}

/// Where a side's bench binaries are and how to start them.
struct Side {
    /// The directory `ab` was called from, within the checkout (cargo runs there).
    dir: PathBuf,
    /// Its cargo target directory.
    target: PathBuf,
}

/// Runs `ab`.
pub fn run(config: &Config) -> Result<Outcome> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let root = PathBuf::from(git(&cwd, &["rev-parse", "--show-toplevel"])?);
    let prefix = git(&cwd, &["rev-parse", "--show-prefix"])?;
    let revision = format!("{}^{{commit}}", config.base);
    let sha = git(&cwd, &["rev-parse", "--verify", "--quiet", &revision]).with_context(|| {
        format!(
            "`{}` is not a revision of {}; give a branch, tag or commit (git log shows them)",
            config.base,
            root.display()
        )
    })?;
    let short = &sha[..12.min(sha.len())];
    let target = target_directory(&cwd)?;
    let ab = target.join("benchgrind-ab");
    let home = ab.join("home");
    let baseline = format!("ab-{short}");
    // One checkout and one target directory for both sides (see the module's documentation).
    let build = ab.join("build");
    let side = Side {
        dir: build.join(&prefix),
        target: ab.join("target"),
    };

    let stamp = home.join(format!("{baseline}.stamp"));
    let rounds = config.perf_rounds.unwrap_or(turns::DEFAULT_ROUNDS);
    // The base run without perf (in turns) keeps no perf samples: not one to reuse for a run
    // that compares with them, and the other way round.
    let mut key_args = config.bench_args.clone();
    key_args.extend((rounds > 0).then(|| OsString::from(PERF_OFF)));
    let key = key::reuse_key(&sha, (&config.cargo_args, &key_args), &cwd)?;
    // `--fresh` among the bench arguments (or BENCHGRIND_FRESH) measures the base again too.
    let fresh = config.fresh || key::fresh(&config.bench_args)?;
    let base_bin = ab.join("base-bin");
    // In turns, the base's binaries run again after the checkout has moved: they must be kept.
    let reused = !fresh
        && std::fs::read_to_string(&stamp).is_ok_and(|k| k == key)
        && (rounds == 0 || turns::kept_base(&base_bin).is_some());
    if reused {
        crate::messages::note!(
            "the base {short} was measured with these arguments on this \
             machine; its counts are reused (--fresh measures it again)"
        );
    } else {
        let start = Instant::now();
        checkout(&root, &build, &sha)?;
        crate::messages::note!(
            "building and measuring the base {short} ({})",
            subject(&root, &sha)
        );
        let _ = std::fs::remove_file(&stamp);
        let save = format!("--save-baseline={baseline}");
        let (outcome, benches) = run_side(&side, config, &home, &save)?;
        if rounds > 0 {
            turns::keep_base(&benches, &base_bin)?;
        }
        if outcome == Outcome::Failed {
            bail!(
                "the base {short} did not run (its output is above); fix it or choose another \
                 --base"
            );
        }
        std::fs::create_dir_all(&home)
            .and_then(|()| benchgrind_runner::store::write_atomic(&stamp, key.as_bytes()))
            .file_op("write", &stamp)?;
        crate::messages::note!("the base took {:.1}s", start.elapsed().as_secs_f64());
    }
    let tree = working_tree(&root, &ab)?;
    checkout(&root, &build, &tree)?;
    crate::messages::note!("measuring the working tree against {short}");
    // Its summaries name the repository's HEAD, not the build checkout's commit of the tree.
    let revision = git(
        &root,
        &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
    )
    .ok();
    let in_turns = (rounds > 0).then(|| Paired {
        base_bin,
        ab,
        rounds,
        // The order of each round from the base's commit: the same for a rerun, logged.
        seed: u64::from_str_radix(&sha[..16.min(sha.len())], 16).unwrap_or(0),
    });
    head(
        &side,
        config,
        &home,
        (&baseline, &sha),
        revision.as_deref(),
        in_turns,
    )
}

/// How perf's benchmarks are sampled in turns, after both sides are measured.
struct Paired {
    /// Where the base's binaries are kept.
    base_bin: PathBuf,
    /// `benchgrind-ab/`.
    ab: PathBuf,
    /// How many rounds.
    rounds: usize,
    /// The seed of the order in each round.
    seed: u64,
}

/// The bench argument that leaves perf out of the runs that measure Valgrind's counts when
/// perf is sampled in turns afterwards (the last value of a flag wins).
const PERF_OFF: &str = "--perf=no";

/// The report `ab` was asked for, read from the bench arguments (and the variables the bench
/// binaries read), and those arguments without it.
struct Asked {
    /// `--output-format`, `--output-file`, colours and `--uncompared`, as `merge` takes them.
    report: crate::cmd::merge::Config,
    /// The other bench arguments.
    rest: Vec<OsString>,
}

/// Splits the report's options from the other bench arguments, read by the runner's own
/// parser (with the variables the bench binaries read, and their rules and messages).
fn asked(bench_args: &[OsString]) -> Result<Asked> {
    use benchgrind_runner::cli::{self, Color};
    const REPORT: [&str; 4] = [
        "--output-format",
        "--output-file",
        "--color",
        "--uncompared",
    ];
    let (taken, rest) = cli::split_off(bench_args, &REPORT).map_err(|e| anyhow::anyhow!("{e}"))?;
    let env = |name: &str| std::env::var(name).ok();
    let parsed = cli::parse(&taken, &env).map_err(|e| anyhow::anyhow!("{e}"))?;
    let color = match parsed.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::IsTerminal::is_terminal(&std::io::stdout()),
    };
    Ok(Asked {
        report: crate::cmd::merge::config(
            parsed.output_format,
            parsed.output_file,
            color,
            parsed.uncompared_fails,
        ),
        rest,
    })
}

/// The working tree's side: every bench binary compared with the base's baseline, printing JSON
/// summaries, then one report of them all and one exit status.
fn head(
    side: &Side,
    config: &Config,
    home: &Path,
    (baseline, sha): (&str, &str),
    revision: Option<&str>,
    paired: Option<Paired>,
) -> Result<Outcome> {
    let asked = asked(&config.bench_args)?;
    let benches = build(side, &config.cargo_args)?;
    let perf_off = paired.as_ref().map(|_| PERF_OFF);
    let mut summaries = Vec::new();
    let mut failed = false;
    for (exe, package_dir) in &benches {
        let mut command = Command::new(exe);
        if let Some(revision) = revision {
            command.env("BENCHGRIND_REVISION", revision);
        }
        let output = command
            .arg("--bench")
            .arg(format!("--home={}", home.display()))
            .arg(format!("--baseline={baseline}"))
            .arg(format!("--baseline-revision={sha}"))
            .arg("--output-format=json")
            .args(&asked.rest)
            .args(perf_off)
            .current_dir(package_dir)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", exe.display()))?;
        // Its notes and warnings, without its own closing tally: the one report has it.
        let stderr = String::from_utf8_lossy(&output.stderr);
        crate::messages::relay(without_tally(&stderr));
        if !ends_with_results(output.status.code()) {
            failed = true;
            if output.stdout.is_empty() {
                crate::messages::error!(
                    "{} ended with {} and reported no benchmark",
                    exe.display(),
                    output.status
                );
            }
        }
        let text = String::from_utf8_lossy(&output.stdout);
        if !text.trim().is_empty() {
            for summary in crate::cmd::merge::parse_summaries(exe, &text)? {
                summaries.push((summary, exe.clone()));
            }
        }
    }
    if summaries.is_empty() {
        bail!("no bench binary reported a benchmark (their output is above)");
    }
    if let Some(paired) = paired {
        let base = turns::kept_base(&paired.base_bin).with_context(|| {
            format!(
                "the base's bench binaries are missing from {}; run ab with --fresh",
                paired.base_bin.display()
            )
        })?;
        let turns = turns::Turns {
            base: &base,
            head: &benches,
            args: &asked.rest,
            ab: &paired.ab,
            rounds: paired.rounds,
            seed: paired.seed,
        };
        turns.run(&mut summaries)?;
    }
    let outcome = crate::cmd::merge::report_all(&asked.report, summaries)?;
    Ok(if failed { Outcome::Failed } else { outcome })
}

/// Whether a bench binary that ended with `code` measured its benchmarks: every one measured, a
/// limit passed or one uncompared (the runner's exit codes).
fn ends_with_results(code: Option<i32>) -> bool {
    use benchgrind_runner::harness::exit;
    matches!(code, Some(exit::OK | exit::REGRESSION | exit::UNCOMPARED))
}

/// A bench binary's stderr without the closing tally its JSON report ends with (the line
/// `benchgrind: FILE: N benchmarks in ...` and the lines under it).
fn without_tally(stderr: &str) -> &str {
    let tally = stderr
        .match_indices("\nbenchgrind: ")
        .map(|(at, _)| at)
        .filter(|&at| {
            let line = stderr[at + 1..].lines().next().unwrap_or("");
            line.contains(" measured, ") && line.contains(" regressed")
        })
        .last();
    match tally {
        Some(at) => &stderr[..at + 1],
        None => stderr,
    }
}

/// Builds the base's bench binaries and runs each, saving its counts as the baseline `save`
/// names; their reports are shown only when one fails. Failed when one failed; and the
/// binaries.
fn run_side(
    side: &Side,
    config: &Config,
    home: &Path,
    save: &str,
) -> Result<(Outcome, Vec<(PathBuf, PathBuf)>)> {
    let benches = build(side, &config.cargo_args)?;
    // The report's options are the working tree's; the base's reports are not shown.
    let rest = asked(&config.bench_args)?.rest;
    let in_turns = config.perf_rounds.unwrap_or(turns::DEFAULT_ROUNDS) > 0;
    let perf_off = in_turns.then_some(PERF_OFF);
    let mut outcome = Outcome::Done;
    for (exe, package_dir) in &benches {
        let output = Command::new(exe)
            .arg("--bench")
            .arg(format!("--home={}", home.display()))
            .arg(save)
            .args(&rest)
            .args(perf_off)
            .current_dir(package_dir)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", exe.display()))?;
        if !ends_with_results(output.status.code()) {
            crate::messages::relay(&String::from_utf8_lossy(&output.stdout));
            crate::messages::relay(&String::from_utf8_lossy(&output.stderr));
            outcome = Outcome::Failed;
        }
    }
    Ok((outcome, benches))
}

/// `cargo bench --no-run` on one side: its bench executables and their packages' directories;
/// an error when it built none.
fn build(side: &Side, cargo_args: &[OsString]) -> Result<Vec<(PathBuf, PathBuf)>> {
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "bench",
            "--no-run",
            "--message-format=json-render-diagnostics",
        ])
        .args(cargo_args)
        .env("CARGO_TARGET_DIR", &side.target)
        .current_dir(&side.dir)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo")?;
    if !output.status.success() {
        bail!(
            "cargo bench --no-run failed in {} (its messages are above)",
            side.dir.display()
        );
    }
    let mut benches = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let is_bench = message["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "bench"));
        let (Some(exe), Some(manifest), true) = (
            message["executable"].as_str(),
            message["manifest_path"].as_str(),
            message["reason"] == "compiler-artifact" && is_bench,
        ) else {
            continue;
        };
        let package_dir = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new("."))
            .to_owned();
        benches.push((PathBuf::from(exe), package_dir));
    }
    if benches.is_empty() {
        bail!(
            "cargo built no bench target in {}; pass -p PACKAGE or --bench NAME, or run ab in a \
             package with benchmarks",
            side.dir.display()
        );
    }
    Ok(benches)
}

/// Cargo's target directory for the package or workspace at `dir`.
fn target_directory(dir: &Path) -> Result<PathBuf> {
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["metadata", "--format-version=1", "--no-deps"])
        .current_dir(dir)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed in {}: is it a cargo package?",
            dir.display()
        );
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("cargo metadata printed no JSON")?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("cargo metadata names no target directory")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn cargo_and_bench_arguments_are_split_at_the_double_dash() {
        let c = Config::parse(os(&[
            "--base=main",
            "-p",
            "app",
            "--",
            "--regression=ir=5%",
            "fib",
        ]))
        .unwrap();
        assert_eq!(c.base, "main");
        assert_eq!(c.cargo_args, os(&["-p", "app"]));
        assert_eq!(c.bench_args, os(&["--regression=ir=5%", "fib"]));
        let c = Config::parse(os(&["--base", "HEAD~1", "--fresh"])).unwrap();
        assert_eq!((c.base.as_str(), c.fresh), ("HEAD~1", true));
        assert_eq!(c.perf_rounds, None);
        let c = Config::parse(os(&["--base=main", "--perf-rounds=0"])).unwrap();
        assert_eq!(c.perf_rounds, Some(0));
        let c = Config::parse(os(&["--base=main", "--perf-rounds", "4"])).unwrap();
        assert_eq!(c.perf_rounds, Some(4));
    }

    #[test]
    fn mistakes_name_the_argument() {
        let e = Config::parse(os(&["-p", "app"])).unwrap_err().to_string();
        assert!(e.contains("--base=REV"), "{e}");
        let e = Config::parse(os(&["--base=main", "--", "--home=/tmp/x"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--home"), "{e}");
        assert!(matches!(
            Config::parse(os(&["--help"])),
            Err(UsageError::Help(_))
        ));
        let e = Config::parse(os(&["--base=main", "--perf-rounds=many"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--perf-rounds=many"), "{e}");
    }
}
