//! The check of a benchmark's record against what its inputs hold now.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use super::place::{Place, Run};
use super::record::{Entry, Record};
use super::{inputs, kept, Reason};
use crate::dates::UtcDate;
use crate::plan::Job;
use crate::store::Which;

/// The states of each benchmark's recorded files as its check found them, before its run, by
/// its directory: the record of a run that reads a file it also writes holds the state the file
/// had before.
pub(super) type Before = Mutex<HashMap<PathBuf, HashMap<String, String>>>;

/// Checks the job's record against what its inputs hold now (`run`'s facts; nothing is reused
/// without them): when its results were measured, or why it runs. The states of its files go
/// into `states`.
pub(super) fn check(
    run: Option<&Run>,
    states: &Before,
    job: &Job,
    place: &Place,
) -> Result<UtcDate, Reason> {
    if let Some(why) = &place.unfit {
        return Err(Reason::Unfit(why.clone()));
    }
    let run = run.ok_or(Reason::NotRecorded)?;
    let record = Record::read(&kept::path(job, Which::Current))?;
    if let Some(why) = record.unfit {
        return Err(Reason::Unfit(why));
    }
    let context = inputs::context(run, job, place)?;
    let mut expected = context.iter();
    // Every file's state is taken, also after a first difference: they are the states
    // before the run, which the next record needs for the files the run both reads and
    // writes.
    let mut before = HashMap::new();
    let mut changed = None;
    for entry in &record.entries {
        match entry {
            Entry::Input(name, value) => match expected.next() {
                Some((n, v)) if n == name && v == value => {}
                Some((n, _)) if n == name => return Err(Reason::InputChanged(name.clone())),
                _ => return Err(Reason::OtherInputs),
            },
            Entry::File(name, state) => {
                let listed = state.starts_with("dir ");
                let now = inputs::state(&run.files, &place.read_path(name), listed);
                if now != *state && changed.is_none() {
                    changed = Some(Reason::FileChanged(name.clone()));
                }
                before.insert(name.clone(), now);
            }
            Entry::Output { .. } => {}
        }
    }
    states
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(job.paths.dir.clone(), before);
    if let Some(changed) = changed {
        return Err(changed);
    }
    if expected.next().is_some() {
        return Err(Reason::OtherInputs);
    }
    // The results it would report must all be there.
    let mut files = vec![
        job.paths.file("callgrind.out", Which::Current),
        job.paths.file("callgrind.log", Which::Current),
    ];
    for tool in &job.config.tools {
        for name in tool.kind().files() {
            files.push(job.paths.file(&name, Which::Current));
        }
    }
    if let Some(missing) = files.iter().find(|f| !f.exists()) {
        return Err(Reason::ResultGone(missing.clone()));
    }
    Ok(record.measured)
}
