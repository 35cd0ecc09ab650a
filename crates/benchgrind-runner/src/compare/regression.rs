//! Stage 6, compare: which regression limits a benchmark went past. One check for every tool:
//! Callgrind's metrics and the other tools' values are both [`Measured`], and a limit is
//! relative to the old value or an absolute cap on the new one. Pure functions.

use crate::compare::{change_f64, Change};
use crate::config::{AnyMetric, EventKind, RegressionConfig, ToolMetric, ValgrindTool};
use crate::metrics::{Metrics, ToolMetrics};

/// One limit a benchmark went past, of a Callgrind metric or (`ToolRegression`) another tool's.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression<M = EventKind> {
    /// The metric.
    pub metric: M,
    /// The new value (a count, or a rate in percent).
    pub new: f64,
    /// The old value (absent for an absolute limit on a first run).
    pub old: Option<f64>,
    /// Which limit.
    pub limit: Limit,
}

/// A limit another tool's value went past.
pub type ToolRegression = Regression<ToolMetric>;

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
        /// The cap (a count, or a rate in percent: `Limit::Float`).
        cap: f64,
    },
}

impl Limit {
    /// One line for the report: the metric's `name`, the values, the change and this limit.
    pub fn describe(&self, name: &str, new: f64, old: Option<f64>) -> String {
        let new = number(new);
        match *self {
            Limit::Relative {
                limit_pct,
                diff_pct,
            } => format!(
                "{name} ({} -> {new}) changed by {diff_pct:+.5}%, past the limit of \
                 {limit_pct:+.5}%",
                number(old.unwrap_or(0.0))
            ),
            Limit::Absolute { cap } => {
                format!("{name} is {new}, past the hard limit of {}", number(cap))
            }
        }
    }
}

/// A count as a whole number, a rate with five decimals.
fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value}")
    } else {
        format!("{value:.5}")
    }
}

impl Regression<EventKind> {
    /// One line for the report: the metric, the values, the change and the limit.
    pub fn describe(&self) -> String {
        self.limit.describe(self.metric.label(), self.new, self.old)
    }
}

impl Regression<ToolMetric> {
    /// One line for the report, naming the tool.
    pub fn describe(&self, tool: ValgrindTool) -> String {
        let name = format!("{} {}", tool.title(), self.metric.label());
        self.limit.describe(&name, self.new, self.old)
    }
}

/// Relative limits (in percent) and absolute caps on one kind of metric.
pub type Limits<M> = (Vec<(M, f64)>, Vec<(M, f64)>);

/// The values of one run that limits apply to: Callgrind's metrics or another tool's.
pub trait Measured {
    /// The kind of metric.
    type Metric: Copy;
    /// One value, if the run has it: a count, or a rate in percent.
    fn value(&self, metric: Self::Metric) -> Option<f64>;
    /// The relative and absolute limits of `config` on this kind of metric.
    fn limits(config: &RegressionConfig) -> Limits<Self::Metric>;
}

impl Measured for Metrics {
    type Metric = EventKind;

    fn value(&self, metric: EventKind) -> Option<f64> {
        self.number(metric)
    }

    fn limits(config: &RegressionConfig) -> Limits<EventKind> {
        let hard = hard_limits(&config.hard_limits, config, |m| match m {
            AnyMetric::Event(k) => Some(k),
            AnyMetric::Tool(_) => None,
        });
        (config.effective_limits(), hard)
    }
}

impl Measured for ToolMetrics {
    type Metric = ToolMetric;

    fn value(&self, metric: ToolMetric) -> Option<f64> {
        self.get(metric).map(|v| v as f64)
    }

    fn limits(config: &RegressionConfig) -> Limits<ToolMetric> {
        let hard = hard_limits(&config.tool_hard_limits, config, |m| match m {
            AnyMetric::Tool(k) => Some(k),
            AnyMetric::Event(_) => None,
        });
        (config.tool_limits.clone(), hard)
    }
}

/// The hard limits of one kind of metric: the whole-number ones, then the fractional ones that
/// `pick` takes from the config's list of both kinds.
fn hard_limits<M: Copy>(
    counts: &[(M, u64)],
    config: &RegressionConfig,
    pick: fn(AnyMetric) -> Option<M>,
) -> Vec<(M, f64)> {
    let whole = counts.iter().map(|&(k, n)| (k, n as f64));
    let fractional = (config.float_hard_limits.iter()).filter_map(|&(m, x)| Some((pick(m)?, x)));
    whole.chain(fractional).collect()
}

/// The limits of `config` that `new` passes compared with `old`: a relative limit when the
/// change from the old value goes past it (a negative limit: below it), an absolute one when the
/// new value is over it (with or without an old value).
pub fn check<V: Measured>(
    config: &RegressionConfig,
    new: &V,
    old: Option<&V>,
) -> Vec<Regression<V::Metric>> {
    let (relative, absolute) = V::limits(config);
    let mut found = Vec::new();
    for (metric, limit_pct) in relative {
        let (Some(n), Some(o)) = (new.value(metric), old.and_then(|o| o.value(metric))) else {
            continue;
        };
        let Change::Diff { pct, .. } = change_f64(n, Some(o)) else {
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
            found.push(Regression {
                metric,
                new: n,
                old: Some(o),
                limit,
            });
        }
    }
    for (metric, cap) in absolute {
        if let Some(n) = new.value(metric).filter(|&n| n > cap) {
            let old = old.and_then(|o| o.value(metric));
            let limit = Limit::Absolute { cap };
            found.push(Regression {
                metric,
                new: n,
                old,
                limit,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{EventKind, ToolMetric, ValgrindTool};

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
    fn rates_have_soft_and_float_hard_limits() {
        use crate::config::Limit as Cap;
        let with_misses = |i1mr: u64| Metrics {
            values: vec![
                (EventKind::Ir, 1000),
                (EventKind::Dr, 0),
                (EventKind::Dw, 0),
                (EventKind::I1mr, i1mr),
            ],
        };
        let mut c = RegressionConfig::default();
        c.set_hard(AnyMetric::Event(EventKind::I1MissRate), Cap::Float(1.5));
        let r = check(&c, &with_misses(20), None);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].new, 2.0);
        assert!(check(&c, &with_misses(15), None).is_empty());
        let mut c = RegressionConfig::default();
        c.limits([(EventKind::I1MissRate, 10.0)]);
        assert_eq!(check(&c, &with_misses(12), Some(&with_misses(10))).len(), 1);
        assert!(check(&c, &with_misses(11), Some(&with_misses(10))).is_empty());
    }

    #[test]
    fn tool_limits_relative_and_absolute() {
        let mut config = RegressionConfig::default();
        config
            .tool_limits([(ToolMetric::TotalBytes, 5.0)])
            .tool_hard_limits([(ToolMetric::Errors, 0)]);
        let m = |bytes, errors| ToolMetrics {
            values: vec![
                (ToolMetric::TotalBytes, bytes),
                (ToolMetric::Errors, errors),
            ],
        };
        let found = check(&config, &m(110, 0), Some(&m(100, 0)));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].describe(ValgrindTool::DHAT),
            "DHAT Total bytes (100 -> 110) changed by +10.00000%, past the limit of +5.00000%"
        );
        assert!(check(&config, &m(104, 0), Some(&m(100, 0))).is_empty());
        let found = check(&config, &m(1, 2), None);
        assert_eq!(found[0].limit, Limit::Absolute { cap: 0.0 });
    }
}
