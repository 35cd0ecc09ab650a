//! perf's gate: its limits (read in the grammar every tool shares, [`crate::config::limits`])
//! checked against the metrics compared, and the verdicts that fail. A passed limit is a typed
//! [`PerfRegression`].
//!
//! Which verdict fails: where base and head were sampled in turns (`benchgrind ab`), "slower"
//! always; where a run is compared with a run taken at another time (the previous run, a
//! baseline), only where the user asked, by a limit matching the metric or by
//! `--perf-fail-inconclusive`: the drift between runs minutes or days apart is larger than the
//! noise within one, and a gate on it would fail on nothing. `--perf-fail-inconclusive` fails
//! "inconclusive" as well, in both.

use crate::compare::perf::{PerfMetricResult, PerfRegression, Verdict};
use crate::config::perf::pattern;
use crate::config::perf::run::PerfLimit;
use crate::config::perf::Unit;
use crate::error::Problem;
use crate::problem;

/// How the verdicts are gated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gate {
    /// Base and head sampled in turns.
    pub paired: bool,
    /// `--perf-fail-inconclusive`.
    pub fail_inconclusive: bool,
}

/// A hard limit in the metric's own values (nanoseconds for times), or why it does not apply:
/// a bare number on a time is perf's milliseconds.
pub fn hard_value(value: f64, unit: Option<&Unit>, time: bool) -> Result<f64, Problem> {
    match (unit, time) {
        (None, true) => Ok(value * 1e6),
        (None, false) => Ok(value),
        (Some(unit), true) => unit
            .nanos()
            .map(|n| value * n)
            .ok_or_else(|| problem!("{unit:?} is not a unit of time")),
        (Some(unit), false) => Err(problem!("{unit:?} does not apply to a count")),
    }
}

/// The hard limits of `limits` on the metric `name` that apply to it, each bound in the
/// metric's own values with the pattern that set it: what a `--perf-round` file carries, so that
/// `ab` checks them on the head's rounds ([`from_bounds`]).
pub fn hard_bounds(limits: &[PerfLimit], name: &str, time: bool) -> Vec<(f64, String)> {
    (limits.iter())
        .filter(|l| pattern::matches(&l.pattern, name))
        .filter_map(|l| {
            let (value, unit) = l.hard.as_ref()?;
            let bound = hard_value(*value, unit.as_ref(), time).ok()?;
            Some((bound, l.pattern.clone()))
        })
        .collect()
}

/// [`hard_bounds`]' bounds as limits again, for [`check`].
pub fn from_bounds(bounds: &[(f64, String)], time: bool) -> Vec<PerfLimit> {
    (bounds.iter())
        .map(|(bound, pattern)| PerfLimit {
            pattern: pattern.clone(),
            soft: None,
            hard: Some((*bound, time.then_some(Unit::Nanoseconds))),
        })
        .collect()
}

/// The margin a metric's verdict is judged against: the soft limit of the first limit whose
/// pattern matches it (a soft limit is that metric's margin), else `default`.
pub fn margin_of(limits: &[PerfLimit], name: &str, default: f64) -> f64 {
    limits
        .iter()
        .filter(|l| pattern::matches(&l.pattern, name))
        .find_map(|l| l.soft)
        .map_or(default, f64::abs)
}

/// The limits passed and the verdicts that fail; a hard limit that cannot apply to its metric,
/// or a pattern that matches none, is a note.
pub fn check(
    limits: &[PerfLimit],
    metrics: &[PerfMetricResult],
    gate: Gate,
    notes: &mut Vec<String>,
) -> Vec<PerfRegression> {
    let mut passed = Vec::new();
    for limit in limits {
        if !metrics
            .iter()
            .any(|m| pattern::matches(&limit.pattern, &m.name))
        {
            notes.push(format!(
                "the perf limit pattern `{}` matches no metric counted",
                limit.pattern
            ));
        }
    }
    for m in metrics {
        let matching: Vec<&PerfLimit> = limits
            .iter()
            .filter(|l| pattern::matches(&l.pattern, &m.name))
            .collect();
        let before = passed.len();
        for limit in &matching {
            passed.extend(soft(limit, m));
            match hard(limit, m) {
                Ok(regression) => passed.extend(regression),
                Err(note) => notes.push(note.into()),
            }
        }
        // A limit that fired says it already (a soft one fires on a slower verdict at its
        // margin): the verdict is not said twice.
        if passed.len() == before {
            passed.extend(verdict(m, gate, !matching.is_empty()));
        }
    }
    passed
}

/// A significant change past a soft limit (a negative one: a fall below it).
fn soft(limit: &PerfLimit, m: &PerfMetricResult) -> Option<PerfRegression> {
    let (limit_pct, change, true) = (limit.soft?, m.change_pct()?, m.significant) else {
        return None;
    };
    let past = (limit_pct >= 0.0 && change > limit_pct) || (limit_pct < 0.0 && change < limit_pct);
    past.then(|| PerfRegression::Soft {
        metric: m.name.clone(),
        change_pct: change,
        p_value: m.p_value.unwrap_or(0.0),
        limit_pct,
        pattern: limit.pattern.clone(),
    })
}

/// A mean above a hard limit; `Err` where the limit's unit does not apply to the metric.
fn hard(limit: &PerfLimit, m: &PerfMetricResult) -> Result<Option<PerfRegression>, Problem> {
    let Some((value, unit)) = &limit.hard else {
        return Ok(None);
    };
    match hard_value(*value, unit.as_ref(), m.time) {
        Ok(bound) if m.new.mean > bound => Ok(Some(PerfRegression::Hard {
            metric: m.name.clone(),
            mean: m.format(m.new.mean),
            limit: m.format(bound),
            pattern: limit.pattern.clone(),
        })),
        Ok(_) => Ok(None),
        Err(why) => Err(problem!(
            "the hard limit of `{}` does not apply to {}: {why}",
            limit.pattern,
            m.name
        )),
    }
}

/// The metric's verdict, where the gate fails on it.
fn verdict(m: &PerfMetricResult, gate: Gate, limited: bool) -> Option<PerfRegression> {
    let (verdict, interval) = (m.verdict?, m.interval?);
    let fails = match verdict {
        Verdict::Slower => gate.paired || gate.fail_inconclusive || limited,
        Verdict::Inconclusive => gate.fail_inconclusive,
        Verdict::Faster | Verdict::Unchanged => false,
    };
    fails.then(|| PerfRegression::Verdict {
        metric: m.name.clone(),
        verdict,
        interval,
        margin_pct: m.margin_pct,
        paired: gate.paired,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::perf::Interval;
    use crate::config::perf::run::limits as parse;
    use crate::perf::stats::Summary;

    fn metric(name: &str, change: f64, significant: bool, verdict: Verdict) -> PerfMetricResult {
        let old = Summary {
            mean: 1_000_000.0,
            sd: 1.0,
            n: 5,
        };
        let new = Summary {
            mean: old.mean * (1.0 + change / 100.0),
            ..old
        };
        PerfMetricResult {
            name: name.into(),
            time: name.contains("clock"),
            new,
            old: Some(old),
            p_value: Some(if significant { 0.001 } else { 0.5 }),
            significant,
            interval: Some(Interval {
                pct: change,
                low: change - 1.0,
                high: change + 1.0,
            }),
            margin_pct: 5.0,
            verdict: Some(verdict),
            new_rounds: Vec::new(),
            old_rounds: Vec::new(),
        }
    }

    const UNPAIRED: Gate = Gate {
        paired: false,
        fail_inconclusive: false,
    };
    const PAIRED: Gate = Gate {
        paired: true,
        fail_inconclusive: false,
    };
    const STRICT: Gate = Gate {
        paired: false,
        fail_inconclusive: true,
    };

    #[test]
    fn which_verdicts_fail_where() {
        use Verdict::*;
        // (limits, verdict, gate, how many regressions)
        let table: [(&str, Verdict, Gate, usize); 10] = [
            // Compared with another run and nothing asked: reported, never failed.
            ("", Slower, UNPAIRED, 0),
            ("", Inconclusive, UNPAIRED, 0),
            // In turns: slower fails, inconclusive only where asked.
            ("", Slower, PAIRED, 1),
            ("", Inconclusive, PAIRED, 0),
            ("", Faster, PAIRED, 0),
            // --perf-fail-inconclusive: both fail, also between runs.
            ("", Inconclusive, STRICT, 1),
            ("", Slower, STRICT, 1),
            ("", Unchanged, STRICT, 0),
            // A limit on the metric asks for the gate: a hard one that holds, slower fails.
            ("task-clock=1s", Slower, UNPAIRED, 1),
            ("cycles=1s", Slower, UNPAIRED, 0),
        ];
        for (limits, verdict, gate, want) in table {
            let limits = if limits.is_empty() {
                Vec::new()
            } else {
                parse(limits).unwrap()
            };
            let m = metric("task-clock", 8.0, true, verdict);
            let mut notes = Vec::new();
            let got = check(&limits, &[m], gate, &mut notes);
            assert_eq!(got.len(), want, "{limits:?} {verdict} {gate:?}: {got:?}");
            for r in &got {
                assert!(matches!(r, PerfRegression::Verdict { .. }), "{r:?}");
                assert!(r.to_string().starts_with("task-clock: "), "{r}");
            }
        }
    }

    #[test]
    fn soft_and_hard_limits() {
        // (limits, change %, significant, regressions in words)
        let table: [(&str, f64, bool, &[&str]); 6] = [
            (
                "task-clock*=5%",
                8.0,
                true,
                &["is past the soft limit of +5%"],
            ),
            ("task-clock*=5%", 8.0, false, &[]),
            ("task-clock*=10%", 8.0, true, &[]),
            ("task-clock*=-5%", -8.0, true, &["soft limit of -5%"]),
            (
                "task-clock=0.5ms",
                0.0,
                false,
                &["is above the hard limit of 500.000 µs"],
            ),
            ("task-clock=2ms", 0.0, false, &[]),
        ];
        for (limits, change, significant, want) in table {
            let m = metric("task-clock", change, significant, Verdict::Unchanged);
            let mut notes = Vec::new();
            let got = check(&parse(limits).unwrap(), &[m], UNPAIRED, &mut notes);
            let words: Vec<String> = got.iter().map(ToString::to_string).collect();
            assert_eq!(words.len(), want.len(), "{limits}: {words:?}");
            for (w, part) in words.iter().zip(want) {
                assert!(w.contains(part), "{limits}: {w}");
            }
        }
        // A soft limit that fired is not said twice by the verdict.
        let m = metric("task-clock", 8.0, true, Verdict::Slower);
        let got = check(
            &parse("task-clock=5%").unwrap(),
            &[m],
            UNPAIRED,
            &mut Vec::new(),
        );
        assert_eq!(got.len(), 1, "{got:?}");
    }

    #[test]
    fn limits_that_do_not_apply_are_notes() {
        let m = metric("page-faults", 0.0, false, Verdict::Unchanged);
        let mut notes = Vec::new();
        let got = check(
            &parse("page-faults=3ms,cycles=1%").unwrap(),
            &[m],
            UNPAIRED,
            &mut notes,
        );
        assert!(got.is_empty(), "{got:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.contains("`cycles` matches no metric")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("does not apply to page-faults")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_soft_limit_is_its_metrics_margin() {
        let limits = parse("task-clock*=-40%,cycles=1000").unwrap();
        assert_eq!(margin_of(&limits, "task-clock:u", 5.0), 40.0);
        assert_eq!(margin_of(&limits, "cycles", 5.0), 5.0);
        assert_eq!(margin_of(&limits, "page-faults", 2.0), 2.0);
    }

    #[test]
    fn hard_bounds_travel_in_the_metrics_values_and_come_back_as_limits() {
        let limits = crate::config::perf::run::limits("task-*=2.5ms,*=10%|7,cycles=3ms").unwrap();
        let bounds = hard_bounds(&limits, "task-clock", true);
        assert_eq!(
            bounds,
            [
                (2_500_000.0, "task-*".to_owned()),
                (7_000_000.0, "*".to_owned())
            ]
        );
        // A time's bound does not apply to a count: left out, as the run's check notes it.
        assert_eq!(
            hard_bounds(&limits, "cycles", false),
            [(7.0, "*".to_owned())]
        );
        let back = from_bounds(&bounds, true);
        assert_eq!(
            back.iter()
                .map(|l| hard_value(
                    l.hard.as_ref().unwrap().0,
                    l.hard.as_ref().unwrap().1.as_ref(),
                    true
                ))
                .collect::<Vec<_>>(),
            [Ok(2_500_000.0), Ok(7_000_000.0)]
        );
        assert!(back.iter().all(|l| l.soft.is_none()));
    }

    #[test]
    fn hard_values_in_the_metrics_units() {
        assert_eq!(
            hard_value(2.5, Some(&Unit::Milliseconds), true),
            Ok(2_500_000.0)
        );
        assert_eq!(hard_value(2.0, None, true), Ok(2_000_000.0));
        assert_eq!(hard_value(7.0, None, false), Ok(7.0));
        assert!(hard_value(1.0, Some(&Unit::Bytes), true).is_err());
        assert!(hard_value(1.0, Some(&Unit::Seconds), false).is_err());
    }
}
