//! The other tools' part of the summary (`tools`): their values, status and limits passed, and
//! back. Cachegrind's counts are Callgrind's metrics, by the same names (`Ir`, `L1hits`, ...).

use crate::config::{EventKind, ToolMetric, ValgrindTool};
use crate::error::Problem;
use crate::metrics::{Metrics, ToolMetrics};
use crate::problem;
use crate::result::{EventValues, ToolOutcome, ToolResult};

use super::wire::{metric, read_regressions, read_values, regression, wire_metrics, WireTool};

/// A tool's result in wire form.
pub(super) fn wire_tool(result: &ToolResult) -> WireTool {
    let regressed = result.regressed();
    let (status, error, old) = match &result.outcome {
        ToolOutcome::Failed { reason, .. } => ("failed", Some(reason.clone()), None),
        ToolOutcome::Ran { old, .. } if !regressed => ("ok", None, old.as_ref()),
        ToolOutcome::Ran { old, .. } => ("regressed", None, old.as_ref()),
    };
    let mut metrics: std::collections::BTreeMap<_, _> =
        crate::result::tool_metrics(&result.outcome)
            .map(|new| {
                new.values
                    .iter()
                    .map(|&(m, v)| {
                        let old_value = old.and_then(|o| o.get(m));
                        (m.name().to_owned(), metric(v, old_value))
                    })
                    .collect()
            })
            .unwrap_or_default();
    let mut regressions: Vec<_> = (result.regressions.iter())
        .map(|r| regression(r.metric.name(), r.limit, r.new, r.old))
        .collect();
    if let Some(events) = &result.events {
        metrics.extend(wire_metrics(&events.new, events.old.as_ref()));
        let passed = events.regressions.iter();
        regressions.extend(passed.map(|r| regression(r.metric.name(), r.limit, r.new, r.old)));
    }
    WireTool {
        status: status.to_owned(),
        error,
        metrics,
        regressions,
        out: result.out.as_ref().map(|p| p.display().to_string()),
        log: result.log.display().to_string(),
    }
}

impl WireTool {
    /// The tool result this wire form describes (see [`super::Summary::to_result`]).
    pub(super) fn to_result(&self, name: &str, id: &str) -> Result<ToolResult, Problem> {
        let tool = ValgrindTool::from_name(name)
            .ok_or_else(|| problem!("unknown tool `{name}` in the summary of {id}"))?;
        let unknown =
            |name: &str| problem!("unknown {tool:?} metric `{name}` in the summary of {id}");
        let mut events = None;
        let (new, old, regressions) = if tool == ValgrindTool::Cachegrind {
            let metric = |name: &str| EventKind::from_name(name).ok_or_else(|| unknown(name));
            let (new, old) = read_values(&self.metrics, metric)?;
            events = Some(EventValues {
                new: Metrics { values: new },
                old: (!old.is_empty()).then_some(Metrics { values: old }),
                regressions: read_regressions(&self.regressions, metric)?,
            });
            (Vec::new(), Vec::new(), Vec::new())
        } else {
            let metric = |name: &str| ToolMetric::from_name(name).ok_or_else(|| unknown(name));
            let (new, old) = read_values(&self.metrics, metric)?;
            (new, old, read_regressions(&self.regressions, metric)?)
        };
        let new = ToolMetrics { values: new };
        let outcome = match &self.status[..] {
            "failed" => ToolOutcome::Failed {
                reason: self.error.clone().unwrap_or_else(|| "failed".into()),
                new: (!new.values.is_empty()).then_some(new),
            },
            _ => ToolOutcome::Ran {
                new,
                old: (!old.is_empty()).then_some(ToolMetrics { values: old }),
            },
        };
        Ok(ToolResult {
            tool,
            outcome,
            regressions,
            out: self.out.clone().map(Into::into),
            log: self.log.clone().into(),
            events,
        })
    }
}
