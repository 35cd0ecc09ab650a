//! `--explain`: why a benchmark's Callgrind counts changed, attributed to functions and lines
//! ([`crate::explain`]). The old profile is read before the run replaces it (the previous run's
//! `callgrind.out`, or the baseline's copy, which `--save-baseline` may overwrite); after the run
//! the new one is compared with it, in the worker, so that explanations are made in parallel.

use std::path::Path;

use super::baseline::old_file;
use crate::cli::Cli;
use crate::config::ExplainPolicy;
use crate::explain::{self, profile::Profile, Options};
use crate::plan::Job;
use crate::result::{Explained, Source};

/// The old profile of an explanation, read before the run; `None` with `--explain=never` or
/// without one. A damaged one is a warning: the comparison itself reports it.
pub(super) fn read_old(cli: &Cli, job: &Job, compare_with: &Source) -> Option<Profile> {
    if cli.explain == ExplainPolicy::Never {
        return None;
    }
    let path = old_file(&job.paths, "callgrind.out", compare_with)?;
    explain::profile::parse_file(&path)
        .map_err(|e| eprintln!("warning: {}: no explanation: {e}", job.id.full()))
        .ok()
}

/// The explanation of the change from `old` to the profile `new`, when the counts changed.
/// `old_path` is where the old profile is now (after rotation); `regressed` whether Callgrind's
/// limits were passed.
pub(super) fn explain(
    cli: &Cli,
    job: &Job,
    old: Option<Profile>,
    new: &Path,
    old_path: Option<&Path>,
    regressed: bool,
) -> Option<Explained> {
    let old = old?;
    let made = explain::profile::parse_file(new)
        .map_err(explain::Error::from)
        .and_then(|new| explain::explain_profiles(&old, &new, &Options::default()));
    let mut explanation = match made {
        Ok(e) => e,
        Err(e) => {
            eprintln!("warning: {}: no explanation: {e}", job.id.full());
            return None;
        }
    };
    if !explanation.changed() {
        return None;
    }
    if let Some(path) = old_path {
        explanation.old = path.to_owned();
    }
    let shown = cli.explain.wants(&explanation, regressed);
    Some(Explained { explanation, shown })
}
