//! Regression limits: which changes of which metrics fail a run, and their text form
//! (`--regression`).
//!
//! A relative limit is a percentage of the old value (`+5` fails a rise over 5%, `-5` a fall
//! under -5%); an absolute limit caps the new value whatever the old one was. Checking them is
//! [`crate::compare::regression`]'s.

use crate::error::Problem;
use crate::problem;
use std::str::FromStr;

use super::metric::{AnyMetric, EventKind, ToolMetric};

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
    /// Caps given as numbers with a fraction ([`Limit::Float`]), for rates: compared with the
    /// new value as a float.
    pub(crate) float_hard_limits: Vec<(AnyMetric, f64)>,
    /// Whether limits on the metrics that follow layout fire on a change of layout alone
    /// ([`crate::compare::layout`]); `None`: not set, which is no.
    pub(crate) layout: Option<bool>,
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
        if self.is_empty() {
            vec![(EventKind::Ir, 10.0)]
        } else {
            self.limits.clone()
        }
    }

    /// Whether limits on the metrics that follow where code and data sit (the cache metrics,
    /// `EstimatedCycles`, the rates) fire also when the benchmark executed the same code as
    /// before and only addresses moved (a *layout-only* change). By default they do not: such
    /// a change comes from code elsewhere in the binary, or the environment, not from the
    /// benchmark's code. Limits on `Ir` are not concerned (it cannot move then).
    pub fn limit_layout(&mut self, value: bool) -> &mut Self {
        self.layout = Some(value);
        self
    }

    /// Whether limits fire on a layout-only change ([`Self::limit_layout`]; no unless set).
    pub fn limits_layout(&self) -> bool {
        self.layout.unwrap_or(false)
    }

    /// Whether the run stops at the first regression.
    pub fn is_fail_fast(&self) -> bool {
        self.fail_fast.unwrap_or(false)
    }
}

impl RegressionConfig {
    /// Sets the relative limit of one metric, replacing one set before.
    pub(crate) fn set_soft(&mut self, metric: AnyMetric, pct: f64) {
        match metric {
            AnyMetric::Event(e) => replace(&mut self.limits, e, pct),
            AnyMetric::Tool(t) => replace(&mut self.tool_limits, t, pct),
        }
    }

    /// Sets the cap of one metric, replacing one set before.
    pub(crate) fn set_hard(&mut self, metric: AnyMetric, limit: Limit) {
        self.hard_limits
            .retain(|(k, _)| AnyMetric::Event(*k) != metric);
        self.tool_hard_limits
            .retain(|(k, _)| AnyMetric::Tool(*k) != metric);
        self.float_hard_limits.retain(|(k, _)| *k != metric);
        match (metric, limit) {
            (AnyMetric::Event(e), Limit::Int(n)) => self.hard_limits.push((e, n)),
            (AnyMetric::Tool(t), Limit::Int(n)) => self.tool_hard_limits.push((t, n)),
            (metric, Limit::Float(x)) => self.float_hard_limits.push((metric, x)),
        }
    }

    /// Adds the limits of `specific` over these, replacing those of the same metrics.
    pub(crate) fn merge(&mut self, specific: &RegressionConfig) {
        for &(e, pct) in &specific.limits {
            replace(&mut self.limits, e, pct);
        }
        for &(t, pct) in &specific.tool_limits {
            replace(&mut self.tool_limits, t, pct);
        }
        for &(e, n) in &specific.hard_limits {
            self.set_hard(AnyMetric::Event(e), Limit::Int(n));
        }
        for &(t, n) in &specific.tool_hard_limits {
            self.set_hard(AnyMetric::Tool(t), Limit::Int(n));
        }
        for &(m, x) in &specific.float_hard_limits {
            self.set_hard(m, Limit::Float(x));
        }
        if specific.fail_fast.is_some() {
            self.fail_fast = specific.fail_fast;
        }
        if specific.layout.is_some() {
            self.layout = specific.layout;
        }
    }
}

/// Replaces the entry of `key` or adds it.
fn replace<K: PartialEq, V>(list: &mut Vec<(K, V)>, key: K, value: V) {
    list.retain(|(k, _)| *k != key);
    list.push((key, value));
}

impl From<&mut RegressionConfig> for RegressionConfig {
    fn from(value: &mut RegressionConfig) -> Self {
        value.clone()
    }
}

impl RegressionConfig {
    /// Whether no limit at all is configured, of Callgrind or another tool.
    fn is_empty(&self) -> bool {
        self.limits.is_empty()
            && self.hard_limits.is_empty()
            && self.tool_limits.is_empty()
            && self.tool_hard_limits.is_empty()
            && self.float_hard_limits.is_empty()
    }
}

impl FromStr for RegressionConfig {
    type Err = Problem;

    /// Parses `--regression`: `ir=5%,estimatedcycles=-10` (the `%` is optional), or an absolute
    /// cap as `ir<=1000000`. Metric names are matched without case.
    fn from_str(text: &str) -> Result<RegressionConfig, Problem> {
        let mut config = RegressionConfig::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some((name, cap)) = part.split_once("<=") {
                let metric = name.parse::<AnyMetric>()?;
                let cap = cap
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| problem!("`{part}`: `{}` is not a whole number", cap.trim()))?;
                match metric {
                    AnyMetric::Event(event) => config.hard_limits.push((event, cap)),
                    AnyMetric::Tool(tool) => config.tool_hard_limits.push((tool, cap)),
                }
            } else if let Some((name, pct)) = part.split_once('=') {
                let metric = name.parse::<AnyMetric>()?;
                let pct = pct.trim().trim_end_matches('%');
                let pct = pct
                    .parse::<f64>()
                    .ok()
                    .filter(|p| p.is_finite())
                    .ok_or_else(|| problem!("`{part}`: `{pct}` is not a percentage"))?;
                match metric {
                    AnyMetric::Event(event) => config.limits.push((event, pct)),
                    AnyMetric::Tool(tool) => config.tool_limits.push((tool, pct)),
                }
            } else {
                return Err(problem!(
                    "`{part}` is not a limit; write METRIC=PERCENT (ir=5%) or METRIC<=COUNT"
                ));
            }
        }
        if config.is_empty() {
            return Err(Problem::new("no limit given; write for example ir=5%"));
        }
        Ok(config)
    }
}

/// A limit on a new value: a count, or a rate in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A whole number (counts).
    Int(u64),
    /// A number with a fraction (rates, in percent).
    Float(f64),
}

impl Limit {
    /// The limit as a float, for comparison with any value.
    pub fn as_f64(self) -> f64 {
        match self {
            Limit::Int(n) => n as f64,
            Limit::Float(x) => x,
        }
    }
}

impl From<u64> for Limit {
    fn from(value: u64) -> Limit {
        Limit::Int(value)
    }
}

impl From<f64> for Limit {
    fn from(value: f64) -> Limit {
        Limit::Float(value)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Int(n) => write!(f, "{n}"),
            Limit::Float(x) => write!(f, "{x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_spec(text: &str) -> Result<RegressionConfig, Problem> {
        text.parse()
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
