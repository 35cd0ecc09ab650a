//! A reused benchmark replayed, for [`super::bench`]: what its measured run printed, kept
//! beside its results to be shown again when they are reused, and under `--verify-reuse` the
//! check that its new counts are those it would have replayed (the records of inputs themselves
//! are [`crate::execute::reuse`]'s).

use crate::dates::UtcDate;
use crate::error::FileResult;
use crate::execute::reuse::Records;
use crate::execute::Captured;
use crate::messages;
use crate::metrics::Metrics;
use crate::plan::Job;

/// Under `--verify-reuse`, for a benchmark whose record of inputs matched: why its new counts
/// condemn the record, if they differ from those that would have been reused.
pub(super) fn differs_from_reused(
    job: &Job,
    records: &Records,
    at: UtcDate,
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
    Some(records.condemned(job, at, &differences.join(", ")))
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
        } else if let Err(e) = crate::store::write_hint(&path, bytes).file_op("write", &path) {
            messages::debug!("{e}");
        }
    }
}

/// What the measured run whose results are reused printed, as it printed it.
pub(super) fn saved_output(job: &Job) -> Captured {
    Captured::from_files(OUTPUT.map(|name| job.paths.dir.join(name)))
}
