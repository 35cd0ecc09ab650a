//! A benchmark's record of inputs and its reused results, for [`super::bench`]: whether a
//! library benchmark's record matches, the record written after a run, what a run printed kept
//! to be shown again, and the check of `--verify-reuse`.

use crate::cli::Reuse;
use crate::execute::reuse;
use crate::execute::Captured;
use crate::messages;
use crate::metrics::Metrics;
use crate::plan::{Job, JobKind};
use crate::store::Which;

/// Whether a library benchmark's record of inputs matches (where the harness runs it: the
/// group's setup, if any, has run), and when its results were measured.
pub(super) fn library_match(job: &Job) -> Option<String> {
    if job.reuse == Reuse::Off {
        return None;
    }
    // Checked under `--fresh` too: the check takes the states of the files before the run,
    // which the record of a benchmark that writes a file it reads needs.
    let place = library_place(job);
    match reuse::check(job, &place) {
        reuse::Decision::Reuse(_) if job.reuse == Reuse::Fresh => None,
        reuse::Decision::Reuse(at) => Some(at),
        reuse::Decision::Run(why) => {
            messages::debug!("{}: measured: {why}", job.id.full());
            None
        }
    }
}

/// Where a library benchmark's measured process runs: in the package's directory, or its
/// configured one; a sandbox is a new directory of its own on every run,
/// which the record of a library benchmark does not follow.
pub(super) fn library_place(job: &Job) -> reuse::Place {
    let sandboxed = job.config.sandbox.as_ref().is_some_and(|s| s.enabled);
    reuse::Place {
        cwd: reuse::library_cwd(job),
        unfit: sandboxed.then(|| "it runs in a sandbox of its own".to_owned()),
        ..reuse::Place::default()
    }
}

/// Under `--verify-reuse`, for a benchmark whose record of inputs matched: why its new counts
/// condemn the record, if they differ from those that would have been reused.
pub(super) fn differs_from_reused(
    job: &Job,
    at: &str,
    new: &Metrics,
    last: &Metrics,
) -> Option<String> {
    if new.values == last.values {
        return None;
    }
    let differences: Vec<String> = new
        .values
        .iter()
        .zip(&last.values)
        .filter(|(n, l)| n != l)
        .take(3)
        .map(|(n, l)| format!("{:?} {:?} -> {:?}", n.0, l.1, n.1))
        .collect();
    let added = reuse::record_difference(job);
    Some(format!(
        "--verify-reuse: its record of inputs matched the one of {at}, but its counts differ \
         ({}): an input the record does not hold changed{added}; please report it, with the \
         record ({})",
        differences.join(", "),
        job.paths.dir.join(reuse::RECORD).display()
    ))
}

/// After a run of Callgrind: the record of its inputs, pending until its other tools end well.
/// A library benchmark's is written here, from its log and its fork server's calls; a binary
/// benchmark's executor wrote its own, in its sandbox. The calls leave the logs.
pub(super) fn record(job: &Job, processes: usize) {
    let paths = &job.paths;
    let calls = reuse::take_trace(&paths.file(super::bench::FILES[1], Which::New));
    let children = paths.dir.join(crate::execute::parts::CHILDREN);
    if let Ok(entries) = std::fs::read_dir(&children) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().ends_with(".log") {
                reuse::take_trace(&entry.path());
            }
        }
    }
    let server = paths.file(reuse::SERVER_TRACE, Which::New);
    let server_calls = std::fs::read_to_string(&server).unwrap_or_default();
    let _ = std::fs::remove_file(&server);
    if processes > 1 {
        reuse::write_unfit(
            job,
            "it started other processes, and what a process does between fork and exec is not \
             in Valgrind's trace",
        );
    } else if matches!(job.kind, JobKind::Library(_)) {
        let place = library_place(job);
        reuse::write_pending(job, &place, &[server_calls, calls]);
    }
}

/// Where a measured run's output is kept, to be shown again when its results are reused.
const OUTPUT: [&str; 2] = ["output.stdout", "output.stderr"];

/// Keeps what a measured run printed beside its results (whole or not at all, without waiting
/// for the disk: it is shown again, not compared; an empty stream leaves no file).
pub(super) fn save_output(job: &Job, output: &Captured) {
    for (name, bytes) in OUTPUT.iter().zip([&output.stdout, &output.stderr]) {
        let path = job.paths.dir.join(name);
        if bytes.is_empty() {
            let _ = std::fs::remove_file(&path);
        } else if let Err(e) = crate::store::write_hint(&path, bytes) {
            messages::debug!("cannot write {}: {e}", path.display());
        }
    }
}

/// What the measured run whose results are reused printed, as it printed it.
pub(super) fn saved_output(job: &Job) -> Captured {
    Captured::from_files(OUTPUT.map(|name| job.paths.dir.join(name)))
}
