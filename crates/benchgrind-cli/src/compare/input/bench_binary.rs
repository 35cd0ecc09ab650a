//! Running a benchgrind bench binary (what `cargo bench` builds from a `main!`) to get its
//! summaries: `<binary> --bench --output-format=json [BENCHMARK_OPTIONS...]`.
//!
//! The binary prints one summary per line on stdout, which is read here; its progress and tally
//! go to stderr, which passes through. It runs as `cargo bench` would run it, with its own home
//! (so it also updates the previous-run files there, as `cargo bench` does); pass
//! `-- --home=DIR` to keep it elsewhere. Its exit status 3 (a regression against its own previous
//! run) and 1 with summaries (a benchmark failed: a failure is data) still give results; anything
//! else is an error naming the binary.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;

use super::summary;
use crate::compare::model::ResultSet;

/// A marker that every bench binary holds: the name of the environment variable of
/// `--output-format` in its help text. Finding it needs no run.
pub const MARKER: &[u8] = b"BENCHGRIND_OUTPUT_FORMAT";

/// The bench binary's exit code for "a regression limit was passed".
const REGRESSED: i32 = 3;
/// The bench binary's exit code for "a benchmark failed or another error".
const FAILED: i32 = 1;

/// Runs `binary` with `extra` options and reads its summaries; `keep` saves its stdout there.
pub fn run(
    binary: &Path,
    extra: &[OsString],
    keep: Option<&Path>,
    label: String,
) -> Result<ResultSet> {
    // A bare name would be searched in PATH; the user meant the file they named.
    let program = std::path::absolute(binary).file_op("resolve", binary)?;
    let mut cmd = Command::new(&program);
    // `--bench` as `cargo bench` passes it: measure, even when started from a cargo test.
    cmd.args(["--bench", "--output-format=json"]).args(extra);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    crate::messages::note!("running {}", describe(&cmd));
    let output = cmd
        .output()
        .with_context(|| format!("cannot run `{}`", binary.display()))?;
    let stdout = String::from_utf8(output.stdout).map_err(|e| {
        anyhow::anyhow!(
            "`{}` printed something that is not UTF-8 text on stdout ({e}); expected benchgrind \
             summaries",
            binary.display()
        )
    })?;
    if let Some(path) = keep {
        fs::write(path, &stdout)
            .file_op("write", path)
            .with_context(|| format!("the summaries of `{}`", binary.display()))?;
    }
    // Summaries are the lines that start an object; anything else on stdout (a message such as
    // "no benchmark matches the filter", or a benchmark's own output) is shown on stderr and
    // blanked, so that line numbers in errors stay those of the output.
    let mut summaries = String::with_capacity(stdout.len());
    let mut other = Vec::new();
    for line in stdout.lines() {
        if line.trim_start().starts_with('{') {
            summaries.push_str(line);
        } else if !line.trim().is_empty() {
            crate::messages::relay(&format!("{line}\n"));
            other.push(line);
        }
        summaries.push('\n');
    }
    let printed = summaries.lines().any(|l| !l.trim().is_empty());
    let code = output.status.code();
    let usable =
        output.status.success() || code == Some(REGRESSED) || (code == Some(FAILED) && printed);
    if !usable {
        bail!(
            "`{}` failed ({}); its output is above. Check that it runs on its own with the same \
             options",
            binary.display(),
            output.status
        );
    }
    if !printed {
        let said = other
            .first()
            .map_or(String::new(), |l| format!(" (it printed `{l}`)"));
        bail!(
            "`{}` exited successfully but printed no summary{said}: did the options after `--` \
             select any benchmark?",
            binary.display()
        );
    }
    // Errors point at a line of what it printed: of the kept file, or of its stdout.
    let source = keep.map_or_else(
        || PathBuf::from(format!("{} (stdout)", binary.display())),
        Path::to_path_buf,
    );
    summary::convert_lines(&source, &summaries, label)
        .with_context(|| format!("reading the summaries of `{}`", binary.display()))
}

/// The command line, for the progress message.
fn describe(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}
