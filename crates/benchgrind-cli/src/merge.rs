//! `benchgrind merge`: the summaries of several runs (for example the shares of a suite split
//! with `--partition=K/N` across CI machines) as one report and one exit status, as if one run
//! had measured them all.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::report::json::Json;
use benchgrind_runner::report::markdown::Markdown;
use benchgrind_runner::report::summary::Summary;
use benchgrind_runner::report::terminal::{Style, Terminal};
use benchgrind_runner::report::{Reporter, RunSummary};
use benchgrind_runner::result::Outcome;

const USAGE: &str = "\
Usage: benchgrind merge [OPTIONS] INPUT...

Reports the benchmark summaries of several runs as one run: each INPUT is a summary.json, a file
of summaries one per line (what `--output-format=json` prints), or a directory searched for
summary.json files (what `--save-summary` writes). Exit status as a bench run's: 0 ok, 1 a
benchmark failed, 2 usage, 3 a regression limit was passed.

Options:
      --output-format=FORMAT   default, json, pretty-json or markdown
      --color=WHEN             always, never or auto [env: BENCHGRIND_COLOR]
  -h, --help                   print this help
";

/// Runs `benchgrind merge`; returns the exit code.
pub fn run(args: Vec<OsString>) -> u8 {
    match run_inner(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn run_inner(args: Vec<OsString>) -> Result<u8> {
    let mut inputs = Vec::new();
    let mut format = "default".to_owned();
    let mut color = std::env::var("BENCHGRIND_COLOR").unwrap_or_default();
    for arg in args {
        let Some(text) = arg.to_str() else {
            inputs.push(PathBuf::from(arg));
            continue;
        };
        if text == "-h" || text == "--help" {
            print!("{USAGE}");
            return Ok(0);
        } else if let Some(v) = text.strip_prefix("--output-format=") {
            format = v.to_owned();
        } else if let Some(v) = text.strip_prefix("--color=") {
            color = v.to_owned();
        } else if text.starts_with('-') {
            eprintln!("error: unknown option `{text}`\n\n{USAGE}");
            return Ok(2);
        } else {
            inputs.push(PathBuf::from(text));
        }
    }
    if inputs.is_empty() {
        eprintln!("error: no input\n\n{USAGE}");
        return Ok(2);
    }
    let style = Style {
        color: match color.as_str() {
            "always" => true,
            "never" => false,
            _ => std::io::stdout().is_terminal(),
        },
    };
    let mut reporter: Box<dyn Reporter> = match format.as_str() {
        "default" => Box::new(Terminal { style }),
        "json" => Box::new(Json { pretty: false }),
        "pretty-json" => Box::new(Json { pretty: true }),
        "markdown" => Box::new(Markdown::default()),
        other => {
            eprintln!(
                "error: --output-format is `{other}`; use default, json, pretty-json or markdown"
            );
            return Ok(2);
        }
    };

    let mut summaries = Vec::new();
    for input in &inputs {
        load(input, &mut summaries)?;
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
    // The order of one run: bench file, then the order the ids came in within it.
    summaries.sort_by(|a, b| a.0.file.cmp(&b.0.file));

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut tally = RunSummary {
        file: unique(summaries.iter().map(|s| s.0.file.as_str())),
        ..RunSummary::default()
    };
    for (summary, from) in &summaries {
        let result = summary
            .to_result()
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("in {}", from.display()))?;
        reporter.bench(&mut out, &result)?;
        match &result.outcome {
            Outcome::Failed { reason } => {
                tally
                    .failed
                    .push((summary.id.clone(), reason.clone(), result.log.clone()));
            }
            Outcome::Measured { .. } => tally.measured += 1,
        }
        for r in &result.regressions {
            tally.regressions.push((summary.id.clone(), r.describe()));
        }
        tally.seconds += summary.duration_secs;
    }
    reporter.finish(&mut out, &tally)?;
    out.flush()?;
    Ok(if !tally.failed.is_empty() {
        1
    } else if !tally.regressions.is_empty() {
        3
    } else {
        0
    })
}

fn unique<'a>(files: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = files.collect();
    names.dedup();
    names.join(", ")
}

/// Reads the summaries of one input, each with the file it came from.
fn load(input: &Path, out: &mut Vec<(Summary, PathBuf)>) -> Result<()> {
    if input.is_dir() {
        let mut files = Vec::new();
        crate::compare::input::summary::find_files(
            input,
            &|name| name == "summary.json",
            &mut files,
        )?;
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
    let text = std::fs::read_to_string(input)
        .with_context(|| format!("cannot read {}", input.display()))?;
    let trimmed = text.trim_start();
    let documents: Vec<(usize, &str)> = if trimmed.starts_with('{')
        && text.trim().lines().count() > 1
        && serde_json::from_str::<serde_json::Value>(&text).is_ok()
    {
        vec![(1, text.as_str())]
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .collect()
    };
    if documents.is_empty() {
        bail!("{} holds no summary", input.display());
    }
    for (line, doc) in documents {
        let summary: Summary = serde_json::from_str(doc).with_context(|| {
            format!(
                "{}:{line}: not a benchgrind summary (write them with --output-format=json or \
                 --save-summary)",
                input.display()
            )
        })?;
        out.push((summary, input.to_owned()));
    }
    Ok(())
}
