//! perf's comparison: the interval of a metric's relative change and its verdict against a
//! margin (faster, slower, unchanged, or inconclusive when the interval is too wide to tell).
//!
//! Two shapes of data reach it: a run's rounds against the previous run's (unpaired, minutes or
//! days apart: Welch's interval on the difference of the means, with the known spread between
//! runs added, [`unpaired`]) and `benchgrind ab`'s rounds in turns, base and head sampled one
//! after the other in each round (paired: the interval of the mean of the per-round ratios
//! head/base, [`paired`]), where whatever drifts during the job moves both sides of a round
//! alike and cancels. The verdict is non-inferiority style: "unchanged" needs the whole
//! interval inside the margin, so that a wide interval never passes as no change.

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::error::Problem;
use crate::perf::stats::Summary;
use crate::problem;

/// What a metric's change says against the margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval is below -margin.
    Faster,
    /// The whole interval is above +margin.
    Slower,
    /// The whole interval is inside ±margin.
    Unchanged,
    /// The interval crosses a margin: too wide (or too close to it) to tell.
    Inconclusive,
}

impl Verdict {
    /// Its name in reports and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Verdict {
    type Err = Problem;

    fn from_str(text: &str) -> Result<Verdict, Problem> {
        match text {
            "faster" => Ok(Verdict::Faster),
            "slower" => Ok(Verdict::Slower),
            "unchanged" => Ok(Verdict::Unchanged),
            "inconclusive" => Ok(Verdict::Inconclusive),
            other => Err(problem!(
                "`{other}` is not a perf verdict (faster, slower, unchanged, inconclusive)"
            )),
        }
    }
}

/// A relative change and its confidence interval, in percent of the old (base) value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub pct: f64,
    /// The interval's lower end (may be -∞ where nothing bounds it).
    pub low: f64,
    /// Its upper end (may be +∞).
    pub high: f64,
}

impl Interval {
    /// The verdict against `margin` percent either way.
    pub fn verdict(&self, margin: f64) -> Verdict {
        let margin = margin.abs();
        if self.high < -margin {
            Verdict::Faster
        } else if self.low > margin {
            Verdict::Slower
        } else if self.low >= -margin && self.high <= margin {
            Verdict::Unchanged
        } else {
            Verdict::Inconclusive
        }
    }
}

/// The quantile of Student's t with `df` degrees of freedom at `1 - alpha / 2` (two-sided);
/// infinite where there is no degree of freedom.
fn t_quantile(alpha: f64, df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::INFINITY;
    }
    // Beyond a million degrees of freedom t is the normal distribution to many digits.
    match StudentsT::new(0.0, 1.0, df.min(1e6)) {
        Ok(t) => t.inverse_cdf(1.0 - alpha / 2.0),
        Err(_) => f64::INFINITY,
    }
}

/// The interval at confidence `1 - alpha` of the change from `old` to `new` (each a summary
/// of a run's round means), with `floor` (0.015: 1.5 %) of each mean added as the known spread
/// between separate runs (`--perf-noise`); Welch-Satterthwaite degrees of freedom. `None`
/// where the old mean is zero (no relative change).
pub fn unpaired(new: &Summary, old: &Summary, floor: f64, alpha: f64) -> Option<Interval> {
    if old.mean == 0.0 || !old.mean.is_finite() || !new.mean.is_finite() {
        return None;
    }
    let (va, vb) = (new.sd.powi(2) / new.n as f64, old.sd.powi(2) / old.n as f64);
    let known = (floor * new.mean).powi(2) + (floor * old.mean).powi(2);
    let se2 = va + vb + known;
    let unknown = |v: f64, n: usize| if n > 1 { v * v / (n - 1) as f64 } else { 0.0 };
    let one_sample_with_spread = (new.n < 2 && va > 0.0) || (old.n < 2 && vb > 0.0);
    let denominator = unknown(va, new.n) + unknown(vb, old.n);
    let df = if one_sample_with_spread {
        0.0
    } else if denominator > 0.0 {
        se2 * se2 / denominator
    } else {
        f64::INFINITY
    };
    let diff = new.mean - old.mean;
    let half = if se2 == 0.0 {
        0.0
    } else {
        t_quantile(alpha, df) * se2.sqrt()
    };
    let scale = 100.0 / old.mean.abs();
    Some(Interval {
        pct: diff * scale,
        low: (diff - half) * scale,
        high: (diff + half) * scale,
    })
}

/// The interval at confidence `1 - alpha` of the change from `base` to `head`, measured in
/// turns: `base[i]` and `head[i]` are round `i`'s means. The per-round ratios head/base, their
/// mean and Student's interval with `n - 1` degrees of freedom (unbounded from one round,
/// which says nothing about the spread). `None` when the rounds differ in number, there is
/// none, or a base round is zero.
pub fn paired(base: &[f64], head: &[f64], alpha: f64) -> Option<Interval> {
    if base.len() != head.len() || base.is_empty() || base.contains(&0.0) {
        return None;
    }
    let ratios: Vec<f64> = head.iter().zip(base).map(|(h, b)| h / b).collect();
    let summary = Summary::of(&ratios)?;
    let half = if summary.n < 2 {
        f64::INFINITY
    } else if summary.sd == 0.0 {
        0.0
    } else {
        t_quantile(alpha, (summary.n - 1) as f64) * summary.sd / (summary.n as f64).sqrt()
    };
    Some(Interval {
        pct: (summary.mean - 1.0) * 100.0,
        low: (summary.mean - half - 1.0) * 100.0,
        high: (summary.mean + half - 1.0) * 100.0,
    })
}

/// One perf metric: its samples new and old, and whether they differ significantly.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfMetricResult {
    /// perf's name (`task-clock`, `instructions:u`).
    pub name: String,
    /// Whether the values are nanoseconds.
    pub time: bool,
    /// The new samples.
    pub new: Summary,
    /// Those compared with.
    pub old: Option<Summary>,
    /// Welch's two-sided p-value, where both sides allow one.
    pub p_value: Option<f64>,
    /// Whether the change is significant (p below alpha).
    pub significant: bool,
    /// The interval of the change at confidence `1 - alpha`, in percent of the old mean.
    pub interval: Option<Interval>,
    /// The margin the verdict is judged against, in percent.
    pub margin_pct: f64,
    /// Faster, slower, unchanged or inconclusive, where compared.
    pub verdict: Option<Verdict>,
    /// The new side's round means (a process each, or `ab`'s rounds), as charts show them.
    pub new_rounds: Vec<f64>,
    /// The old side's round means, where compared.
    pub old_rounds: Vec<f64>,
}

impl PerfMetricResult {
    /// The change of the mean in percent, where there is an old mean.
    pub fn change_pct(&self) -> Option<f64> {
        let old = self.old?;
        if old.mean == 0.0 {
            return (self.new.mean == 0.0).then_some(0.0);
        }
        Some((self.new.mean - old.mean) / old.mean * 100.0)
    }

    /// One side's samples in words: `646.311 µs ± 19.125 µs (n=97)`.
    pub fn describe(&self, side: &Summary) -> String {
        format!(
            "{} ± {} (n={})",
            self.format(side.mean),
            self.format(side.sd),
            side.n
        )
    }

    /// The unit the metric is shown in (`ms`-like times, else none).
    pub fn format(&self, value: f64) -> String {
        if self.time {
            crate::perf::format_nanos(value)
        } else if value.fract() == 0.0 || value >= 1000.0 {
            format!("{value:.0}")
        } else {
            format!("{value:.2}")
        }
    }
}

/// A perf limit passed, or a verdict that fails: what the report, the tally and the exit
/// status see of perf's gate.
#[derive(Debug, Clone, PartialEq)]
pub enum PerfRegression {
    /// A significant change past a soft limit.
    Soft {
        /// The metric.
        metric: String,
        /// Its change in percent.
        change_pct: f64,
        /// Welch's p-value.
        p_value: f64,
        /// The limit in percent.
        limit_pct: f64,
        /// The limit's pattern.
        pattern: String,
    },
    /// A mean above a hard limit, both in the metric's words (`2.500 ms`).
    Hard {
        /// The metric.
        metric: String,
        /// The new mean.
        mean: String,
        /// The limit.
        limit: String,
        /// The limit's pattern.
        pattern: String,
    },
    /// A verdict the gate fails on: slower, or inconclusive where asked.
    Verdict {
        /// The metric.
        metric: String,
        /// The verdict.
        verdict: Verdict,
        /// The change's interval.
        interval: Interval,
        /// The margin it was judged against, in percent.
        margin_pct: f64,
        /// Whether base and head were sampled in turns (`ab`).
        paired: bool,
    },
    /// One as a summary recorded it, in words (`merge`, `report`).
    Recorded(String),
}

impl std::fmt::Display for PerfRegression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerfRegression::Soft {
                metric,
                change_pct,
                p_value,
                limit_pct,
                pattern,
            } => write!(
                f,
                "{metric}: {change_pct:+.2}% (significant, p = {p_value:.4}) is past the soft \
                 limit of {limit_pct:+}% ({pattern})"
            ),
            PerfRegression::Hard {
                metric,
                mean,
                limit,
                pattern,
            } => write!(
                f,
                "{metric}: mean {mean} is above the hard limit of {limit} ({pattern})"
            ),
            PerfRegression::Verdict {
                metric,
                verdict,
                interval,
                margin_pct,
                paired,
            } => write!(
                f,
                "{metric}: {verdict} ({:+.2}%, interval {:+.2}% to {:+.2}%, margin ±{margin_pct}%{})",
                interval.pct,
                interval.low,
                interval.high,
                if *paired { ", in turns" } else { "" }
            ),
            PerfRegression::Recorded(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::perf::DEFAULT_MARGIN_PCT;

    fn interval(low: f64, high: f64) -> Interval {
        Interval {
            pct: (low + high) / 2.0,
            low,
            high,
        }
    }

    #[test]
    fn verdicts_against_the_margin() {
        use Verdict::*;
        // (low, high, margin, verdict)
        let table = [
            (-12.0, -8.0, 5.0, Faster),
            (8.0, 12.0, 5.0, Slower),
            (-1.0, 1.0, 5.0, Unchanged),
            (-5.0, 5.0, 5.0, Unchanged),
            // A wide interval around zero never passes as unchanged.
            (-9.0, 9.0, 5.0, Inconclusive),
            // Past the margin on one side, inside on the other: not sure.
            (3.0, 8.0, 5.0, Inconclusive),
            (-8.0, -3.0, 5.0, Inconclusive),
            // A small but certain change inside the margin is no change at this margin...
            (2.0, 3.0, 5.0, Unchanged),
            // ...and slower at a smaller one; the margin's sign does not matter.
            (2.0, 3.0, 1.0, Slower),
            (2.0, 3.0, -1.0, Slower),
            (f64::NEG_INFINITY, f64::INFINITY, 5.0, Inconclusive),
        ];
        for (low, high, margin, want) in table {
            assert_eq!(
                interval(low, high).verdict(margin),
                want,
                "[{low}, {high}] at ±{margin}"
            );
        }
    }

    #[test]
    fn verdict_names_round_trip() {
        for v in [
            Verdict::Faster,
            Verdict::Slower,
            Verdict::Unchanged,
            Verdict::Inconclusive,
        ] {
            assert_eq!(v.to_string().parse::<Verdict>(), Ok(v));
        }
        assert!("worse".parse::<Verdict>().unwrap_err().contains("worse"));
    }

    #[test]
    fn paired_rounds() {
        // (base, head, verdict at 5 %): ratios computed round by round.
        let drifting: Vec<f64> = (0..10).map(|i| 100.0 + 10.0 * i as f64).collect();
        let slower: Vec<f64> = drifting.iter().map(|b| b * 1.10).collect();
        let faster: Vec<f64> = drifting.iter().map(|b| b * 0.5).collect();
        let jitter = |xs: &[f64], j: f64| -> Vec<f64> {
            xs.iter()
                .enumerate()
                .map(|(i, x)| x * (1.0 + if i % 2 == 0 { j } else { -j }))
                .collect()
        };
        let table: [(&[f64], Vec<f64>, Verdict); 5] = [
            // A drift of 90 % over the job cancels: each round's ratio is the same.
            (&drifting, jitter(&slower, 0.002), Verdict::Slower),
            (&drifting, jitter(&faster, 0.002), Verdict::Faster),
            (&drifting, jitter(&drifting, 0.002), Verdict::Unchanged),
            // Ratios of 0.85 and 1.15 in turns: a mean of 1, an interval past ±5 %.
            (&drifting, jitter(&drifting, 0.15), Verdict::Inconclusive),
            // One round says nothing about the spread.
            (&drifting[..1], slower[..1].to_vec(), Verdict::Inconclusive),
        ];
        for (base, head, want) in table {
            let got = paired(base, &head, 0.05).unwrap();
            assert_eq!(got.verdict(DEFAULT_MARGIN_PCT), want, "{got:?}");
        }
        assert!(paired(&[1.0, 2.0], &[1.0], 0.05).is_none());
        assert!(paired(&[0.0], &[1.0], 0.05).is_none());
        assert!(paired(&[], &[], 0.05).is_none());
    }

    #[test]
    fn paired_interval_is_students() {
        // Ratios 1.0, 1.1, 1.2: mean 1.1, sd 0.1, t(0.975, 2) = 4.302653.
        let got = paired(&[10.0, 10.0, 10.0], &[10.0, 11.0, 12.0], 0.05).unwrap();
        let half = 4.302_653 * 0.1 / 3f64.sqrt() * 100.0;
        assert!((got.pct - 10.0).abs() < 1e-9, "{got:?}");
        assert!((got.low - (10.0 - half)).abs() < 1e-3, "{got:?}");
        assert!((got.high - (10.0 + half)).abs() < 1e-3, "{got:?}");
    }

    #[test]
    fn unpaired_runs() {
        let s = |mean: f64, sd: f64, n: usize| Summary { mean, sd, n };
        // (new, old, noise floor, verdict at 5 %)
        let table = [
            (s(120.0, 1.0, 5), s(100.0, 1.0, 5), 0.015, Verdict::Slower),
            (s(50.0, 1.0, 5), s(100.0, 1.0, 5), 0.015, Verdict::Faster),
            (s(100.5, 0.5, 5), s(100.0, 0.5, 5), 0.0, Verdict::Unchanged),
            // The same means, but the floor between runs makes ±5 % uncertain.
            (
                s(100.5, 0.5, 5),
                s(100.0, 0.5, 5),
                0.03,
                Verdict::Inconclusive,
            ),
            // Rounds spread widely: not sure.
            (
                s(104.0, 10.0, 5),
                s(100.0, 10.0, 5),
                0.0,
                Verdict::Inconclusive,
            ),
            // Three rounds each: a clear 3 % whose interval reaches past 5 %.
            (
                s(103.0, 1.0, 3),
                s(100.0, 1.0, 3),
                0.0,
                Verdict::Inconclusive,
            ),
        ];
        for (new, old, floor, want) in table {
            let got = unpaired(&new, &old, floor, 0.05).unwrap();
            assert_eq!(
                got.verdict(DEFAULT_MARGIN_PCT),
                want,
                "{new:?} {old:?} {got:?}"
            );
            assert!(got.low <= got.pct && got.pct <= got.high, "{got:?}");
        }
        assert!(unpaired(&s(1.0, 0.0, 2), &s(0.0, 0.0, 2), 0.0, 0.05).is_none());
    }
}
