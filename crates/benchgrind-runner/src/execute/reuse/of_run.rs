//! The record of a run that ended well: its inputs, from Valgrind's trace of its system calls
//! and what the harness handed it, and what it wrote.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::check::Before;
use super::place::{Place, Run};
use super::record::{Entry, Record};
use super::{inputs, kept, trace, Reason};
use crate::plan::Job;
use crate::store::Which;

/// The file, in a benchmark's directory, of its fork server's system calls before the fork
/// (`.new` while the run is settled).
pub const SERVER_TRACE: &str = "server.trace";

/// What the records of a run share: its facts (`None`: nothing is recorded), benchgrind's home
/// (its files there are no inputs) and the states the checks found.
pub(super) struct Mine<'a> {
    /// The run's facts.
    pub run: Option<&'a Run>,
    /// benchgrind's home.
    pub home: &'a Path,
    /// The states the checks found before the runs.
    pub before: &'a Before,
}

/// The record of a run that ended well, from the system calls of its measured process (in
/// order: a fork server's before its child's).
pub(super) fn record(mine: &Mine, job: &Job, place: &Place, calls: &[String]) -> Record {
    let record = Record::now();
    let Some(run) = mine.run else {
        return record.unfit(Reason::NotRecorded);
    };
    if let Some(why) = &place.unfit {
        return record.unfit(why);
    }
    match entries((mine, run), job, place, calls, record.clone()) {
        Ok(full) => full,
        Err(why) => record.unfit(why),
    }
}

/// [`record`]'s entries, or why the run cannot be reused.
fn entries(
    (mine, run): (&Mine, &Run),
    job: &Job,
    place: &Place,
    calls: &[String],
    mut record: Record,
) -> Result<Record, Reason> {
    let context = inputs::context(run, job, place)?;
    (record.entries).extend(context.into_iter().map(|(n, v)| Entry::Input(n, v)));
    let mut tracer = trace::Tracer::new(&place.cwd);
    for log in calls {
        tracer.log(log);
    }
    let traced = tracer.finish();
    if let Some(why) = traced.unplaced {
        return Err(Reason::Unfit(why));
    }
    // benchgrind's own: the benchmark's files, the preload library (its bytes are in the
    // bench binary) and the fork servers' files. Not the rest of the home, which may hold
    // anything.
    let own = |path: &Path| {
        path.starts_with(&job.paths.dir)
            || path.starts_with(mine.home.join(crate::execute::preload::DIR))
            || path.starts_with(mine.home.join(crate::execute::leftovers::SERVERS))
    };
    let foreign = |p: &&PathBuf| !own(p) && !place.in_sandbox(p);
    if let Some(changed) = traced.changed.iter().find(foreign) {
        return Err(Reason::Changes(changed.clone()));
    }
    let mut files: BTreeMap<PathBuf, bool> = traced.inputs;
    for path in inputs::handed(job, place) {
        files.entry(path).or_insert(false);
    }
    let before = (mine.before.lock())
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&job.paths.dir)
        .unwrap_or_default();
    for (path, listed) in files.iter().filter(|(p, _)| !own(p)) {
        let name = place.write_path(path);
        if name.contains(['\n', '\t']) {
            return Err(Reason::PathNotWritable);
        }
        let state = if traced.written.contains(path) {
            // What it read is what the file held before the run, which the check saw if
            // the last record listed it; otherwise the next run finds out.
            (before.get(&name).cloned()).unwrap_or_else(|| "unknown before its run".into())
        } else {
            inputs::state(&run.files, path, *listed)
        };
        record.entries.push(Entry::File(name, state));
    }
    // What it wrote, kept to be put back when it is reused (a teardown may read it): the
    // files it created and the files the harness opened for its output streams, these
    // always where only this benchmark sees them (its sandbox, a stream opened afresh for
    // it); elsewhere only when gone: another benchmark may write the same file, and putting
    // its old contents back would change that one's input.
    let streams = inputs::streams(job, place);
    let mut written = traced.written;
    written.extend(streams.iter().cloned());
    let written: Vec<(PathBuf, bool)> = (written.into_iter())
        .filter(|p| !own(p))
        .map(|p| {
            let always = place.in_sandbox(&p) || streams.contains(&p);
            (p, always)
        })
        .collect();
    kept::keep_outputs(job, place, &written, &mut record)?;
    Ok(record)
}

/// A library benchmark's system calls, taken out of its logs: its fork server's before the fork
/// (if it had one), then its process's; its children's logs lose theirs too.
pub(super) fn library_calls(job: &Job) -> Vec<String> {
    let paths = &job.paths;
    let calls = trace::take(&paths.file("callgrind.log", Which::New));
    let children = paths.dir.join(crate::execute::parts::CHILDREN);
    if let Ok(entries) = std::fs::read_dir(&children) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().ends_with(".log") {
                trace::take(&entry.path());
            }
        }
    }
    let server = paths.file(SERVER_TRACE, Which::New);
    let server_calls = std::fs::read_to_string(&server).unwrap_or_default();
    let _ = std::fs::remove_file(&server);
    vec![server_calls, calls]
}
