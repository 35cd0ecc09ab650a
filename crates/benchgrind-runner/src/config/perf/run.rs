//! What the perf step of one benchmark does, decided once: the code's [`Perf`] levels merged,
//! then the command line's perf flags folded over them when the job is planned
//! ([`crate::plan`]), into one [`PerfRun`] that the harness reads and nothing else. Also the
//! text of `--perf-limits` ([`limits`]), in the grammar every tool's limits share.

use std::time::Duration;

use super::{events, Perf, PerfRunMode, Unit, DEFAULT_ALPHA, DEFAULT_NON_ZERO};
use super::{DEFAULT_MARGIN_PCT, DEFAULT_NOISE_PCT, DEFAULT_SAMPLE_DURATION};
use crate::error::Problem;

/// One perf limit: a pattern over metric names ([`super::pattern`]), with a soft limit in
/// percent (a significant change beyond it, or a "slower" verdict, fails) and a hard one on the
/// new mean (in the metric's unit, or with a unit for times: 2.5 ms).
#[derive(Debug, Clone, PartialEq)]
pub struct PerfLimit {
    /// The metric pattern.
    pub pattern: String,
    /// A soft limit in percent.
    pub soft: Option<f64>,
    /// A hard limit and its unit.
    pub hard: Option<(f64, Option<Unit>)>,
}

/// Reads `--perf-limits`' text, `PATTERN=SOFT%|HARD,...` (`task-clock*=40%|2.5ms`); the error
/// names the item that is wrong.
pub fn limits(text: &str) -> Result<Vec<PerfLimit>, Problem> {
    let items = crate::config::limits::items(text)?;
    Ok(items
        .into_iter()
        .map(|item| PerfLimit {
            pattern: item.key.to_owned(),
            soft: item.soft,
            hard: item
                .hard
                .map(|h| (h.value, (!h.unit.is_empty()).then(|| Unit::parse(h.unit)))),
        })
        .collect())
}

/// The command line's perf flags, as `cli` read them (validated, not yet folded).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerfFlags {
    /// `--perf`: for every benchmark (`Some(true)`), for none (`Some(false)`), or as the code
    /// says.
    pub on: Option<bool>,
    /// `--perf-events`: event sets, replacing the code's.
    pub events: Vec<String>,
    /// `--perf-limits`: added to the code's.
    pub limits: Vec<PerfLimit>,
    /// `--perf-sampling`: the sample duration (zero: one sample).
    pub sampling: Option<Duration>,
    /// `--perf-run-mode`.
    pub run_mode: Option<PerfRunMode>,
    /// `--perf-args`: `perf stat` arguments, added to the code's.
    pub args: Vec<String>,
    /// `--perf-noise`: what separate runs differ by, in percent.
    pub noise: Option<f64>,
    /// `--perf-margin`: the verdict's margin in percent.
    pub margin: Option<f64>,
    /// `--perf-fail-inconclusive`.
    pub fail_inconclusive: Option<bool>,
}

/// What one benchmark's perf step does: every setting resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfRun {
    /// The event sets, each sampled in processes of its own (`--all-user` applied).
    pub event_sets: Vec<String>,
    /// What was given but does not apply (perf stat arguments benchgrind does not take).
    pub notes: Vec<String>,
    /// How long each event set is sampled (zero: one sample).
    pub duration: Duration,
    /// Direct, or the empty window measured first and taken off.
    pub run_mode: PerfRunMode,
    /// Patterns of metrics whose zero drops a sample.
    pub non_zero: Vec<String>,
    /// Counters on over the benchmark function's window (`false`: between `perf_enable!` and
    /// `perf_disable!` only).
    pub default_entry: bool,
    /// Samples where a counter ran less than this percentage of its time are dropped.
    pub min_pcnt_running: f64,
    /// The significance level of the t-test; the interval's confidence is `1 - alpha`.
    pub alpha: f64,
    /// What separate runs differ by, in percent of the mean.
    pub noise_pct: f64,
    /// The verdict's margin in percent.
    pub margin_pct: f64,
    /// Whether an inconclusive verdict fails.
    pub fail_inconclusive: bool,
    /// The limits: the code's soft and hard ones, then the command line's.
    pub limits: Vec<PerfLimit>,
    /// Whether a limit passed stops the run.
    pub fail_fast: bool,
    /// `perf record`'s arguments, when a profile is recorded too.
    pub record: Option<Vec<String>>,
}

impl PerfRun {
    /// The perf step of a benchmark whose levels configured `code` (if any), with the command
    /// line's `flags`; `None` when perf does not sample it.
    pub fn resolve(code: Option<&Perf>, flags: &PerfFlags) -> Option<PerfRun> {
        let on = match (flags.on, code) {
            (Some(on), _) => on,
            (None, Some(perf)) => perf.enabled(),
            (None, None) => false,
        };
        if !on {
            return None;
        }
        let perf = code.cloned().unwrap_or_default();
        let (event_sets, notes) = event_sets(&perf, flags);
        let mut limits: Vec<PerfLimit> = (perf.soft_limits.iter())
            .map(|(p, l)| PerfLimit {
                pattern: p.clone(),
                soft: Some(*l),
                hard: None,
            })
            .collect();
        limits.extend(perf.hard_limits.iter().map(|(p, u, l)| PerfLimit {
            pattern: p.clone(),
            soft: None,
            hard: Some((l.as_f64(), u.clone())),
        }));
        limits.extend(flags.limits.iter().cloned());
        Some(PerfRun {
            event_sets,
            notes,
            duration: (flags.sampling.or(perf.sample_duration)).unwrap_or(DEFAULT_SAMPLE_DURATION),
            run_mode: flags.run_mode.or(perf.run_mode).unwrap_or_default(),
            non_zero: perf
                .non_zero
                .clone()
                .unwrap_or_else(|| DEFAULT_NON_ZERO.iter().map(|s| s.to_string()).collect()),
            default_entry: perf.default_entry.unwrap_or(true),
            min_pcnt_running: perf.min_pcnt_running.unwrap_or(100.0),
            alpha: perf.alpha.unwrap_or(DEFAULT_ALPHA),
            noise_pct: flags.noise.unwrap_or(DEFAULT_NOISE_PCT),
            margin_pct: (flags.margin.or(perf.margin)).unwrap_or(DEFAULT_MARGIN_PCT),
            fail_inconclusive: (flags.fail_inconclusive.or(perf.fail_inconclusive))
                .unwrap_or(false),
            limits,
            fail_fast: perf.fail_fast == Some(true),
            record: (perf.record == Some(true)).then(|| perf.record_args.clone()),
        })
    }
}

/// The event sets to sample and what was not applied: the command line's, else the code's,
/// else perf stat's default; with `--all-user` every event in user space only.
fn event_sets(perf: &Perf, flags: &PerfFlags) -> (Vec<String>, Vec<String>) {
    let mut notes = Vec::new();
    let mut sets = if flags.events.is_empty() {
        perf.event_sets.clone()
    } else {
        flags.events.clone()
    };
    let mut user_only = false;
    let args: Vec<&String> = perf.args.iter().chain(&flags.args).collect();
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
        sets = sets.iter().map(|set| user_space(set)).collect();
    }
    (sets, notes)
}

/// An event set with every event without a modifier counted in user space only (`:u`).
fn user_space(set: &str) -> String {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_limits_text() {
        let rules = limits("*instructions*=5%|1000000, task-clock*=40%|2.5ms,cycles=-3%").unwrap();
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[0].soft, Some(5.0));
        assert_eq!(rules[0].hard, Some((1_000_000.0, None)));
        assert_eq!(rules[1].pattern, "task-clock*");
        assert_eq!(rules[1].hard, Some((2.5, Some(Unit::Milliseconds))));
        assert_eq!(rules[2].soft, Some(-3.0));
        assert!(limits("cycles").unwrap_err().contains("KEY=N%"));
        assert!(limits("cycles=x%").unwrap_err().contains("`x%`"));
    }

    #[test]
    fn the_command_line_over_the_code() {
        let mut code = Perf::default();
        code.margin(3.0)
            .sample_duration(Duration::from_millis(300))
            .soft_limits([("task-clock", 10.0)])
            .args(["-u", "--bogus"]);
        // (flags, check)
        let none = PerfFlags::default();
        let run = PerfRun::resolve(Some(&code), &none).unwrap();
        assert_eq!(run.margin_pct, 3.0);
        assert_eq!(run.duration, Duration::from_millis(300));
        assert_eq!(run.limits.len(), 1);
        assert!(!run.fail_inconclusive);
        assert!(
            run.event_sets[0].contains("task-clock:u"),
            "{:?}",
            run.event_sets
        );
        assert!(run.notes[0].contains("--bogus"), "{:?}", run.notes);
        let flags = PerfFlags {
            margin: Some(1.0),
            fail_inconclusive: Some(true),
            sampling: Some(Duration::ZERO),
            events: vec!["task-clock".into()],
            limits: limits("cycles=2%").unwrap(),
            ..PerfFlags::default()
        };
        let run = PerfRun::resolve(Some(&code), &flags).unwrap();
        assert_eq!(run.margin_pct, 1.0);
        assert!(run.fail_inconclusive);
        assert_eq!(run.duration, Duration::ZERO);
        assert_eq!(run.event_sets, ["task-clock:u"]);
        assert_eq!(run.limits.len(), 2);
        // Off unless the code or --perf asks; --perf=no wins over the code.
        assert!(PerfRun::resolve(None, &none).is_none());
        let on = PerfFlags {
            on: Some(true),
            ..PerfFlags::default()
        };
        let run = PerfRun::resolve(None, &on).unwrap();
        assert_eq!(run.margin_pct, DEFAULT_MARGIN_PCT);
        assert_eq!(run.event_sets, [events::DEFAULT]);
        let off = PerfFlags {
            on: Some(false),
            ..PerfFlags::default()
        };
        assert!(PerfRun::resolve(Some(&code), &off).is_none());
        code.enable(false);
        assert!(PerfRun::resolve(Some(&code), &none).is_none());
    }
}
