//! A benchmark's perf step, after Valgrind's: each event set sampled natively by the bench
//! process ([`crate::perf::sampler`]), the samples summed up per metric, compared with the
//! previous run's or a baseline's by Welch's t-test, checked against the limits, and kept
//! (`perf.samples`, rotated like Callgrind's files; `--save-baseline` copies it).

use super::baseline::{old_file, promote_and_save};
use crate::cli::Cli;
use crate::config::perf::{Perf, DEFAULT_ALPHA, DEFAULT_NON_ZERO, DEFAULT_SAMPLE_DURATION};
use crate::execute::{Captured, Executor, Status};
use crate::perf::limits::{hard_value, Rule};
use crate::perf::samples::{Failure, Samples, Spec, FORMAT};
use crate::perf::stats::{welch_with_floor, Summary};
use crate::perf::{events, pattern};
use crate::plan::Job;
use crate::result::{PerfMetricResult, PerfResult, Source};
use crate::store::Which;

/// The file of a run's samples, every event set's rounds in turn.
const FILE: &str = "perf.samples";

/// How many processes share an event set's sample duration.
const ROUNDS: usize = 5;

/// What separate runs of the same code differ by, in percent of the mean (a standard deviation
/// per run), added to the spread of the rounds in the t-test (`--perf-noise`). Measured on
/// this project's virtual machine (`scripts/perf_noise.py`): in two series of 45 pairs of runs
/// of the same code (five benchmarks, ten runs each) task-clock moved by up to 6.3 % and 2.3 %;
/// over the rounds alone 8 and 9 of the 45 were significant at 0.05, with 1 % added 4 and 0,
/// with 1.5 % none.
pub(crate) const DEFAULT_NOISE_PCT: f64 = 1.5;

/// Whether perf samples the benchmark: where the code configures perf (or `--perf`), unless
/// `--perf=no`, loading a baseline or in test mode.
pub(super) fn samples(job: &Job, cli: &Cli) -> bool {
    if cli.load_baseline.is_some() || cli.test_mode {
        return false;
    }
    match (cli.perf, &job.config.perf) {
        (Some(on), _) => on,
        (None, Some(perf)) => perf.enabled(),
        (None, None) => false,
    }
}

/// Samples the benchmark where perf is configured (or `--perf`), unless loading a baseline;
/// what the sampling processes print goes to `printed`.
pub(super) fn run(
    job: &Job,
    cli: &Cli,
    executor: &mut dyn Executor,
    compare_with: &Source,
    printed: &mut Captured,
) -> Option<PerfResult> {
    if !samples(job, cli) {
        return None;
    }
    let perf = job.config.perf.clone().unwrap_or_default();
    let paths = &job.paths;
    let mut result = PerfResult {
        alpha: perf.alpha.unwrap_or(DEFAULT_ALPHA),
        noise_pct: cli.perf_noise.unwrap_or(DEFAULT_NOISE_PCT),
        file: paths.file(FILE, Which::Current),
        ..PerfResult::default()
    };
    if !crate::perf::SUPPORTED {
        result.failed = Some("perf counts on Linux (x86-64, aarch64, riscv64) only".into());
        return Some(result);
    }
    let (sets, notes) = event_sets(&perf, cli);
    result.notes.extend(notes);
    let duration = cli
        .perf_sampling
        .or(perf.sample_duration)
        .unwrap_or(DEFAULT_SAMPLE_DURATION);
    let run_mode = cli.perf_run_mode.or(perf.run_mode).unwrap_or_default();
    let nonzero = perf
        .non_zero
        .clone()
        .unwrap_or_else(|| DEFAULT_NON_ZERO.iter().map(|s| s.to_string()).collect());

    // Each set in rounds, each a process of its own spread over the duration: the rounds'
    // means are what the t-test compares, so that what differs from one process to the next
    // (where its pages and code landed) and over time counts as spread, not as a change.
    let rounds = if duration.is_zero() { 1 } else { ROUNDS };
    let mut text = String::new();
    let mut files = Vec::new();
    for set in &sets {
        for _ in 0..rounds {
            let spec = Spec {
                events: set.clone(),
                duration: duration / rounds as u32,
                default_entry: perf.default_entry.unwrap_or(true),
                min_pcnt_running: perf.min_pcnt_running.unwrap_or(100.0),
                calibrate: run_mode.calibration() / rounds as u32,
                nonzero: nonzero.clone(),
                record: None,
            };
            let out = paths.file(FILE, Which::New);
            let _ = std::fs::remove_file(&out);
            let ran = executor.run_perf(job, &spec, &out);
            printed.append(&ran.output.stdout, &ran.output.stderr);
            if let Status::Failed(why) = ran.status {
                result.failed = Some(why);
                return Some(result);
            }
            let read = std::fs::read_to_string(&out)
                .map_err(|e| Failure::Other(format!("no samples in {}: {e}", out.display())))
                .and_then(|t| Samples::parse(&t).map(|s| (t, s)));
            match read {
                Ok((t, samples)) => {
                    text.push_str(&t);
                    files.push(samples);
                }
                Err(Failure::Denied(why) | Failure::Other(why)) => {
                    result.failed = Some(why);
                    return Some(result);
                }
            }
        }
    }
    for note in files.iter().flat_map(file_notes) {
        if !result.notes.contains(&note) {
            result.notes.push(note);
        }
    }

    if files.iter().all(|f| f.events.is_empty()) {
        // Nothing counted: the machine lacks every event asked for (a failure), or the
        // benchmark cannot be sampled at all (its note says why).
        if files.iter().all(|f| f.unsupported.is_empty()) {
            return Some(result);
        }
        result.failed = Some(format!(
            "this machine counts none of the perf events asked for ({}): hardware events need a \
             PMU, which most virtual machines lack; software events such as task-clock count \
             everywhere",
            sets.join("; ")
        ));
        return Some(result);
    }
    let old = old_file(paths, FILE, compare_with)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|t| read_all(&t))
        .unwrap_or_default();
    let old = Samples::rounds(&old);
    for metric in Samples::rounds(&files) {
        let Some(new) = Summary::of(&metric.all()) else {
            continue;
        };
        let before = old.iter().find(|m| m.name == metric.name);
        let floor = result.noise_pct / 100.0;
        let p_value = before.and_then(|b| {
            let (new_means, old_means) = (metric.means(), b.means());
            if new_means.len() >= 2 && old_means.len() >= 2 {
                welch_with_floor(&Summary::of(&new_means)?, &Summary::of(&old_means)?, floor)
            } else {
                welch_with_floor(&new, &Summary::of(&b.all())?, floor)
            }
        });
        result.metrics.push(PerfMetricResult {
            name: metric.name,
            time: metric.time,
            new,
            old: before.and_then(|b| Summary::of(&b.all())),
            p_value,
            significant: p_value.is_some_and(|p| p < result.alpha),
        });
    }
    let mut rules: Vec<Rule> = perf
        .soft_limits
        .iter()
        .map(|(p, l)| Rule {
            pattern: p.clone(),
            soft: Some(*l),
            hard: None,
        })
        .collect();
    rules.extend(perf.hard_limits.iter().map(|(p, u, l)| Rule {
        pattern: p.clone(),
        soft: None,
        hard: Some((l.as_f64(), u.clone())),
    }));
    rules.extend(cli.perf_limits.iter().cloned());
    result.regressions = check(&rules, &result.metrics, &mut result.notes);

    if perf.record == Some(true) {
        let spec = Spec {
            events: sets[0].clone(),
            duration,
            default_entry: perf.default_entry.unwrap_or(true),
            min_pcnt_running: 0.0,
            calibrate: std::time::Duration::ZERO,
            nonzero: Vec::new(),
            record: Some((paths.dir.join("perf.data"), perf.record_args.clone())),
        };
        result.notes.push(record(job, executor, &spec));
    }

    // The new samples become the current ones (the current, old), and a baseline if asked.
    let new = paths.file(FILE, Which::New);
    if let Err(e) = crate::store::write_atomic(&new, text.as_bytes()) {
        result.failed = Some(format!("cannot write {}: {e}", new.display()));
        return Some(result);
    }
    let save = cli.save_baseline.as_deref();
    if let Err(e) = promote_and_save(paths, &[FILE.to_owned()], FILE, save) {
        result.failed = Some(e.to_string());
    }
    Some(result)
}

/// `perf record`'s run (the perf program's): a profile of the benchmark for `perf report`, as
/// a note that says where it is or why there is none.
fn record(job: &Job, executor: &mut dyn Executor, spec: &Spec) -> String {
    let Some((path, _)) = &spec.record else {
        return String::new();
    };
    if crate::execute::valgrind::find_in_path("perf").is_none() {
        return "record: no profile: the perf program is not on PATH (Debian and Ubuntu: \
                `apt-get install linux-perf`)"
            .into();
    }
    let scratch = job.paths.dir.join("perf.record.samples");
    let ran = executor.run_perf(job, spec, &scratch);
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

/// The event sets to sample and what was not applied: the command line's, else the code's,
/// else perf stat's default; with `--all-user` every event in user space only.
fn event_sets(perf: &Perf, cli: &Cli) -> (Vec<String>, Vec<String>) {
    let mut notes = Vec::new();
    let mut sets = if cli.perf_events.is_empty() {
        perf.event_sets.clone()
    } else {
        cli.perf_events.clone()
    };
    let mut user_only = false;
    let args: Vec<&String> = perf.args.iter().chain(&cli.perf_args).collect();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "--all-user" | "-u" => user_only = true,
            "-e" | "--event" if i + 1 < args.len() => {
                sets.push(args[i + 1].clone());
                i += 1;
            }
            _ if arg.starts_with("--event=") => sets.push(arg["--event=".len()..].to_owned()),
            _ => notes.push(format!(
                "perf stat argument `{arg}` does not apply (benchgrind counts with \
                 perf_event_open; it takes --all-user and --event)"
            )),
        }
        i += 1;
    }
    if sets.is_empty() {
        sets.push(events::DEFAULT.to_owned());
    }
    if user_only {
        sets = sets
            .iter()
            .map(|set| {
                set.split(',')
                    .map(|e| {
                        if e.contains([':', '/']) {
                            e.to_owned()
                        } else {
                            let close = e.ends_with('}');
                            let base = e.trim_end_matches('}');
                            format!("{base}:u{}", if close { "}" } else { "" })
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
    }
    (sets, notes)
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

/// The limits passed, in words; a hard limit that cannot apply to its metric is a note.
fn check(rules: &[Rule], metrics: &[PerfMetricResult], notes: &mut Vec<String>) -> Vec<String> {
    let mut passed = Vec::new();
    for rule in rules {
        let mut matched = false;
        for m in metrics
            .iter()
            .filter(|m| pattern::matches(&rule.pattern, &m.name))
        {
            matched = true;
            if let (Some(limit), Some(change), true) = (rule.soft, m.change_pct(), m.significant) {
                if (limit >= 0.0 && change > limit) || (limit < 0.0 && change < limit) {
                    passed.push(format!(
                        "{}: {change:+.2}% (significant, p = {:.4}) is past the soft limit of \
                         {limit:+}% ({})",
                        m.name,
                        m.p_value.unwrap_or(0.0),
                        rule.pattern
                    ));
                }
            }
            if let Some((value, unit)) = &rule.hard {
                match hard_value(*value, unit.as_ref(), m.time) {
                    Ok(limit) if m.new.mean > limit => passed.push(format!(
                        "{}: mean {} is above the hard limit of {} ({})",
                        m.name,
                        m.format(m.new.mean),
                        m.format(limit),
                        rule.pattern
                    )),
                    Ok(_) => {}
                    Err(why) => notes.push(format!(
                        "the hard limit of `{}` does not apply to {}: {why}",
                        rule.pattern, m.name
                    )),
                }
            }
        }
        if !matched {
            notes.push(format!(
                "the perf limit pattern `{}` matches no metric counted",
                rule.pattern
            ));
        }
    }
    passed
}
