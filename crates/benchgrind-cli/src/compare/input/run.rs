//! Running a Google Benchmark binary to get its JSON results, as compare.py does.
//!
//! The binary runs with `--benchmark_out=<file> --benchmark_out_format=json`, an optional
//! `--benchmark_filter`, and the user's options after `--`. Its console table goes to our stderr,
//! so that stdout carries only the comparison (which may be JSON or CSV for a pipe).

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;

use super::file;
use crate::compare::model::ResultSet;

/// How to run one side's binary.
pub struct RunSpec<'a> {
    /// The binary.
    pub binary: &'a Path,
    /// `--benchmark_filter` for this run, if any.
    pub filter: Option<&'a str>,
    /// Options passed through to the binary.
    pub extra: &'a [OsString],
    /// Where the JSON goes: kept there if `keep` is true, else removed after reading.
    pub out: PathBuf,
    /// Whether to keep `out`.
    pub keep: bool,
}

/// Runs the binary and reads its results; errors name the binary.
pub fn run_gbench(spec: &RunSpec, label: String) -> Result<ResultSet> {
    // A bare name would be searched in PATH; the user meant the file they named.
    let program = std::path::absolute(spec.binary).file_op("resolve", spec.binary)?;
    let mut cmd = Command::new(&program);
    let mut out_arg = OsString::from("--benchmark_out=");
    out_arg.push(&spec.out);
    cmd.arg(out_arg).arg("--benchmark_out_format=json");
    if let Some(filter) = spec.filter {
        cmd.arg(format!("--benchmark_filter={filter}"));
    }
    cmd.args(spec.extra);
    cmd.stdin(Stdio::null()).stdout(std::io::stderr());
    crate::messages::note!("running {}", describe(&cmd));
    let _cleanup = Cleanup {
        path: (!spec.keep).then(|| spec.out.clone()),
    };
    let status = cmd
        .status()
        .with_context(|| format!("cannot run `{}`", spec.binary.display()))?;
    if !status.success() {
        bail!(
            "`{}` failed ({status}); its output is above. Check that it runs on its own with \
             the same options",
            spec.binary.display()
        );
    }
    if fs::metadata(&spec.out).map_or(true, |m| m.len() == 0) {
        bail!(
            "`{}` exited successfully but wrote no results to `{}`: is it a Google Benchmark \
             binary, and did the options after `--` select any benchmark?",
            spec.binary.display(),
            spec.out.display()
        );
    }
    file::load(&spec.out, label)
        .with_context(|| format!("reading the results of `{}`", spec.binary.display()))
}

/// The command line, for the progress message.
fn describe(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

/// A unique path in the temporary directory for one run's JSON.
pub fn temp_out(side: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!(
        "benchgrind-compare-{}-{nanos}-{n}-{side}.json",
        std::process::id()
    ))
}

/// Removes the temporary results file however the run ends.
struct Cleanup {
    /// The file to remove; `None` when it is kept.
    path: Option<PathBuf>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_file(path);
        }
    }
}
