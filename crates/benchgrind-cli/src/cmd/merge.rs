//! `benchgrind merge`: the summaries of several runs (for example the shares of a suite split
//! with `--partition=K/N` across CI machines) as one report and one exit status, as if one run
//! had measured them all, with the bench harness's own reporters.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::cli::{Color, Labels, ReportFormat};
use benchgrind_runner::error::FileResult;
use benchgrind_runner::report::summary::{check_version, Summary};
use benchgrind_runner::report::{self, Reporter, Reporters, RunSummary, Target};
use benchgrind_runner::result::Outcome as BenchOutcome;
use serde::Deserialize;

use crate::compare::input::summary::find_files;
use crate::exit::Outcome;
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Usage: benchgrind merge [OPTIONS] INPUT...

Reports the benchmark summaries of several runs as one run: each INPUT is a summary.json, a file
of summaries one per line (what `--output-format=json` prints), or a directory searched for
summary.json files (what `--save-summary` writes). Exit status as a bench run's: 0 ok, 1 a
benchmark failed, 2 usage, 3 a regression limit was passed, 4 a benchmark was uncompared (no
baseline of its own machine and revision) with --uncompared=fail.

Options:
      --output-format=FORMAT   default, json, pretty-json, markdown, bmf (Bencher) or
                               gungraun-json
      --output-file=PATH       write the report into PATH instead of stdout
      --color=WHEN             always, never or auto [env: BENCHGRIND_COLOR]
      --uncompared=POLICY      notice (report uncompared benchmarks and pass) or fail (exit 4)
                               [env: BENCHGRIND_UNCOMPARED] [default: notice]
  -h, --help                   print this help
";

/// What `merge` was asked.
#[derive(Debug)]
pub struct Config {
    /// Summary files and directories, in the order given.
    inputs: Vec<PathBuf>,
    /// `--output-format`.
    format: ReportFormat,
    /// `--output-file`: where the report goes instead of stdout.
    output: Option<PathBuf>,
    /// Whether the terminal report is colored (`--color`, `BENCHGRIND_COLOR`, else a terminal).
    color: bool,
    /// `--uncompared=fail`: an uncompared benchmark makes the exit status 4.
    uncompared_fails: bool,
}

impl Config {
    /// Parses the arguments after `merge`. Only the `--flag=value` forms are flags; anything else
    /// not starting with `-` is an input.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        let mut inputs = Vec::new();
        let mut format = "default".to_owned();
        let mut output = None;
        let mut color = std::env::var("BENCHGRIND_COLOR").unwrap_or_default();
        let mut uncompared = std::env::var("BENCHGRIND_UNCOMPARED").unwrap_or_default();
        for arg in args {
            let Some(text) = arg.to_str() else {
                inputs.push(PathBuf::from(arg));
                continue;
            };
            if text == "-h" || text == "--help" {
                return Err(UsageError::Help(USAGE));
            } else if let Some(v) = text.strip_prefix("--output-format=") {
                format = v.to_owned();
            } else if let Some(v) = text.strip_prefix("--output-file=") {
                if v.is_empty() {
                    return Err(UsageError::new(
                        "--output-file is empty; give the file to write: --output-file=bmf.json",
                    ));
                }
                output = Some(PathBuf::from(v));
            } else if let Some(v) = text.strip_prefix("--color=") {
                color = v.to_owned();
            } else if let Some(v) = text.strip_prefix("--uncompared=") {
                uncompared = v.to_owned();
            } else if text.starts_with('-') {
                return Err(UsageError::new(format!("unknown option `{text}`")).hint(USAGE));
            } else {
                inputs.push(PathBuf::from(text));
            }
        }
        if inputs.is_empty() {
            return Err(UsageError::new("no input").hint(USAGE));
        }
        let color = match color.as_str() {
            "always" => true,
            "never" => false,
            _ => std::io::stdout().is_terminal(),
        };
        let Some(format) = ReportFormat::from_name(&format) else {
            return Err(UsageError::new(format!(
                "--output-format is `{format}`; use {}",
                ReportFormat::NAMES
            )));
        };
        let uncompared_fails = match uncompared.as_str() {
            "" | "notice" => false,
            "fail" => true,
            other => {
                return Err(UsageError::new(format!(
                    "--uncompared is `{other}`; use notice or fail"
                )))
            }
        };
        Ok(Config {
            inputs,
            format,
            output,
            color,
            uncompared_fails,
        })
    }
}

/// Runs `merge`: failed when a benchmark failed, past the limit when one regressed.
pub fn run(config: &Config) -> Result<Outcome> {
    let mut summaries = Vec::new();
    for input in &config.inputs {
        load(input, &mut summaries)?;
    }
    report_all(config, summaries)
}

/// How `ab` asks for its one report of every bench binary: the format, the file, colours and
/// the policy for uncompared benchmarks, as `merge`'s options say them.
pub fn config(
    format: ReportFormat,
    output: Option<PathBuf>,
    color: bool,
    uncompared_fails: bool,
) -> Config {
    Config {
        inputs: Vec::new(),
        format,
        output,
        color,
        uncompared_fails,
    }
}

/// Reports `summaries` (each with the file it came from) as one run, in the format `config`
/// asks for; the outcome of that run.
pub fn report_all(config: &Config, mut summaries: Vec<(Summary, PathBuf)>) -> Result<Outcome> {
    let color = if config.color {
        Color::Always
    } else {
        Color::Never
    };
    let mut reporters = Reporters::new();
    // The bench binaries' labels by default: iai-callgrind's names (`L2 Hits`).
    reporters.push(
        report::reporter(config.format, color, Labels::default()),
        config.output.clone().map_or(Target::Stdout, Target::File),
    );
    if summaries.is_empty() {
        bail!("the inputs hold no summary; write them with --output-format=json or --save-summary");
    }
    let mut seen = std::collections::HashMap::new();
    for (summary, from) in &summaries {
        if let Some(first) = seen.insert(summary.id.clone(), from.clone()) {
            bail!(
                "{} is in both {} and {}; merge the shares of one run, each benchmark once",
                summary.id,
                first.display(),
                from.display()
            );
        }
    }
    warn_machines(&summaries);
    // The order of one run: bench file, then the order the ids came in within it.
    summaries.sort_by(|a, b| a.0.file.cmp(&b.0.file));
    let tally = report(&mut reporters, &summaries)?;
    Ok(if !tally.failed.is_empty() {
        Outcome::Failed
    } else if !tally.regressions.is_empty() {
        Outcome::PastLimit
    } else if config.uncompared_fails && !tally.uncompared.is_empty() {
        Outcome::Uncompared
    } else {
        Outcome::Done
    })
}

/// Says on stderr when the shares come from machines that differ, naming the fields: their
/// counts may differ for that reason alone.
fn warn_machines(summaries: &[(Summary, PathBuf)]) {
    let mut machines = summaries
        .iter()
        .filter_map(|(s, from)| s.fingerprint.as_ref().map(|f| (f, from)));
    let Some((first, first_from)) = machines.next() else {
        return;
    };
    for (other, from) in machines {
        let differences = other.differences(first);
        let what = format!("machine of {}", first_from.display());
        if let Some(text) = benchgrind_runner::fingerprint::describe(&differences, &what) {
            crate::messages::note!("{}: {text}", from.display());
            return;
        }
    }
}

/// Reports every summary as one run's benchmark, then the run's end; returns the tally.
fn report(reporters: &mut Reporters, summaries: &[(Summary, PathBuf)]) -> Result<RunSummary> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut tally = RunSummary {
        file: unique(summaries.iter().map(|s| s.0.file.as_str())),
        ..RunSummary::default()
    };
    for (summary, from) in summaries {
        let result = summary
            .to_result()
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("in {}", from.display()))?;
        reporters.bench(&mut out, &result)?;
        match &result.outcome {
            BenchOutcome::Failed { reason } => {
                tally
                    .failed
                    .push((summary.id.clone(), reason.clone(), result.log.clone()));
            }
            BenchOutcome::Measured { .. } if result.reuse.reused().is_some() => tally.reused += 1,
            BenchOutcome::Measured { .. } => tally.measured += 1,
        }
        for r in &result.regressions {
            tally.regressions.push((summary.id.clone(), r.describe()));
        }
        // perf's limits and failing verdicts count as the bench binary counted them.
        for r in result.perf.iter().flat_map(|p| &p.regressions) {
            tally
                .regressions
                .push((summary.id.clone(), format!("perf {r}")));
        }
        if let Some(why) = &result.uncompared {
            tally.uncompared.push((summary.id.clone(), why.clone()));
        }
        tally.layout_only += usize::from(result.layout_only.is_some());
        tally.seconds += summary.duration_secs;
    }
    reporters
        .end(&mut out, &tally)
        .map_err(anyhow::Error::msg)?;
    out.flush()?;
    Ok(tally)
}

/// The names of the bench files, each once (the summaries come sorted by file), joined for the
/// run's header.
fn unique<'a>(files: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = files.collect();
    names.dedup();
    names.join(", ")
}

/// Reads the summaries of one input, each with the file it came from.
fn load(input: &Path, out: &mut Vec<(Summary, PathBuf)>) -> Result<()> {
    if input.is_dir() {
        let mut files = Vec::new();
        find_files(input, &|name| name == "summary.json", &mut files)?;
        if files.is_empty() {
            bail!(
                "{} holds no summary.json; write them with --save-summary",
                input.display()
            );
        }
        files.sort();
        for file in files {
            load(&file, out)?;
        }
        return Ok(());
    }
    let text = std::fs::read_to_string(input).file_op("read", input)?;
    if text.trim().is_empty() {
        // A share that got no benchmark (`--partition` of fewer benchmarks than shares).
        return Ok(());
    }
    for summary in parse_summaries(input, &text)? {
        out.push((summary, input.to_owned()));
    }
    Ok(())
}

/// The summaries in the text of `input` (named in errors), as `load` reads a file: one JSON
/// document, or one per line.
pub fn parse_summaries(input: &Path, text: &str) -> Result<Vec<Summary>> {
    let documents = crate::compare::input::summary::documents(text);
    if documents.is_empty() {
        bail!("{} holds no summary", input.display());
    }
    let mut summaries = Vec::with_capacity(documents.len());
    for (line, doc) in documents {
        let at = format!("{}:{line}", input.display());
        let not_one = || {
            format!(
                "{at}: not a benchgrind summary (write them with --output-format=json or \
                 --save-summary)"
            )
        };
        let value: serde_json::Value = serde_json::from_str(doc).with_context(not_one)?;
        let version = value.get("version").and_then(serde_json::Value::as_u64);
        check_version(version, &at).map_err(anyhow::Error::msg)?;
        summaries.push(Summary::deserialize(value).with_context(not_one)?);
    }
    Ok(summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"{"version":1,"id":"f::g::func","package":"p","file":"f","group":"g","function":"func","bench_id":null,"args":"","command":null,"tool":"callgrind","status":"ok","error":null,"new_source":"run","old_source":"previous run","metrics":{"Ir":{"new":90,"old":100,"diff_pct":-10.0,"factor":-1.1}},"regressions":[],"files":{"dir":"d","profile":"d/callgrind.out","log":null},"duration_secs":0.5}"#;

    #[test]
    fn versions_1_to_7_load_and_a_newer_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("runs.json");
        let v2 = V1.replace(r#""version":1"#, r#""version":2"#);
        let v3 = V1.replace(r#""version":1"#, r#""version":3"#);
        let v4 = V1.replace(r#""version":1"#, r#""version":4"#);
        let v5 = V1.replace(r#""version":1"#, r#""version":5"#);
        let v6 = V1.replace(r#""version":1"#, r#""version":6"#);
        let v7 = V1.replace(r#""version":1"#, r#""version":7"#);
        std::fs::write(&file, format!("{V1}\n{v2}\n{v3}\n{v4}\n{v5}\n{v6}\n{v7}\n")).unwrap();
        let mut out = Vec::new();
        load(&file, &mut out).unwrap();
        assert_eq!(out.len(), 7);
        assert!(out.iter().all(|(s, _)| s.to_result().is_ok()));

        let v8 = V1.replace(r#""version":1"#, r#""version":8"#);
        std::fs::write(&file, format!("{V1}\n{v8}\n")).unwrap();
        let err = format!("{:#}", load(&file, &mut Vec::new()).unwrap_err());
        assert!(
            err.starts_with(&format!(
                "{}:2: summary version 8 is newer than this benchgrind understands",
                file.display()
            )) && err.contains("update benchgrind"),
            "{err}"
        );
    }
}
