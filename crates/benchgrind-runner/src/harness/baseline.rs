//! The steps around every run of a tool, Callgrind's and the others' alike: find what to compare
//! with before the run replaces it, and afterwards rotate the new files into place and save a
//! baseline. A missing previous run or baseline means nothing to compare with; a damaged
//! Callgrind baseline is an error that says how to replace it.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};

use crate::parse::profile::{self, Profile, Read};
use crate::parse::ParseError;
use crate::plan::Job;
use crate::result::Source;
use crate::store::{self, BenchPaths, Which};

/// The file (`callgrind.out`, `dhat.out`, ...) holding the values to compare with: the
/// baseline's copy or the previous run's; `None` when there is none.
pub(super) fn old_file(paths: &BenchPaths, file: &str, source: &Source) -> Option<PathBuf> {
    match source {
        Source::Baseline(name) => Some(paths.tool_baseline(name, file)).filter(|p| p.exists()),
        _ => paths.previous(file),
    }
}

/// Makes the new `files` current (the current ones old) and, with `--save-baseline`, copies
/// `metrics_file` into the baseline `save`.
pub(super) fn promote_and_save(
    paths: &BenchPaths,
    files: &[String],
    metrics_file: &str,
    save: Option<&str>,
) -> Result<(), Problem> {
    for file in files.iter().filter(|f| paths.file(f, Which::New).exists()) {
        paths.promote(file)?;
    }
    if let Some(name) = save {
        let current = paths.file(metrics_file, Which::Current);
        let baseline = paths.tool_baseline(name, metrics_file);
        store::copy_atomic(&current, &baseline).file_op("save the baseline to", &baseline)?;
    }
    Ok(())
}

/// Callgrind's profile to compare with, read as far as `read` says: the previous run or a
/// baseline. A missing one is `None` (first run); a damaged one is an error that says how to
/// replace it.
pub(super) fn read_old(job: &Job, source: &Source, read: Read) -> Result<Option<Profile>, Problem> {
    let Some(path) = old_file(&job.paths, "callgrind.out", source) else {
        return Ok(None);
    };
    profile::parse_file(&path, read)
        .map(Some)
        .map_err(|e| match source {
            Source::Baseline(name) => damaged_baseline(name, &e),
            _ => problem!("the previous run's profile is damaged ({e})"),
        })
}

/// The values of the saved baseline `name` (`--load-baseline`).
pub(super) fn load(path: &Path, name: &str, job: &Job, read: Read) -> Result<Profile, Problem> {
    if !path.exists() {
        return Err(problem!(
            "there is no baseline `{name}` for {}; save one with --save-baseline={name}",
            job.id.full()
        ));
    }
    profile::parse_file(path, read).map_err(|e| damaged_baseline(name, &e))
}

/// A saved baseline that cannot be read, and how to replace it.
fn damaged_baseline(name: &str, e: &ParseError) -> Problem {
    problem!("baseline `{name}` is damaged ({e}); save it again with --save-baseline={name}")
}
