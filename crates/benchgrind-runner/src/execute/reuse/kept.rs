//! The files kept beside a benchmark's results for reuse: its record (`inputs`; `inputs.new`
//! while its run is not confirmed, `inputs.old` while a run that measures is under way) and what
//! its last run wrote (`outputs/N`), put back when the results are reused.

use std::path::PathBuf;

use super::place::Place;
use super::record::{Entry, Record};
use super::Reason;
use crate::error::FileResult;
use crate::plan::Job;
use crate::store::Which;

/// The record's file in the benchmark's directory.
pub(super) const RECORD: &str = "inputs";

/// The directory, in the benchmark's, of the files its last run wrote.
const OUTPUTS: &str = "outputs";

/// The most a record keeps of the files a run wrote, to put them back when it is reused.
const OUTPUTS_LIMIT: u64 = 64 << 20;

/// Keeps the files a run wrote (`written`, by path as the record writes it) in the pending
/// outputs, adding their entries to `record`; the error says why they cannot be kept (the run
/// is then unfit).
pub(super) fn keep_outputs(
    job: &Job,
    place: &Place,
    written: &[(PathBuf, bool)],
    record: &mut Record,
) -> Result<(), Reason> {
    let outputs = job.paths.file(OUTPUTS, Which::New);
    let _ = std::fs::remove_dir_all(&outputs);
    let mut kept = 0u64;
    for (i, (path, always)) in written.iter().enumerate() {
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        kept += meta.len();
        if !meta.is_file() || kept > OUTPUTS_LIMIT {
            return Err(Reason::TooLarge(path.clone()));
        }
        std::fs::create_dir_all(&outputs)
            .and_then(|()| std::fs::copy(path, outputs.join(i.to_string())))
            .file_op("keep", path)?;
        record.entries.push(Entry::Output {
            path: place.write_path(path),
            kept: i,
            always: *always,
        });
    }
    Ok(())
}

/// When a benchmark is reused: the files its last run wrote are put back, as a run would have
/// written them (before its teardown, which may read them): always in its sandbox and for the
/// streams the harness opened for it, elsewhere when they are gone.
pub(super) fn restore_outputs(job: &Job, place: &Place, record: &Record) -> std::io::Result<()> {
    let outputs = job.paths.dir.join(OUTPUTS);
    for entry in &record.entries {
        let Entry::Output { path, kept, always } = entry else {
            continue;
        };
        let path = place.read_path(path);
        if !always && path.symlink_metadata().is_ok() {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(outputs.join(kept.to_string()), &path)?;
    }
    Ok(())
}

/// Writes a run's record as pending (`inputs.new`) until the run is confirmed.
pub(super) fn write_pending(job: &Job, record: &Record) {
    let path = job.paths.file(RECORD, Which::New);
    if let Err(e) = record.write(&path) {
        crate::messages::debug!("{}: no record of inputs: {e}", job.id.full());
    }
}

/// After a run whose every tool ended well: its pending record becomes the record.
pub(super) fn confirm(job: &Job) {
    let pending = job.paths.file(RECORD, Which::New);
    if pending.exists() {
        let outputs = job.paths.dir.join(OUTPUTS);
        let _ = std::fs::remove_dir_all(&outputs);
        let _ = std::fs::rename(job.paths.file(OUTPUTS, Which::New), &outputs);
        let _ = std::fs::rename(&pending, job.paths.dir.join(RECORD));
    }
}

/// Before a run that measures: the record no longer describes the results it will leave (a run
/// that fails leaves the last results but not their record). It is kept as `inputs.old` for
/// `--verify-reuse` to say how the new record differs.
pub(super) fn forget(job: &Job) {
    let _ = std::fs::rename(
        job.paths.dir.join(RECORD),
        job.paths.file(RECORD, Which::Old),
    );
    let _ = std::fs::remove_file(job.paths.file(RECORD, Which::New));
    let _ = std::fs::remove_dir_all(job.paths.file(OUTPUTS, Which::New));
}

/// The record of the benchmark's results: current, pending or the one a run began with.
pub(super) fn path(job: &Job, which: Which) -> PathBuf {
    job.paths.file(RECORD, which)
}
