//! `benchgrind explain OLD NEW`: which functions (and source lines) made the counts change,
//! exactly, between two Callgrind profiles: any program's, or benchgrind's benchmarks and
//! baselines.
//!
//! The pipeline: `parse` (raw arguments) -> `resolve` (what the inputs are: files, benchmark
//! directories, baseline names; nothing read yet) -> one `benchgrind_runner::explain` per
//! benchmark -> a report (terminal, JSON or Markdown) -> exit code. The attribution itself lives
//! in the runner, so that the bench harness can print the same thing after a run.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::config::EventKind;
use benchgrind_runner::explain::{self, markdown, wire::WireExplanation, Explanation, Options};
use serde::Serialize;

use crate::compare::input::baseline::is_name;
use crate::compare::input::summary::find_files;
use crate::exit::Outcome;
use crate::usage::UsageError;

/// The help text.
const USAGE: &str = "\
benchgrind explain: which functions and source lines changed the counts, exactly

USAGE:
    benchgrind explain OLD NEW [OPTIONS]
    benchgrind explain DIR [OPTIONS]
    benchgrind explain --baseline NAME [DIR] [OPTIONS]

OLD and NEW are each one of:
    a Callgrind out file, of any program (`valgrind --tool=callgrind ...`)
    a benchmark directory (target/benchgrind/<package>/<bench>/<group>/<function>.<id>): its
        `callgrind.out`
    a directory above benchmarks (e.g. two copies of target/benchgrind): every benchmark
        below either, matched by their place below it
    a baseline NAME saved with `--save-baseline=NAME`, when no file of that name exists: the
        `baseline.NAME.callgrind.out` of every benchmark below the home (see --home); both sides
        must then be names

DIR alone explains the last run of every benchmark in or below DIR against the run before it
(`callgrind.out.old` -> `callgrind.out`); with --baseline NAME, against that baseline
(`baseline.NAME.callgrind.out` -> `callgrind.out`) [default DIR: the home].

Per benchmark: the functions whose self cost changed most in the ranking metric, with old, new
and difference of their self cost and the difference of their inclusive cost (self plus the
calls they make to other functions); new and gone functions are marked. An `other` line and the
total follow, so that the column adds up to the benchmark's total difference exactly.

OPTIONS:
    --top N                functions per benchmark [default: 10; `all` for every one]
    --metric METRIC        rank by METRIC: Ir (default), EstimatedCycles, L1hits, LLhits,
                           RamHits, TotalRW, Dr, Dw, ... (any metric both profiles have)
    --lines                also show the source lines whose cost changed most (up to 5 per
                           function; needs line tables, e.g. `debug = \"line-tables-only\"`)
    --output-format FMT    terminal (default), json (every changed function and line) or
                           markdown (a pull-request comment)
    --baseline NAME        compare the baseline NAME with the last run (see above)
    --home DIR             where baselines are looked up [default: env BENCHGRIND_HOME, else
                           $CARGO_TARGET_DIR/benchgrind, else target/benchgrind]
    -h, --help             print this help

EXIT CODES:
    0 explained, 1 unreadable or damaged input, 2 usage
";

/// The format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Terminal,
    Json,
    Markdown,
}

/// What follows a usage mistake.
const HINT: &str = "Run `benchgrind explain --help` for usage.";

/// A mistake on the command line (exit code 2), with the pointer to `--help`.
fn usage<T>(message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError::new(message).hint(HINT))
}

/// [`usage`] where the arguments are resolved against the files.
fn mistake<T>(message: impl Into<String>) -> Result<T> {
    Ok(usage(message)?)
}

/// The arguments, checked for shape.
#[derive(Debug, Default)]
struct Args {
    positional: Vec<PathBuf>,
    top: Option<usize>,
    metric: Option<EventKind>,
    lines: bool,
    format: Option<Format>,
    baseline: Option<String>,
    home: Option<PathBuf>,
    help: bool,
}

/// The command line of `explain`, checked for shape; `run` finds the profiles.
#[derive(Debug)]
pub struct Config {
    /// The arguments as given.
    args: Args,
}

impl Config {
    /// Parses the arguments after `explain`.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        let args = parse(args)?;
        if args.help {
            return Err(UsageError::Help(USAGE));
        }
        Ok(Config { args })
    }
}

/// Runs `explain`: every benchmark's attribution, or an error naming the damaged file.
pub fn run(config: &Config) -> Result<Outcome> {
    let args = &config.args;
    let jobs = resolve(args)?;
    let options = Options {
        metric: args.metric,
    };
    let mut done = Vec::with_capacity(jobs.len());
    for job in jobs {
        let explanation = match (&job.old, &job.new) {
            (Some(old), Some(new)) => Some(
                explain::explain(old, new, &options)
                    .with_context(|| format!("cannot explain `{}`", job.id))?,
            ),
            _ => None,
        };
        done.push((job, explanation));
    }
    let mut out = io::stdout().lock();
    let written = report(&mut out, args, &done).and_then(|()| out.flush());
    match written {
        // A closed pipe (`| head`) is the reader's choice.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("cannot write the report"))
        }
        _ => Ok(Outcome::Done),
    }
}

fn parse(args: Vec<OsString>) -> Result<Args, UsageError> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut out = Args::default();
    let bad = |e: lexopt::Error| UsageError::from(e).hint(HINT);
    while let Some(arg) = parser.next().map_err(bad)? {
        match arg {
            Short('h') | Long("help") => out.help = true,
            Long("lines") => out.lines = true,
            Long("top") => {
                let value = parser.value().map_err(bad)?.string().map_err(bad)?;
                out.top = Some(match value.as_str() {
                    "all" => usize::MAX,
                    n => match n.parse() {
                        Ok(n) if n > 0 => n,
                        _ => {
                            return usage(format!(
                                "--top `{n}`: expected a number above 0 or `all`"
                            ))
                        }
                    },
                });
            }
            Long("metric") => {
                let value = parser.value().map_err(bad)?.string().map_err(bad)?;
                let Some(kind) = EventKind::from_name(&value) else {
                    let names: Vec<_> = EventKind::ALL.iter().map(|k| k.name()).collect();
                    return usage(format!(
                        "--metric `{value}` is no metric; expected one of {}",
                        names.join(", ")
                    ));
                };
                out.metric = Some(kind);
            }
            Long("output-format") | Long("format") => {
                let value = parser.value().map_err(bad)?.string().map_err(bad)?;
                out.format = Some(match value.as_str() {
                    "terminal" => Format::Terminal,
                    "json" => Format::Json,
                    "markdown" => Format::Markdown,
                    other => {
                        return usage(format!(
                            "--output-format `{other}`: expected terminal, json or markdown"
                        ))
                    }
                });
            }
            Long("baseline") => {
                let value = parser.value().map_err(bad)?.string().map_err(bad)?;
                if !is_name(&value) {
                    return usage(format!(
                        "--baseline `{value}` is not a baseline name (letters, digits, `-`, `_`, \
                         `.`)"
                    ));
                }
                out.baseline = Some(value);
            }
            Long("home") => out.home = Some(parser.value().map_err(bad)?.into()),
            Value(v) => out.positional.push(v.into()),
            _ => return Err(UsageError::from(arg.unexpected()).hint(HINT)),
        }
    }
    Ok(out)
}

/// One benchmark to explain: its profiles (one may be missing: a new or removed benchmark).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    id: String,
    old: Option<PathBuf>,
    new: Option<PathBuf>,
    /// The directory of a benchmark, where its differential flamegraph would be.
    dir: Option<PathBuf>,
}

/// Which file of a benchmark directory a side is.
#[derive(Debug, Clone)]
enum Side {
    /// `callgrind.out` (the last run).
    Current,
    /// `callgrind.out.old` (the run before).
    Previous,
    /// `baseline.NAME.callgrind.out`.
    Baseline(String),
}

impl Side {
    fn file(&self) -> String {
        match self {
            Side::Current => "callgrind.out".into(),
            Side::Previous => "callgrind.out.old".into(),
            Side::Baseline(name) => format!("baseline.{name}.callgrind.out"),
        }
    }
}

/// What the positional arguments and `--baseline` mean.
fn resolve(args: &Args) -> Result<Vec<Job>> {
    if args.home.is_some() && args.baseline.is_none() && !args.positional.iter().all(|p| is_word(p))
    {
        return mistake("`--home` says where baselines are, but no baseline is named");
    }
    let home = || {
        args.home
            .clone()
            .unwrap_or_else(crate::compare::config::default_home)
    };
    match (&args.baseline, args.positional.as_slice()) {
        (Some(name), []) => benchmarks(
            &home(),
            &home(),
            &Side::Baseline(name.clone()),
            &Side::Current,
        ),
        (Some(name), [dir]) => benchmarks(dir, dir, &Side::Baseline(name.clone()), &Side::Current),
        (Some(_), _) => mistake("--baseline NAME takes at most one DIR"),
        (None, []) => mistake("expected OLD NEW, or a DIR"),
        (None, [dir]) => {
            if !dir.is_dir() {
                return mistake(format!(
                    "`{}` alone must be a directory (benchmark or home); to compare two profiles \
                     pass OLD and NEW",
                    dir.display()
                ));
            }
            benchmarks(dir, dir, &Side::Previous, &Side::Current)
        }
        (None, [old, new]) if is_word(old) && is_word(new) => {
            let (old, new) = (old.to_string_lossy(), new.to_string_lossy());
            let home = home();
            benchmarks(
                &home,
                &home,
                &Side::Baseline(old.into()),
                &Side::Baseline(new.into()),
            )
        }
        (None, [old, new]) => pair(old, new),
        (None, more) => mistake(format!(
            "expected OLD and NEW, got {} arguments",
            more.len()
        )),
    }
}

/// A baseline name rather than a path: no such file, and the shape of a name.
fn is_word(p: &Path) -> bool {
    !p.exists() && p.to_str().is_some_and(is_name)
}

/// Two paths given as OLD and NEW: files, benchmark directories, or directories above them.
fn pair(old: &Path, new: &Path) -> Result<Vec<Job>> {
    for p in [old, new] {
        if !p.exists() {
            let hint = if is_word(p) {
                " (if it is a baseline name, the other side must be one too)"
            } else {
                ""
            };
            bail!(
                "`{}` does not exist{hint}: pass two Callgrind out files, benchmark directories \
                 or directories above them, or two baseline names",
                p.display()
            );
        }
    }
    let profile = |p: &Path| {
        if p.is_dir() && p.join("callgrind.out").is_file() {
            Some(p.join("callgrind.out"))
        } else if p.is_file() {
            Some(p.to_path_buf())
        } else {
            None
        }
    };
    match (profile(old), profile(new)) {
        (Some(o), Some(n)) => Ok(vec![Job {
            id: new.display().to_string(),
            dir: new.is_dir().then(|| new.to_path_buf()),
            old: Some(o),
            new: Some(n),
        }]),
        (None, None) => benchmarks(old, new, &Side::Current, &Side::Current),
        _ => mistake(
            "OLD and NEW must be alike: two profiles (files or benchmark directories) or two \
             directories above benchmarks",
        ),
    }
}

/// Every benchmark directory below `old_root` or `new_root` (matched by the path below them)
/// that has the `old` or the `new` profile.
fn benchmarks(old_root: &Path, new_root: &Path, old: &Side, new: &Side) -> Result<Vec<Job>> {
    let (old_file, new_file) = (old.file(), new.file());
    let mut found = Vec::new();
    for root in [old_root, new_root] {
        if !root.is_dir() {
            bail!(
                "`{}` is not a directory (for baselines: set the benchgrind home with --home)",
                root.display()
            );
        }
        let wanted = |f: &str| f == old_file || f == new_file;
        let mut files = Vec::new();
        find_files(root, &wanted, &mut files)?;
        found.extend(files.iter().filter_map(|f| {
            let dir = f.parent()?;
            dir.strip_prefix(root).ok().map(Path::to_path_buf)
        }));
    }
    found.sort();
    found.dedup();
    let jobs: Vec<Job> = found
        .into_iter()
        .map(|rel| {
            let existing = |p: PathBuf| p.is_file().then_some(p);
            Job {
                id: bench_id(&new_root.join(&rel)),
                old: existing(old_root.join(&rel).join(&old_file)),
                new: existing(new_root.join(&rel).join(&new_file)),
                dir: Some(new_root.join(&rel)),
            }
        })
        .filter(|job| job.old.is_some() || job.new.is_some())
        .collect();
    if jobs.is_empty() {
        bail!(
            "no benchmark below `{}` has `{old_file}` or `{new_file}`",
            new_root.display()
        );
    }
    Ok(jobs)
}

/// `file::group::function[::id]` from a benchmark directory
/// (`.../<package>/<bench file>/<group>/<function>[.<id>]`).
fn bench_id(dir: &Path) -> String {
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [.., file, group, leaf] => match leaf.split_once('.') {
            Some((function, id)) => format!("{file}::{group}::{function}::{id}"),
            None => format!("{file}::{group}::{leaf}"),
        },
        _ => dir.display().to_string(),
    }
}

/// The JSON report: every benchmark with its full attribution.
#[derive(Serialize)]
struct JsonReport<'a> {
    /// The version of `explain`'s JSON form (the runner's `wire::VERSION`).
    version: u32,
    benchmarks: Vec<JsonBench<'a>>,
}

#[derive(Serialize)]
struct JsonBench<'a> {
    id: &'a str,
    /// `compared`, `new` or `gone`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    flamegraph: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<WireExplanation>,
}

/// The differential flamegraph of a benchmark's ranking metric, if the run drew one.
fn flamegraph(job: &Job, e: Option<&Explanation>) -> Option<String> {
    let metric = e?.rank_metric().name();
    let svg = job
        .dir
        .as_ref()?
        .join(format!("callgrind.{metric}.diff.flamegraph.svg"));
    svg.is_file().then(|| svg.display().to_string())
}

fn report(out: &mut dyn Write, args: &Args, done: &[(Job, Option<Explanation>)]) -> io::Result<()> {
    let top = args.top.unwrap_or(10);
    let lines = if args.lines { 5 } else { 0 };
    match args.format.unwrap_or(Format::Terminal) {
        Format::Terminal => {
            for (job, e) in done {
                writeln!(out, "{}", job.id)?;
                match e {
                    Some(e) if !e.changed() && e.functions.is_empty() => {
                        writeln!(out, "  No change: the profiles have the same costs")?
                    }
                    Some(e) => e.write_terminal(out, top, lines)?,
                    None if job.old.is_none() => writeln!(out, "  New: no old profile")?,
                    None => writeln!(out, "  Gone: no new profile")?,
                }
            }
            Ok(())
        }
        Format::Json => {
            let benchmarks = done
                .iter()
                .map(|(job, e)| JsonBench {
                    id: &job.id,
                    status: match (e, &job.old) {
                        (Some(_), _) => "compared",
                        (None, None) => "new",
                        (None, Some(_)) => "gone",
                    },
                    flamegraph: flamegraph(job, e.as_ref()),
                    explanation: e.as_ref().map(Explanation::to_wire),
                })
                .collect();
            let doc = JsonReport {
                version: explain::wire::VERSION,
                benchmarks,
            };
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)
        }
        Format::Markdown => {
            let svgs: Vec<Option<String>> = done
                .iter()
                .map(|(j, e)| flamegraph(j, e.as_ref()))
                .collect();
            let entries: Vec<markdown::Entry> = done
                .iter()
                .zip(&svgs)
                .map(|((job, e), svg)| markdown::Entry {
                    id: &job.id,
                    outcome: match (e, &job.old) {
                        (Some(e), _) => markdown::Finding::Compared(e),
                        (None, None) => markdown::Finding::New,
                        (None, Some(_)) => markdown::Finding::Gone,
                    },
                    flamegraph: svg.as_deref(),
                    limits: None,
                    layout_only: false,
                })
                .collect();
            out.write_all(markdown::render(&entries, top, lines).as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_benchmark_directories() {
        let id = |p: &str| bench_id(Path::new(p));
        assert_eq!(
            id("/h/pkg/bench/group/func.case"),
            "bench::group::func::case"
        );
        assert_eq!(id("/h/pkg/bench/group/func"), "bench::group::func");
        assert_eq!(id("x"), "x");
    }

    #[test]
    fn usage_errors() {
        let err = |a: &[&str]| {
            let args = a.iter().map(OsString::from).collect();
            let e = parse(args)
                .map_err(anyhow::Error::from)
                .and_then(|a| resolve(&a).map(|_| ()))
                .unwrap_err();
            assert!(e.is::<UsageError>(), "{a:?}: {e}");
            e.to_string()
        };
        assert!(err(&["--top", "0", "a", "b"]).contains("--top `0`"));
        assert!(err(&["--metric", "Instructions", "a", "b"]).contains("no metric"));
        assert!(err(&["--output-format", "csv", "a", "b"]).contains("terminal, json"));
        assert!(err(&["--baseline", "a/b"]).contains("not a baseline name"));
        assert!(err(&[]).contains("expected OLD NEW"));
        assert!(err(&["a", "b", "c"]).contains("got 3 arguments"));
        assert!(err(&["--bogus"]).contains("--bogus"));
    }
}
