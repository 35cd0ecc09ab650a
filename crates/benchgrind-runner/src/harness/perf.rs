//! A benchmark's perf step, after Valgrind's: each event set sampled natively by the bench
//! process ([`crate::perf::sampler`]), the samples summed up per metric, compared with the
//! previous run's or a baseline's ([`crate::compare::perf`]: Welch's test, the interval of the
//! change and its verdict), checked against the limits ([`crate::compare::limits`]), and kept
//! (`perf.samples`, rotated like Callgrind's files; `--save-baseline` copies it). Everything it
//! does is the job's [`PerfRun`], folded when the job was planned.
//!
//! `--perf-round=FILE` ([`round`]) samples one round of every such benchmark and writes the
//! round's means, nothing else: `benchgrind ab` runs the base's and the head's in turns.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::baseline::{old_file, promote_and_save};
use crate::compare::limits::{check, hard_bounds, margin_of, Gate};
use crate::compare::perf::unpaired;
use crate::config::perf::run::PerfRun;
use crate::error::{FileResult, Problem};
use crate::execute::{Captured, Executor, Status};
use crate::perf::samples::{Failure, RoundMean, Samples, Spec, FORMAT, ROUND_FORMAT};
use crate::perf::stats::{welch_with_floor, Summary};
use crate::plan::{Job, Plan};
use crate::problem;
use crate::result::{PerfMetricResult, PerfResult, Source};
use crate::store::Which;

/// The file of a run's samples, every event set's rounds in turn.
const FILE: &str = "perf.samples";

/// How many processes share an event set's sample duration.
const ROUNDS: usize = 5;

/// Whether perf samples the benchmark (the plan decided).
pub(super) fn samples(job: &Job) -> bool {
    job.config.perf_run.is_some()
}

/// What the sampling processes gave: every samples file's text, and each read.
struct Sampled {
    text: String,
    files: Vec<Samples>,
}

/// Samples the benchmark where perf samples it; what the sampling processes print goes to
/// `printed`; `save` is `--save-baseline`'s name.
pub(super) fn run(
    job: &Job,
    save: Option<&str>,
    executor: &mut dyn Executor,
    compare_with: &Source,
    printed: &mut Captured,
) -> Option<PerfResult> {
    let run = job.config.perf_run.as_ref()?;
    let mut result = PerfResult {
        alpha: run.alpha,
        noise_pct: run.noise_pct,
        file: job.paths.file(FILE, Which::Current),
        notes: run.notes.clone(),
        ..PerfResult::default()
    };
    if let Err(why) = step(
        job,
        run,
        save,
        (executor, compare_with, printed),
        &mut result,
    ) {
        result.failed = Some(why.into());
    }
    Some(result)
}

/// [`run`]'s work, into `result`; the error is why perf gave nothing.
fn step(
    job: &Job,
    run: &PerfRun,
    save: Option<&str>,
    (executor, compare_with, printed): (&mut dyn Executor, &Source, &mut Captured),
    result: &mut PerfResult,
) -> Result<(), Problem> {
    if !crate::perf::SUPPORTED {
        return Err(problem!(
            "perf counts on Linux (x86-64, aarch64, riscv64) only"
        ));
    }
    // Each set in rounds, each a process of its own spread over the duration: the rounds'
    // means are what the comparison takes, so that what differs from one process to the next
    // (where its pages and code landed) and over time counts as spread, not as a change.
    let processes = if run.duration.is_zero() { 1 } else { ROUNDS };
    let sampled = sample(job, run, executor, processes, printed)?;
    for note in sampled.files.iter().flat_map(file_notes) {
        if !result.notes.contains(&note) {
            result.notes.push(note);
        }
    }
    if sampled.files.iter().all(|f| f.events.is_empty()) {
        return nothing_counted(run, &sampled.files);
    }
    let old = old_file(&job.paths, FILE, compare_with)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|t| read_all(&t))
        .unwrap_or_default();
    result.metrics = compare(run, &sampled.files, &old);
    let gate = Gate {
        paired: false,
        fail_inconclusive: run.fail_inconclusive,
    };
    result.regressions = check(&run.limits, &result.metrics, gate, &mut result.notes);
    if let Some(args) = &run.record {
        result.notes.push(record(job, run, args, executor));
    }
    keep(job, &sampled.text, save)
}

/// Samples every event set in `processes` processes, each for its share of one round (the
/// duration over [`ROUNDS`]).
fn sample(
    job: &Job,
    run: &PerfRun,
    executor: &mut dyn Executor,
    processes: usize,
    printed: &mut Captured,
) -> Result<Sampled, Problem> {
    let share = |d: Duration| {
        if run.duration.is_zero() {
            d
        } else {
            d / ROUNDS as u32
        }
    };
    let mut sampled = Sampled {
        text: String::new(),
        files: Vec::new(),
    };
    for set in &run.event_sets {
        for _ in 0..processes {
            let spec = Spec {
                events: set.clone(),
                duration: share(run.duration),
                default_entry: run.default_entry,
                min_pcnt_running: run.min_pcnt_running,
                calibrate: share(run.run_mode.calibration()),
                nonzero: run.non_zero.clone(),
                record: None,
            };
            let out = job.paths.file(FILE, Which::New);
            let _ = std::fs::remove_file(&out);
            let ran = executor.run_perf(job, &spec, &out);
            printed.append(&ran.output.stdout, &ran.output.stderr);
            if let Status::Failed(why) = ran.status {
                return Err(Problem::new(why));
            }
            let text = std::fs::read_to_string(&out).file_op("read the perf samples in", &out)?;
            let samples = Samples::parse(&text)
                .map_err(|(Failure::Denied(why) | Failure::Other(why))| Problem::new(why))?;
            sampled.text.push_str(&text);
            sampled.files.push(samples);
        }
    }
    Ok(sampled)
}

/// Nothing counted: the machine lacks every event asked for (a failure), or the benchmark
/// cannot be sampled at all (its note says why).
fn nothing_counted(run: &PerfRun, files: &[Samples]) -> Result<(), Problem> {
    if files.iter().all(|f| f.unsupported.is_empty()) {
        return Ok(());
    }
    Err(problem!(
        "this machine counts none of the perf events asked for ({}): hardware events need a \
         PMU, which most virtual machines lack; software events such as task-clock count \
         everywhere",
        run.event_sets.join("; ")
    ))
}

/// Each metric's new samples against the old ones: the summaries, Welch's p-value and the
/// interval and verdict of the change (on the rounds' means where both sides have two or more).
fn compare(run: &PerfRun, new: &[Samples], old: &[Samples]) -> Vec<PerfMetricResult> {
    let old = Samples::rounds(old);
    let floor = run.noise_pct / 100.0;
    let mut out = Vec::new();
    for metric in Samples::rounds(new) {
        let Some(all) = Summary::of(&metric.all()) else {
            continue;
        };
        let before = old.iter().find(|m| m.name == metric.name);
        let (new_rounds, old_rounds) = (metric.means(), before.map(|b| b.means()));
        // The rounds' means where both sides have two or more, else every sample.
        let sides = before.and_then(|b| {
            let old_rounds = old_rounds.as_deref().unwrap_or_default();
            if new_rounds.len() >= 2 && old_rounds.len() >= 2 {
                Some((Summary::of(&new_rounds)?, Summary::of(old_rounds)?))
            } else {
                Some((all, Summary::of(&b.all())?))
            }
        });
        let p_value = sides.and_then(|(n, o)| welch_with_floor(&n, &o, floor));
        let interval = sides.and_then(|(n, o)| unpaired(&n, &o, floor, run.alpha));
        let margin_pct = margin_of(&run.limits, &metric.name, run.margin_pct);
        out.push(PerfMetricResult {
            name: metric.name,
            time: metric.time,
            new: all,
            old: before.and_then(|b| Summary::of(&b.all())),
            p_value,
            significant: p_value.is_some_and(|p| p < run.alpha),
            interval,
            margin_pct,
            verdict: interval.map(|i| i.verdict(margin_pct)),
            new_rounds,
            old_rounds: old_rounds.unwrap_or_default(),
        });
    }
    out
}

/// The new samples become the current ones (the current, old), and a baseline if asked.
fn keep(job: &Job, text: &str, save: Option<&str>) -> Result<(), Problem> {
    let new = job.paths.file(FILE, Which::New);
    crate::store::write_atomic(&new, text.as_bytes()).file_op("write", &new)?;
    promote_and_save(&job.paths, &[FILE.to_owned()], FILE, save)
}

/// `perf record`'s run (the perf program's): a profile of the benchmark for `perf report`, as
/// a note that says where it is or why there is none.
fn record(job: &Job, run: &PerfRun, args: &[String], executor: &mut dyn Executor) -> String {
    if crate::execute::valgrind::find_in_path("perf").is_none() {
        return "record: no profile: the perf program is not on PATH (Debian and Ubuntu: \
                `apt-get install linux-perf`)"
            .into();
    }
    let path = job.paths.dir.join("perf.data");
    let spec = Spec {
        events: run.event_sets[0].clone(),
        duration: run.duration,
        default_entry: run.default_entry,
        min_pcnt_running: 0.0,
        calibrate: Duration::ZERO,
        nonzero: Vec::new(),
        record: Some((path.clone(), args.to_vec())),
    };
    let scratch = job.paths.dir.join("perf.record.samples");
    let ran = executor.run_perf(job, &spec, &scratch);
    let _ = std::fs::remove_file(&scratch);
    match ran.status {
        Status::Ok if path.exists() => {
            format!(
                "record: {} (read it with `perf report -i {0}`)",
                path.display()
            )
        }
        Status::Ok => "record: perf record wrote no profile".into(),
        Status::Failed(why) => format!("record: no profile: {why}"),
    }
}

/// `--perf-round=FILE`: one round of every benchmark perf samples (one process per event set,
/// for one round's share of the duration), its means per metric written to `file` as lines of
/// [`RoundMean`]; a benchmark whose sampling failed is a line with its error.
pub(super) fn round(plan: &Plan, executor: &mut dyn Executor, file: &Path) -> Result<(), Problem> {
    let mut text = format!("{ROUND_FORMAT}\n");
    for job in &plan.jobs {
        let Some(run) = &job.config.perf_run else {
            continue;
        };
        let mut printed = Captured::default();
        let lines = match sample(job, run, executor, 1, &mut printed) {
            Ok(sampled) => round_means(job, run, &sampled.files),
            Err(why) => vec![RoundMean::failed(job.id.full(), why.into())],
        };
        for line in lines {
            text.push_str(&line.encode());
            text.push('\n');
        }
    }
    let file = PathBuf::from(file);
    crate::store::write_atomic(&file, text.as_bytes())
        .file_op("write", &file)
        .map_err(|e| Problem::from(e).context("--perf-round"))
}

/// A round's mean per metric, with what its verdict is judged by.
fn round_means(job: &Job, run: &PerfRun, files: &[Samples]) -> Vec<RoundMean> {
    let id = job.id.full();
    Samples::rounds(files)
        .into_iter()
        .filter_map(|metric| {
            let all = metric.all();
            let mean = Summary::of(&all)?.mean;
            Some(RoundMean {
                id: id.clone(),
                margin_pct: margin_of(&run.limits, &metric.name, run.margin_pct),
                hard: hard_bounds(&run.limits, &metric.name, metric.time),
                metric: metric.name,
                time: metric.time,
                mean,
                n: all.len(),
                alpha: run.alpha,
                fail_inconclusive: run.fail_inconclusive,
                error: None,
            })
        })
        .collect()
}

/// The samples files of a run, one per event set.
fn read_all(text: &str) -> Vec<Samples> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line == FORMAT && !current.is_empty() {
            out.extend(Samples::parse(&current).ok());
            current.clear();
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.is_empty() {
        out.extend(Samples::parse(&current).ok());
    }
    out
}

/// What a samples file says about the machine and the samples.
fn file_notes(file: &Samples) -> Vec<String> {
    let mut notes = file.notes.clone();
    if !file.unsupported.is_empty() {
        notes.push(format!(
            "not counted here: {} (this machine exposes no PMU for them, as most virtual \
             machines; software events such as task-clock count everywhere)",
            file.unsupported.join(", ")
        ));
    }
    if file.user_only {
        let level = crate::perf::access::paranoid().map_or("?".into(), |p| p.to_string());
        notes.push(format!(
            "user space only: perf_event_paranoid is {level}, which lets this user count no \
             kernel time"
        ));
    }
    if file.multiplexed > 0 {
        notes.push(format!(
            "{} of {} samples dropped: a counter was multiplexed (ran less than min_pcnt_running \
             of its time); split the events into more sets",
            file.multiplexed, file.runs
        ));
    }
    if file.zero > 0 {
        notes.push(format!(
            "{} of {} samples dropped: a metric that must not be zero was (non_zero_metrics)",
            file.zero, file.runs
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::perf::Verdict;

    fn samples(name: &str, values: &[f64]) -> Samples {
        Samples {
            events: vec![name.into()],
            time: vec![true],
            samples: values.iter().map(|v| vec![*v]).collect(),
            ..Samples::default()
        }
    }

    fn perf_run(limits: &str) -> PerfRun {
        let mut run = PerfRun::resolve(
            None,
            &crate::config::perf::run::PerfFlags {
                on: Some(true),
                noise: Some(0.0),
                ..Default::default()
            },
        )
        .unwrap();
        if !limits.is_empty() {
            run.limits = crate::config::perf::run::limits(limits).unwrap();
        }
        run
    }

    /// Five rounds of three samples around `mean`, spread by `spread` in percent.
    fn rounds(name: &str, mean: f64, spread: f64) -> Vec<Samples> {
        (0..5)
            .map(|r| {
                let wobble = mean * spread / 100.0 * (r as f64 - 2.0) / 2.0;
                samples(name, &[mean + wobble, mean + wobble, mean + wobble])
            })
            .collect()
    }

    #[test]
    fn rounds_compared_with_the_old_runs_rounds() {
        // (new mean, old mean, spread %, limits, verdict, margin)
        let table = [
            (1200.0, 1000.0, 1.0, "", Verdict::Slower, 5.0),
            (800.0, 1000.0, 1.0, "", Verdict::Faster, 5.0),
            (1001.0, 1000.0, 0.5, "", Verdict::Unchanged, 5.0),
            (1050.0, 1000.0, 20.0, "", Verdict::Inconclusive, 5.0),
            // A soft limit is the metric's margin.
            (
                1200.0,
                1000.0,
                1.0,
                "task-clock=40%",
                Verdict::Unchanged,
                40.0,
            ),
        ];
        for (new, old, spread, limits, want, margin) in table {
            let run = perf_run(limits);
            let got = compare(
                &run,
                &rounds("task-clock", new, spread),
                &rounds("task-clock", old, spread),
            );
            assert_eq!(got.len(), 1);
            let m = &got[0];
            assert_eq!(m.verdict, Some(want), "{new} vs {old}: {m:?}");
            assert_eq!(m.margin_pct, margin);
            assert_eq!((m.new_rounds.len(), m.old_rounds.len()), (5, 5));
            assert_eq!(m.new.n, 15);
        }
        // Nothing to compare with: no verdict.
        let got = compare(&perf_run(""), &rounds("task-clock", 1.0, 1.0), &[]);
        assert_eq!((got[0].verdict, got[0].old), (None, None));
    }

    #[test]
    fn nothing_counted_fails_only_where_events_are_missing() {
        let run = perf_run("");
        assert!(nothing_counted(&run, &[Samples::default()]).is_ok());
        let missing = Samples {
            unsupported: vec!["cycles".into()],
            ..Samples::default()
        };
        let e = nothing_counted(&run, &[missing]).unwrap_err();
        assert!(e.contains("counts none of the perf events"), "{e}");
    }

    #[test]
    fn notes_of_a_samples_file() {
        let file = Samples {
            unsupported: vec!["cycles".into()],
            multiplexed: 2,
            zero: 1,
            runs: 10,
            ..Samples::default()
        };
        let notes = file_notes(&file);
        assert!(
            notes[0].starts_with("not counted here: cycles"),
            "{notes:?}"
        );
        assert!(notes[1].starts_with("2 of 10 samples dropped"), "{notes:?}");
        assert!(notes[2].starts_with("1 of 10 samples dropped"), "{notes:?}");
    }
}
