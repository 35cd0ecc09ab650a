//! Regression limits: which changes of which metrics fail a run.
//!
//! A relative limit is a percentage of the old value (`+5` fails a rise over 5%, `-5` a fall
//! under -5%); an absolute limit caps the new value whatever the old one was. Checking is a pure
//! function of the new and old metrics.

use crate::compare::{change, Change};
use crate::metrics::{EventKind, Metrics};
use crate::tools::ToolMetric;

/// Limits over which a benchmark counts as regressed.
///
/// ```rust
/// use benchgrind_runner::{EventKind, RegressionConfig};
///
/// let mut config = RegressionConfig::default();
/// config
///     .limits([(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, 10.0)])
///     .hard_limits([(EventKind::Ir, 1_000_000)])
///     .fail_fast(true);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RegressionConfig {
    pub(crate) limits: Vec<(EventKind, f64)>,
    pub(crate) hard_limits: Vec<(EventKind, u64)>,
    pub(crate) fail_fast: Option<bool>,
    pub(crate) tool_limits: Vec<(ToolMetric, f64)>,
    pub(crate) tool_hard_limits: Vec<(ToolMetric, u64)>,
}

impl RegressionConfig {
    /// Relative limits in percent of the old value; a negative limit fails a fall below it.
    /// Without any limit, a config checks `Ir` at +10%.
    pub fn limits<I: IntoIterator<Item = (EventKind, f64)>>(&mut self, limits: I) -> &mut Self {
        self.limits.extend(limits);
        self
    }

    /// Absolute caps on new values, checked even on a first run.
    pub fn hard_limits<I: IntoIterator<Item = (EventKind, u64)>>(
        &mut self,
        limits: I,
    ) -> &mut Self {
        self.hard_limits.extend(limits);
        self
    }

    /// Relative limits on the values of the other tools (DHAT's `TotalBytes`, Memcheck's
    /// `Errors`, ...), in percent of the previous run's or the baseline's value.
    pub fn tool_limits<I: IntoIterator<Item = (ToolMetric, f64)>>(
        &mut self,
        limits: I,
    ) -> &mut Self {
        self.tool_limits.extend(limits);
        self
    }

    /// Absolute caps on the values of the other tools, checked even on a first run.
    pub fn tool_hard_limits<I: IntoIterator<Item = (ToolMetric, u64)>>(
        &mut self,
        limits: I,
    ) -> &mut Self {
        self.tool_hard_limits.extend(limits);
        self
    }

    /// Stop the run at the first regression instead of measuring the remaining benchmarks.
    pub fn fail_fast(&mut self, value: bool) -> &mut Self {
        self.fail_fast = Some(value);
        self
    }

    /// The relative limits in force: the configured ones, else (when no limit at all is
    /// configured, of Callgrind or another tool) `Ir` at +10%.
    pub fn effective_limits(&self) -> Vec<(EventKind, f64)> {
        let none = self.limits.is_empty()
            && self.hard_limits.is_empty()
            && self.tool_limits.is_empty()
            && self.tool_hard_limits.is_empty();
        if none {
            vec![(EventKind::Ir, 10.0)]
        } else {
            self.limits.clone()
        }
    }

    /// Whether the run stops at the first regression.
    pub fn is_fail_fast(&self) -> bool {
        self.fail_fast.unwrap_or(false)
    }
}

impl From<&mut RegressionConfig> for RegressionConfig {
    fn from(value: &mut RegressionConfig) -> Self {
        value.clone()
    }
}

/// One limit a benchmark went past.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression {
    /// The metric.
    pub metric: EventKind,
    /// The new value.
    pub new: u64,
    /// The old value (absent for an absolute limit on a first run).
    pub old: Option<u64>,
    /// Which limit.
    pub limit: Limit,
}

/// A limit that was passed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A change in percent: the limit and the change.
    Relative {
        /// The configured limit in percent.
        limit_pct: f64,
        /// The change in percent.
        diff_pct: f64,
    },
    /// An absolute cap.
    Absolute {
        /// The cap.
        cap: u64,
    },
}

impl Limit {
    /// One line for the report: the metric's `name`, the values, the change and this limit.
    pub fn describe(&self, name: &str, new: u64, old: Option<u64>) -> String {
        match *self {
            Limit::Relative {
                limit_pct,
                diff_pct,
            } => format!(
                "{name} ({} -> {new}) changed by {diff_pct:+.5}%, past the limit of \
                 {limit_pct:+.5}%",
                old.unwrap_or(0)
            ),
            Limit::Absolute { cap } => format!("{name} is {new}, past the hard limit of {cap}"),
        }
    }
}

impl Regression {
    /// One line for the report: the metric, the values, the change and the limit.
    pub fn describe(&self) -> String {
        self.limit.describe(self.metric.label(), self.new, self.old)
    }
}

/// The limits of `config` that `new` passes compared with `old`.
pub fn check(config: &RegressionConfig, new: &Metrics, old: Option<&Metrics>) -> Vec<Regression> {
    passed(
        &config.effective_limits(),
        &config.hard_limits,
        |m| new.get(m),
        |m| old.and_then(|o| o.get(m)),
    )
    .into_iter()
    .map(|(metric, new, old, limit)| Regression {
        metric,
        new,
        old,
        limit,
    })
    .collect()
}

/// `(metric, new, old, limit)` of every limit passed, for any kind of metric: a relative limit
/// when the change from the old value goes past it (a negative limit: below it), an absolute one
/// when the new value is over it (with or without an old value).
pub(crate) fn passed<M: Copy>(
    relative: &[(M, f64)],
    absolute: &[(M, u64)],
    new: impl Fn(M) -> Option<u64>,
    old: impl Fn(M) -> Option<u64>,
) -> Vec<(M, u64, Option<u64>, Limit)> {
    let mut found = Vec::new();
    for &(metric, limit_pct) in relative {
        let (Some(n), Some(o)) = (new(metric), old(metric)) else {
            continue;
        };
        let Change::Diff { pct, .. } = change(n, Some(o)) else {
            continue;
        };
        let over = if limit_pct >= 0.0 {
            pct > limit_pct
        } else {
            pct < limit_pct
        };
        if over {
            let limit = Limit::Relative {
                limit_pct,
                diff_pct: pct,
            };
            found.push((metric, n, Some(o), limit));
        }
    }
    for &(metric, cap) in absolute {
        if let Some(n) = new(metric).filter(|&n| n > cap) {
            found.push((metric, n, old(metric), Limit::Absolute { cap }));
        }
    }
    found
}

/// Parses `--regression`: `ir=5%,estimatedcycles=-10` (the `%` is optional), or an absolute
/// cap as `ir<=1000000`. Metric names are matched without case.
pub fn parse_spec(text: &str) -> Result<RegressionConfig, String> {
    let mut config = RegressionConfig::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some((name, cap)) = part.split_once("<=") {
            let metric = parse_metric(name)?;
            let cap = cap
                .trim()
                .parse::<u64>()
                .map_err(|_| format!("`{part}`: `{}` is not a whole number", cap.trim()))?;
            match metric {
                Ok(event) => config.hard_limits.push((event, cap)),
                Err(tool) => config.tool_hard_limits.push((tool, cap)),
            }
        } else if let Some((name, pct)) = part.split_once('=') {
            let metric = parse_metric(name)?;
            let pct = pct.trim().trim_end_matches('%');
            let pct = pct
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite())
                .ok_or_else(|| format!("`{part}`: `{pct}` is not a percentage"))?;
            match metric {
                Ok(event) => config.limits.push((event, pct)),
                Err(tool) => config.tool_limits.push((tool, pct)),
            }
        } else {
            return Err(format!(
                "`{part}` is not a limit; write METRIC=PERCENT (ir=5%) or METRIC<=COUNT"
            ));
        }
    }
    if config.limits.is_empty()
        && config.hard_limits.is_empty()
        && config.tool_limits.is_empty()
        && config.tool_hard_limits.is_empty()
    {
        return Err("no limit given; write for example ir=5%".into());
    }
    Ok(config)
}

/// A Callgrind metric (`Ok`) or another tool's (`Err`).
fn parse_metric(name: &str) -> Result<Result<EventKind, ToolMetric>, String> {
    let name = name.trim();
    if let Some(event) = EventKind::from_name(name) {
        return Ok(Ok(event));
    }
    ToolMetric::from_name(name).map(Err).ok_or_else(|| {
        format!(
            "unknown metric `{name}`; use one of: {}, or of the other tools: {}",
            EventKind::ALL.map(EventKind::name).join(", "),
            ToolMetric::ALL.map(ToolMetric::name).join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(ir: u64, cycles: u64) -> Metrics {
        Metrics {
            values: vec![(EventKind::Ir, ir), (EventKind::EstimatedCycles, cycles)],
        }
    }

    #[test]
    fn relative_limits_in_both_directions() {
        let mut c = RegressionConfig::default();
        c.limits([(EventKind::Ir, 5.0)]);
        assert!(check(&c, &metrics(110, 0), Some(&metrics(100, 0))).len() == 1);
        assert!(check(&c, &metrics(105, 0), Some(&metrics(100, 0))).is_empty());
        assert!(check(&c, &metrics(50, 0), Some(&metrics(100, 0))).is_empty());
        assert!(
            check(&c, &metrics(110, 0), None).is_empty(),
            "no old value, nothing to check"
        );

        let mut c = RegressionConfig::default();
        c.limits([(EventKind::EstimatedCycles, -10.0)]);
        let r = check(&c, &metrics(0, 80), Some(&metrics(0, 100)));
        assert_eq!(r.len(), 1);
        assert_eq!(
            r[0].limit,
            Limit::Relative {
                limit_pct: -10.0,
                diff_pct: -20.0
            }
        );
    }

    #[test]
    fn the_default_limit_is_ir_plus_ten_percent() {
        let c = RegressionConfig::default();
        assert_eq!(c.effective_limits(), vec![(EventKind::Ir, 10.0)]);
        assert_eq!(check(&c, &metrics(111, 0), Some(&metrics(100, 0))).len(), 1);
        assert!(check(&c, &metrics(109, 0), Some(&metrics(100, 0))).is_empty());
    }

    #[test]
    fn hard_limits_apply_without_an_old_run() {
        let mut c = RegressionConfig::default();
        c.hard_limits([(EventKind::Ir, 100)]);
        assert_eq!(c.effective_limits(), vec![]);
        let r = check(&c, &metrics(101, 0), None);
        assert_eq!(
            r[0].describe(),
            "Instructions is 101, past the hard limit of 100"
        );
        assert!(check(&c, &metrics(100, 0), None).is_empty());
    }

    #[test]
    fn specs_from_the_command_line() {
        let c = parse_spec("ir=5%, EstimatedCycles=-10,l1hits<=500").unwrap();
        assert_eq!(
            c.limits,
            vec![(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, -10.0)]
        );
        assert_eq!(c.hard_limits, vec![(EventKind::L1hits, 500)]);
        let c = parse_spec("totalbytes=2%,errors<=0").unwrap();
        assert_eq!(c.tool_limits, vec![(ToolMetric::TotalBytes, 2.0)]);
        assert_eq!(c.tool_hard_limits, vec![(ToolMetric::Errors, 0)]);
        assert!(c.effective_limits().is_empty(), "no default Ir limit then");
        assert!(parse_spec("ir=five")
            .unwrap_err()
            .contains("`five` is not a percentage"));
        assert!(parse_spec("instructions=5")
            .unwrap_err()
            .contains("unknown metric"));
        assert!(parse_spec("ir").unwrap_err().contains("METRIC=PERCENT"));
        assert!(parse_spec("").is_err());
    }
}
