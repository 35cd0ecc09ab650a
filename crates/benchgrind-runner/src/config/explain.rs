//! When a run explains a benchmark's change (`--explain=N|always|never`): the setting only;
//! [`crate::explain`] decides with it ([`ExplainPolicy::wants`](crate::explain::Policy::wants)).
use crate::error::Problem;
use crate::problem;

/// When a run explains a benchmark's change: `--explain=N|always|never`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ExplainPolicy {
    /// Never.
    Never,
    /// Whenever a metric changed.
    Always,
    /// When the ranking metric changed by more than this many percent, or the benchmark
    /// regressed.
    Above(f64),
}

/// The default threshold of `--explain`: a change of more than 1% of the ranking metric (or
/// any change of a benchmark that passed a regression limit).
pub const DEFAULT_EXPLAIN_PCT: f64 = 1.0;

impl Default for ExplainPolicy {
    fn default() -> ExplainPolicy {
        ExplainPolicy::Above(DEFAULT_EXPLAIN_PCT)
    }
}

impl ExplainPolicy {
    /// Parses the value of `--explain`: a percentage, `always` or `never`.
    pub fn parse(value: &str) -> Result<ExplainPolicy, Problem> {
        match value {
            "always" => Ok(ExplainPolicy::Always),
            "never" => Ok(ExplainPolicy::Never),
            n => match n.trim_end_matches('%').parse::<f64>() {
                Ok(pct) if pct.is_finite() && pct >= 0.0 => Ok(ExplainPolicy::Above(pct)),
                _ => Err(problem!(
                    "`{value}` is not a percentage (e.g. 1 or 0.5), `always` or `never`"
                )),
            },
        }
    }
}
