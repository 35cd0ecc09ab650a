//! Reporting each result as it is handed over, in plan order: `compare_by_id` comparisons, the
//! reporter, the summary file, the run's tally and the recorded duration.

use std::collections::HashMap;
use std::io::Write;

use crate::cli::{Cli, JsonStyle};
use crate::error::FileResult;
use crate::execute::schedule::record_duration;
use crate::messages;
use crate::plan::Job;
use crate::report::progress::Progress;
use crate::report::summary::Summary;
use crate::report::{Reporter, RunSummary, SavedBaseline};
use crate::result::{other_failure, BenchResult, Comparison, Outcome, Source};
use crate::store;

/// Reports results as they are handed over in plan order: `compare_by_id` comparisons, the
/// reporter, the summary file, the tally and the recorded duration.
pub(super) struct Emitter<'a> {
    pub cli: &'a Cli,
    /// Whether benchmarks run (not with `--load-baseline`), so their durations count.
    pub runs: bool,
    pub reporter: &'a mut dyn Reporter,
    pub out: &'a mut dyn Write,
    pub progress: &'a mut Progress,
    pub summary: &'a mut RunSummary,
    /// The values of earlier benches, by group and id, for `compare_by_id`.
    pub by_id: HashMap<(usize, String), Vec<Comparison>>,
    /// This run's record for `<home>/history/`.
    pub history: crate::report::history::Recorder,
    /// The machine of this run, when benchmarks run under Valgrind.
    pub fingerprint: Option<crate::fingerprint::Fingerprint>,
    /// The function names of the objects that benchmarks with `--toggle-collect` patterns of
    /// their own ran, to check the patterns against.
    pub symbols: super::toggles::Symbols,
}

impl Emitter<'_> {
    /// Reports one result; returns whether fail-fast asks to stop.
    pub fn emit(&mut self, job: &Job, mut result: BenchResult, compare_by_id: bool) -> bool {
        if compare_by_id {
            self.compare_by_id(job, &mut result);
        }
        super::checks::machine(self.cli, job, self.fingerprint.as_ref(), &mut result);
        super::checks::uncompared(self.cli, &mut result);
        super::checks::static_tools(job, &mut result);
        if !super::checks::never_entered(job, &mut result) {
            super::checks::counted_nothing(job, &mut result);
            super::checks::empty(job, &mut result);
        }
        if self.runs {
            self.symbols.check(job, &mut result);
        }
        self.progress.clear();
        let _ = self.reporter.bench(self.out, &result);
        let _ = self.out.flush();
        save_summary(self.cli, job, &result);
        self.history.add(&result);
        self.tally(job, &result);
        self.progress.done(&job.id.full());
        let perf_fail_fast = (job.config.perf_run.as_ref()).is_some_and(|p| p.fail_fast)
            && result
                .perf
                .as_ref()
                .is_some_and(|p| !p.regressions.is_empty());
        (result.regressed() && job.config.regression_fail_fast) || perf_fail_fast
    }

    /// Relates the result to the earlier benches of its group with the same id, and keeps it
    /// for the later ones.
    fn compare_by_id(&mut self, job: &Job, result: &mut BenchResult) {
        let (Some(id), Outcome::Measured { new, .. }) = (&job.id.case, &result.outcome) else {
            return;
        };
        let earlier = self.by_id.entry((job.group, id.clone())).or_default();
        result.comparisons = earlier
            .iter()
            .filter(|c| c.function != job.id.function)
            .cloned()
            .collect();
        earlier.push(Comparison {
            function: job.id.function.clone(),
            id_and_args: job.id.id_and_args(),
            metrics: new.clone(),
        });
    }

    /// Counts the result in the run's summary, and records its duration for the next run.
    fn tally(&mut self, job: &Job, result: &BenchResult) {
        let summary = &mut *self.summary;
        match &result.outcome {
            Outcome::Failed { reason } => {
                summary
                    .failed
                    .push((job.id.full(), reason.clone(), result.log.clone()));
            }
            Outcome::Measured { .. } => {
                match other_failure(result) {
                    Some((reason, log)) => {
                        summary.failed.push((job.id.full(), reason, Some(log)));
                    }
                    None if self.cli.fail_on_empty && super::checks::is_empty(result) => {
                        let reason = "measures almost nothing (--fail-on-empty)".to_owned();
                        summary.failed.push((job.id.full(), reason, None));
                    }
                    None if result.reuse.reused().is_some() => summary.reused += 1,
                    None if !self.runs => summary.loaded += 1,
                    None => {
                        summary.measured += 1;
                        summary.verified += usize::from(result.reuse.verified().is_some());
                    }
                }
                if let (true, None) = (self.runs, other_failure(result)) {
                    saved(self.cli, result, &mut summary.saved);
                }
                if self.runs && result.reuse.reused().is_none() {
                    record_duration(&job.paths.dir, result.duration);
                }
            }
        }
        if let Some(reason) = &result.uncompared {
            summary.uncompared.push((job.id.full(), reason.clone()));
        }
        summary.layout_only += usize::from(result.layout_only.is_some());
        for r in &result.regressions {
            summary.regressions.push((job.id.full(), r.describe()));
        }
        for line in result.tools.iter().flat_map(|t| t.regression_lines()) {
            summary.regressions.push((job.id.full(), line));
        }
        for regression in result.perf.iter().flat_map(|p| &p.regressions) {
            summary
                .regressions
                .push((job.id.full(), format!("perf {regression}")));
        }
    }
}

/// Counts a benchmark whose run was saved as the baseline of `--save-baseline`, and whether it
/// is the first of that name for it.
fn saved(cli: &Cli, result: &BenchResult, saved: &mut Option<SavedBaseline>) {
    let (Some(name), Outcome::Measured { old, .. }) = (&cli.save_baseline, &result.outcome) else {
        return;
    };
    let saved = saved.get_or_insert_with(|| SavedBaseline {
        name: name.clone(),
        ..SavedBaseline::default()
    });
    saved.benchmarks += 1;
    let compared_with_it = result.old_source == Source::Baseline(name.clone());
    saved.new += usize::from(compared_with_it && old.is_none());
}

/// Writes the benchmark's `summary.json` with `--save-summary`.
fn save_summary(cli: &Cli, job: &Job, result: &BenchResult) {
    let Some(style) = cli.save_summary else {
        return;
    };
    let json = Summary::from_result(result).to_json(style == JsonStyle::Pretty);
    let path = job.paths.summary();
    let written = std::fs::create_dir_all(&job.paths.dir)
        .and_then(|()| store::write_atomic(&path, json.as_bytes()))
        .file_op("write", &path);
    if let Err(e) = written {
        messages::warning!("{e}");
    }
    messages::debug!("wrote {}", path.display());
}
