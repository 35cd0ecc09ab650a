//! `benchgrind report`: a static HTML site of benchmark results, with history plots and
//! flamegraphs. This file is the command (usage, arguments, run); the site is `crate::report`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Result};

use crate::exit::Outcome;
use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
Usage: benchgrind report [OPTIONS] [INPUT]...

Writes a static HTML report of benchmark results: an overview of every benchmark (newest value,
change against the run before and against the baseline, regressions first; sortable and
filterable) and a page per benchmark with a history plot per metric, its flamegraphs, the other
tools' metrics, its baselines and what changed in the last change. Each INPUT is a benchgrind
home (default: ./target/benchgrind), a directory of summaries (e.g. a CI partition's home) or a
file of summaries one per line (`--output-format=json`, `benchgrind merge --output-format=json`).
Exit status: 0 written, 1 error, 2 usage.

Options:
      --out=DIR        where to write the site [default: <first INPUT directory>/report]
      --baseline=NAME  the baseline to compare with [default: the one the run compared with,
                       else `default`, else the first by name]
      --open           open index.html in the browser afterwards
  -h, --help           print this help
";

/// What `report` was asked.
#[derive(Debug, Default, PartialEq)]
pub struct Config {
    /// Homes, directories and summary files, in the order given.
    inputs: Vec<PathBuf>,
    /// `--out`.
    out: Option<PathBuf>,
    /// `--baseline`.
    baseline: Option<String>,
    /// `--open`.
    open: bool,
}

impl Config {
    /// Parses the arguments after `report`.
    pub fn parse(args: Vec<OsString>) -> Result<Config, UsageError> {
        let mut config = Config::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let Some(text) = arg.to_str() else {
                config.inputs.push(PathBuf::from(arg));
                continue;
            };
            let (name, inline) = match text.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
                _ => (text, None),
            };
            let mut value = |flag: &str| {
                inline
                    .clone()
                    .or_else(|| args.next().and_then(|v| v.into_string().ok()))
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| UsageError::new(format!("{flag} needs a value")).hint(USAGE))
            };
            match name {
                "-h" | "--help" => return Err(UsageError::Help(USAGE)),
                "--open" if inline.is_none() => config.open = true,
                "--out" => config.out = Some(PathBuf::from(value("--out")?)),
                "--baseline" => config.baseline = Some(value("--baseline")?),
                _ if text.starts_with('-') && text != "-" => {
                    return Err(UsageError::new(format!("unknown option `{text}`")).hint(USAGE));
                }
                _ => config.inputs.push(PathBuf::from(text)),
            }
        }
        if config.inputs.is_empty() {
            config.inputs.push(PathBuf::from("target/benchgrind"));
        }
        Ok(config)
    }
}

/// Runs `report`: the site written, or an error naming the input at fault.
pub fn run(config: &Config) -> Result<Outcome> {
    let start = Instant::now();
    if let Some(missing) = config.inputs.iter().find(|i| !i.exists()) {
        bail!(
            "{} does not exist: run the benchmarks first (`cargo bench`), or pass the home they \
             wrote (--home), a directory of summaries or a file of summaries",
            missing.display()
        );
    }
    let out = match &config.out {
        Some(out) => out.clone(),
        None => match config.inputs.iter().find(|i| i.is_dir()) {
            Some(dir) => dir.join("report"),
            None => bail!("pass --out=DIR: the inputs are files, and the report needs a directory"),
        },
    };
    let written = crate::report::write(&config.inputs, &out, config.baseline.as_deref())?;
    crate::messages::note!(
        "wrote {} ({} benchmarks, {} history records) in {:.2} s",
        written.index.display(),
        written.benchmarks,
        written.records,
        start.elapsed().as_secs_f64()
    );
    if config.open {
        open(&written.index);
    }
    Ok(Outcome::Done)
}

/// Opens the report in the desktop's browser; a failure only says where the report is.
fn open(index: &Path) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(index)
        .stdin(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        crate::messages::warning!(
            "cannot start {opener} ({e}); open {} in a browser",
            index.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, String> {
        Config::parse(args.iter().map(OsString::from).collect()).map_err(|e| e.to_string())
    }

    #[test]
    fn options_and_inputs() {
        let config = parse(&["--open", "--out", "site", "--baseline=main", "a", "b"]).unwrap();
        assert_eq!(
            config,
            Config {
                inputs: vec!["a".into(), "b".into()],
                out: Some("site".into()),
                baseline: Some("main".into()),
                open: true,
            }
        );
        assert_eq!(
            parse(&[]).unwrap().inputs,
            [PathBuf::from("target/benchgrind")]
        );
        let err = parse(&["--out"]).unwrap_err();
        assert!(
            err.starts_with("error: --out needs a value\n\nUsage:"),
            "{err}"
        );
        let err = parse(&["--frob"]).unwrap_err();
        assert!(err.starts_with("error: unknown option `--frob`"), "{err}");
        let err = parse(&["--open=yes"]).unwrap_err();
        assert!(
            err.starts_with("error: unknown option `--open=yes`"),
            "{err}"
        );
        assert!(parse(&["-h"])
            .unwrap_err()
            .starts_with("Usage: benchgrind report"));
    }
}
