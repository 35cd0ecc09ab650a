//! `--explain`: why a benchmark's Callgrind counts changed, attributed to functions and lines
//! ([`crate::explain`]), from the two profiles the benchmark's run read anyway ([`super::bench`]),
//! in the worker, so that explanations are made in parallel.

use std::path::Path;

use crate::cli::Cli;
use crate::explain::{self, Options};
use crate::messages;
use crate::parse::profile::Profile;
use crate::plan::Job;
use crate::result::Explained;

/// The explanation of the change from `old` to `new`, when the counts changed. `old_path` is
/// where the old profile is now (after rotation); `regressed` whether Callgrind's limits were
/// passed.
pub(super) fn explain(
    cli: &Cli,
    job: &Job,
    old: &Profile,
    new: &Profile,
    old_path: Option<&Path>,
    regressed: bool,
) -> Option<Explained> {
    let mut explanation = match explain::explain_profiles(old, new, &Options::default()) {
        Ok(e) => e,
        Err(e) => {
            messages::warning!("{}: no explanation: {e}", job.id.full());
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
