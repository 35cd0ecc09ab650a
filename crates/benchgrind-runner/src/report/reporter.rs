//! What every output format shares: the [`Reporter`] trait each format implements, the
//! summary of a run, and the lines all formats write the same way (shown output, the tally).

use std::io::{self, Write};
use std::path::PathBuf;

use crate::execute::Captured;
use crate::result::BenchResult;

/// What the whole run did.
#[derive(Debug, Default)]
pub struct RunSummary {
    /// The bench target.
    pub file: String,
    /// Benchmarks measured.
    pub measured: usize,
    /// Benchmarks whose values were loaded from a baseline (`--load-baseline`), not measured.
    pub loaded: usize,
    /// The baseline this run saved (`--save-baseline`), if it saved one.
    pub saved: Option<SavedBaseline>,
    /// Benchmarks not run: their inputs were all as recorded, their last results stand.
    pub reused: usize,
    /// Benchmarks measured under `--verify-reuse` whose counts were those their record promised.
    pub verified: usize,
    /// Benchmarks whose change was one of layout alone (the same executed code).
    pub layout_only: usize,
    /// `(full id, reason, log)` of each failed benchmark.
    pub failed: Vec<(String, String, Option<PathBuf>)>,
    /// `(full id, description)` of each regression.
    pub regressions: Vec<(String, String)>,
    /// `(full id, why)` of each benchmark not compared with a baseline of its own machine and
    /// revision (`--baseline`).
    pub uncompared: Vec<(String, String)>,
    /// Benchmarks not run because fail-fast stopped the run.
    pub skipped: usize,
    /// The signal that interrupted the run (Ctrl-C, SIGTERM), if one did.
    pub interrupted: Option<i32>,
    /// The full ids of the benchmarks not run (or cut short) because of it, in plan order.
    pub not_run: Vec<String>,
    /// Wall time of the run.
    pub seconds: f64,
}

/// A baseline the run saved: its name, for how many benchmarks, and how many of those had none
/// of that name before (nothing to compare with, and not uncompared for it: this run made it).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SavedBaseline {
    /// Its name.
    pub name: String,
    /// The benchmarks it was saved for.
    pub benchmarks: usize,
    /// Of those, the ones that had no baseline of that name before this run.
    pub new: usize,
}

/// An output format.
pub trait Reporter {
    /// Called as each benchmark finishes, in a stable order.
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()>;
    /// Called once at the end.
    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()>;
}

/// A benchmark's shown output (`--nocapture`): its stdout into `out` (or, with `stdout_to_stderr`,
/// to stderr, where it cannot break a machine-readable report), its stderr to stderr, each
/// ending with a newline, so the next header starts a line of its own.
pub fn write_output(
    out: &mut dyn Write,
    captured: &Captured,
    stdout_to_stderr: bool,
) -> io::Result<()> {
    let ended = |bytes: &[u8]| !bytes.is_empty() && !bytes.ends_with(b"\n");
    let stderr = io::stderr();
    let mut err = stderr.lock();
    if !captured.stdout.is_empty() {
        let target: &mut dyn Write = if stdout_to_stderr { &mut err } else { out };
        target.write_all(&captured.stdout)?;
        if ended(&captured.stdout) {
            target.write_all(b"\n")?;
        }
    }
    if !captured.stderr.is_empty() {
        // What went before it on stdout first: a terminal shows both in the order written.
        out.flush()?;
        err.write_all(&captured.stderr)?;
        if ended(&captured.stderr) {
            err.write_all(b"\n")?;
        }
    }
    err.flush()
}

/// The closing lines of a run: counts, time, and every failure and regression by id.
pub fn write_tally(out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
    let total = summary.measured + summary.loaded + summary.reused + summary.failed.len();
    // A run that only loads baselines measured nothing: it says what it did.
    let counted = match summary.loaded {
        0 => format!("{} measured", summary.measured),
        loaded if summary.measured == 0 => format!("{loaded} loaded"),
        loaded => format!("{} measured, {loaded} loaded", summary.measured),
    };
    let reused = match summary.reused {
        0 => String::new(),
        reused => format!(", {reused} reused"),
    };
    let reused = match summary.layout_only {
        0 => reused,
        n => format!("{reused}, {n} layout only"),
    };
    writeln!(
        out,
        "\nbenchgrind: {}: {total} benchmark{} in {:.2}s: {counted}{reused}, {} failed, {} regressed{}{}",
        summary.file,
        if total == 1 { "" } else { "s" },
        summary.seconds,
        summary.failed.len(),
        summary
            .regressions
            .iter()
            .map(|r| &r.0)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        if summary.uncompared.is_empty() {
            String::new()
        } else {
            format!(", {} uncompared", summary.uncompared.len())
        },
        if summary.skipped > 0 {
            format!(", {} not run (fail fast)", summary.skipped)
        } else {
            String::new()
        }
    )?;
    if let Some(saved) = &summary.saved {
        writeln!(out, "benchgrind: {}", saved_line(saved))?;
    }
    for (id, reason, log) in &summary.failed {
        match log {
            Some(log) => writeln!(out, "  FAILED {id}: {reason} (log: {})", log.display())?,
            None => writeln!(out, "  FAILED {id}: {reason}")?,
        }
    }
    for (id, description) in &summary.regressions {
        writeln!(out, "  REGRESSED {id}: {description}")?;
    }
    for (id, why) in &summary.uncompared {
        writeln!(out, "  UNCOMPARED {id}: {why}")?;
    }
    Ok(())
}

/// What the tally says of a baseline the run saved.
fn saved_line(saved: &SavedBaseline) -> String {
    let SavedBaseline {
        name,
        benchmarks,
        new,
    } = saved;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut line = format!(
        "saved baseline `{name}` of {benchmarks} benchmark{}",
        plural(*benchmarks)
    );
    match *new {
        0 => {}
        n if n == *benchmarks => line.push_str(&format!(
            " (new: there was none to compare with); --baseline={name} compares with it"
        )),
        n => line.push_str(&format!(
            " ({n} new: there was none to compare {} with)",
            if n == 1 { "it" } else { "them" }
        )),
    }
    line
}
