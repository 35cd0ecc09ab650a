//! The text forms of limits and metric lists by tool, as the command line takes them
//! (`--callgrind-limits`, `--dhat-limits`, `--callgrind-metrics`, `--memcheck-metrics`, ...):
//! comma-separated items, each a metric's name or a `@group`, without regard to case.
//!
//! A limit item is `KEY=LIMIT` in the grammar every tool shares ([`crate::config::limits`]): `N%`
//! is a soft limit (in percent of the old value, negative for a fall), a bare `N` a hard one (a
//! whole number for counts, any number for rates, which are in percent), and `N%|M` both. A group sets every member; later items replace earlier ones of the
//! same metric. An error names the item and what to write instead.

use crate::error::Problem;
use crate::problem;
use std::str::FromStr;

use super::super::metric::{AnyMetric, EventKind, ToolMetric};
use super::super::regression::RegressionConfig;
use super::{CachegrindMetrics, CallgrindMetrics, DhatMetrics, ErrorMetric, Limit};

/// `--callgrind-limits`: limits on Callgrind's metrics.
pub fn callgrind_limits(text: &str) -> Result<RegressionConfig, Problem> {
    limits(text, |g: CallgrindMetrics| events(g.expand()))
}

/// `--cachegrind-limits`: limits on Cachegrind's metrics.
pub fn cachegrind_limits(text: &str) -> Result<RegressionConfig, Problem> {
    limits(text, |g: CachegrindMetrics| events(g.expand()))
}

/// `--dhat-limits`: limits on DHAT's metrics.
pub fn dhat_limits(text: &str) -> Result<RegressionConfig, Problem> {
    limits(text, |g: DhatMetrics| {
        let metrics = g.expand().into_iter();
        metrics
            .map(|m| (AnyMetric::Tool(m.tool_metric()), false))
            .collect()
    })
}

/// `--callgrind-metrics`: Callgrind's metrics in order, each once (the first occurrence wins).
pub fn callgrind_metrics(text: &str) -> Result<Vec<EventKind>, Problem> {
    list(text, |g: CallgrindMetrics| g.expand())
}

/// `--cachegrind-metrics`: Cachegrind's metrics in order, as Callgrind's events.
pub fn cachegrind_metrics(text: &str) -> Result<Vec<EventKind>, Problem> {
    list(text, |g: CachegrindMetrics| g.expand())
}

/// `--dhat-metrics`: DHAT's metrics in order.
pub fn dhat_metrics(text: &str) -> Result<Vec<ToolMetric>, Problem> {
    list(text, |g: DhatMetrics| {
        g.expand().into_iter().map(|m| m.tool_metric()).collect()
    })
}

/// `--memcheck-metrics`, `--helgrind-metrics`, `--drd-metrics`: error counts in order, or
/// `@all`.
pub fn error_metrics(text: &str) -> Result<Vec<ToolMetric>, Problem> {
    list(text, |g: ErrorGroup| match g {
        ErrorGroup::All => ErrorMetric::ALL.map(ErrorMetric::tool_metric).to_vec(),
        ErrorGroup::One(m) => vec![m.tool_metric()],
    })
}

/// An error count or `@all` of them.
#[derive(Clone, Copy)]
enum ErrorGroup {
    All,
    One(ErrorMetric),
}

impl FromStr for ErrorGroup {
    type Err = Problem;

    fn from_str(text: &str) -> Result<ErrorGroup, Problem> {
        match text.trim() {
            t if t.eq_ignore_ascii_case("@all") => Ok(ErrorGroup::All),
            t if t.starts_with('@') => Err(problem!("unknown error metric group `{t}`; use @all")),
            t => t.parse().map(ErrorGroup::One),
        }
    }
}

/// Callgrind's events as metrics, each marked whether it is a rate.
fn events(all: Vec<EventKind>) -> Vec<(AnyMetric, bool)> {
    all.into_iter()
        .map(|e| (AnyMetric::Event(e), e.is_rate()))
        .collect()
}

/// The comma-separated items of `text`, each named in errors.
fn items(text: &str) -> Result<Vec<&str>, Problem> {
    let items: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    if items.is_empty() {
        return Err(Problem::new(
            "nothing given; write a metric's name or a @group",
        ));
    }
    Ok(items)
}

/// A list of metrics and groups, expanded, each metric once.
fn list<G: FromStr<Err = Problem>, M: PartialEq>(
    text: &str,
    expand: impl Fn(G) -> Vec<M>,
) -> Result<Vec<M>, Problem> {
    let mut out = Vec::new();
    for item in items(text)? {
        for metric in expand(item.parse()?) {
            if !out.contains(&metric) {
                out.push(metric);
            }
        }
    }
    Ok(out)
}

/// Limits of `KEY=LIMIT` items ([`crate::config::limits`], the grammar every tool's limits
/// share); `expand` gives a key's metrics, each marked whether it is a rate (which takes hard
/// limits with a fraction).
fn limits<G: FromStr<Err = Problem>>(
    text: &str,
    expand: impl Fn(G) -> Vec<(AnyMetric, bool)>,
) -> Result<RegressionConfig, Problem> {
    let mut config = RegressionConfig::default();
    for item in crate::config::limits::items(text)? {
        let metrics = expand(item.key.parse().map_err(|e: Problem| item.error(e))?);
        if let Some(pct) = item.soft {
            for &(metric, _) in &metrics {
                config.set_soft(metric, pct);
            }
        }
        let Some(hard) = item.hard else {
            continue;
        };
        if !hard.unit.is_empty() {
            return Err(item.error(format!(
                "`{}` is not a unit of Valgrind's metrics; write a bare number",
                hard.unit
            )));
        }
        for &(metric, rate) in &metrics {
            let limit = if rate {
                Limit::Float(hard.value)
            } else if hard.value.fract() == 0.0 {
                Limit::Int(hard.value as u64)
            } else {
                return Err(item.error(format!(
                    "`{}` has a fraction, but {} is a count; write a whole number",
                    hard.value,
                    name(metric)
                )));
            };
            config.set_hard(metric, limit);
        }
    }
    Ok(config)
}

fn name(metric: AnyMetric) -> &'static str {
    match metric {
        AnyMetric::Event(e) => e.name(),
        AnyMetric::Tool(t) => t.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_soft_hard_both_and_groups() {
        let c = callgrind_limits("ir=5%, @hits=10000, EstimatedCycles=-2%|900").unwrap();
        assert_eq!(
            c.limits,
            [(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, -2.0)]
        );
        assert_eq!(
            c.hard_limits,
            [
                (EventKind::L1hits, 10_000),
                (EventKind::LLhits, 10_000),
                (EventKind::RamHits, 10_000),
                (EventKind::EstimatedCycles, 900)
            ]
        );
        let c = callgrind_limits("@hitrates=99.5,i1missrate=1").unwrap();
        assert_eq!(c.float_hard_limits.len(), 4);
        let e = callgrind_limits("ir=1.5").unwrap_err();
        assert!(e.contains("`ir=1.5`") && e.contains("count"), "{e}");
        let e = callgrind_limits("ir=5%,nope=3").unwrap_err();
        assert!(e.starts_with("`nope=3`: unknown Callgrind metric"), "{e}");
        assert!(callgrind_limits("ir").unwrap_err().contains("KEY=N%"));
        assert!(callgrind_limits("ir=x%")
            .unwrap_err()
            .contains("percentage"));
        assert!(callgrind_limits("").is_err());
        let d = dhat_limits("@all=5%,tb=100").unwrap();
        assert_eq!(d.tool_limits.len(), 13);
        assert_eq!(d.tool_hard_limits, [(ToolMetric::TotalBytes, 100)]);
        assert!(cachegrind_limits("@ms=1%").is_ok());
    }

    #[test]
    fn metric_lists_in_order_each_once() {
        assert_eq!(
            callgrind_metrics("ir,@hits,l1hits,i1missrate").unwrap(),
            [
                EventKind::Ir,
                EventKind::L1hits,
                EventKind::LLhits,
                EventKind::RamHits,
                EventKind::I1MissRate
            ]
        );
        assert_eq!(
            dhat_metrics("wb,tb").unwrap(),
            [ToolMetric::WritesBytes, ToolMetric::TotalBytes]
        );
        assert_eq!(error_metrics("@all").unwrap().len(), 4);
        assert_eq!(error_metrics("ctx").unwrap(), [ToolMetric::ErrorContexts]);
        assert!(error_metrics("@x").is_err());
        assert!(cachegrind_metrics("@cachesim").unwrap().len() > 10);
    }
}
