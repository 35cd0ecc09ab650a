//! The JSON summary of one benchmark: the wire format that `--output-format=json` prints and
//! `--save-summary` writes, versioned, flat, with plain numbers. Its JSON Schema is committed as
//! `schemas/summary.v1.schema.json`; the domain types stay in [`crate::result`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::compare::{change, Change};
use crate::regression::Limit;
use crate::result::{BenchResult, Outcome};
use crate::tools::{self, ToolOutcome, ToolResult};

/// The version of this format; bumped on any incompatible change.
pub const VERSION: u32 = 1;

/// One benchmark's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Always [`VERSION`].
    pub version: u32,
    /// `file::group::function::id` (without `::id` when the bench has none).
    pub id: String,
    /// The package of the bench target.
    pub package: String,
    /// The bench target.
    pub file: String,
    /// The group.
    pub group: String,
    /// The benchmark function.
    pub function: String,
    /// The bench id, if any.
    pub bench_id: Option<String>,
    /// The arguments as written.
    pub args: String,
    /// The measured command line, for binary benchmarks.
    pub command: Option<String>,
    /// The Valgrind tool.
    pub tool: String,
    /// `ok`, `regressed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Where the new values come from: `run` or `baseline NAME`.
    pub new_source: String,
    /// What they are compared with: `previous run` or `baseline NAME`.
    pub old_source: String,
    /// Each metric by name (`Ir`, `L1hits`, `EstimatedCycles`, ...).
    pub metrics: BTreeMap<String, Metric>,
    /// The limits passed.
    pub regressions: Vec<WireRegression>,
    /// The files of the run.
    pub files: Files,
    /// Wall time of the Valgrind process in seconds.
    pub duration_secs: f64,
    /// The other tools' results by tool (`dhat`, `memcheck`, ...); absent when none ran.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, WireTool>,
}

/// One other tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTool {
    /// `ok`, `regressed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Each metric by name (`TotalBytes`, `Errors`, ...).
    pub metrics: BTreeMap<String, Metric>,
    /// The limits passed.
    pub regressions: Vec<WireRegression>,
    /// The tool's output file, if it writes one besides the log.
    pub out: Option<String>,
    /// The tool's log.
    pub log: String,
}

/// A metric's new and old value and their relation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// The new value.
    pub new: u64,
    /// The old value, absent without a previous run or baseline.
    pub old: Option<u64>,
    /// `(new - old) / old * 100`; absent without an old value or when it is zero.
    pub diff_pct: Option<f64>,
    /// `new / old` when it grew, `-(old / new)` when it shrank, `1` when equal; absent without
    /// an old value or when either is zero.
    pub factor: Option<f64>,
}

/// A limit that was passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRegression {
    /// The metric's name.
    pub metric: String,
    /// `relative` (a percentage of the old value) or `absolute` (a cap).
    pub kind: String,
    /// The limit: percent for `relative`, a count for `absolute`.
    pub limit: f64,
    /// The new value.
    pub new: u64,
    /// The old value.
    pub old: Option<u64>,
    /// The change in percent (for `relative`).
    pub diff_pct: Option<f64>,
}

/// Paths of the run's files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Files {
    /// The benchmark's directory.
    pub dir: String,
    /// The profile with the new values.
    pub profile: String,
    /// Valgrind's log, if a process ran.
    pub log: Option<String>,
    /// The flamegraph SVGs written by this run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flamegraphs: Vec<String>,
}

/// A metric's wire form.
fn metric(value: u64, old_value: Option<u64>) -> Metric {
    let (diff_pct, factor) = match change(value, old_value) {
        Change::NoOld => (None, None),
        Change::Same => (Some(0.0), Some(1.0)),
        Change::Diff { pct, factor } => (
            Some(pct).filter(|p| p.is_finite()),
            Some(factor).filter(|f| f.is_finite()),
        ),
    };
    Metric {
        new: value,
        old: old_value,
        diff_pct,
        factor,
    }
}

/// A limit's wire form.
fn regression(metric: &str, limit: Limit, new: u64, old: Option<u64>) -> WireRegression {
    let (kind, limit, diff_pct) = match limit {
        Limit::Relative {
            limit_pct,
            diff_pct,
        } => (
            "relative",
            limit_pct,
            Some(diff_pct).filter(|d| d.is_finite()),
        ),
        Limit::Absolute { cap } => ("absolute", cap as f64, None),
    };
    WireRegression {
        metric: metric.to_owned(),
        kind: kind.to_owned(),
        limit,
        new,
        old,
        diff_pct,
    }
}

fn wire_tool(result: &ToolResult) -> WireTool {
    let (status, error, old) = match &result.outcome {
        ToolOutcome::Failed { reason, .. } => ("failed", Some(reason.clone()), None),
        ToolOutcome::Ran { old, .. } if result.regressions.is_empty() => ("ok", None, old.as_ref()),
        ToolOutcome::Ran { old, .. } => ("regressed", None, old.as_ref()),
    };
    let metrics = tools::run::new_metrics(&result.outcome)
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
    WireTool {
        status: status.to_owned(),
        error,
        metrics,
        regressions: result
            .regressions
            .iter()
            .map(|r| regression(r.metric.name(), r.limit, r.new, r.old))
            .collect(),
        out: result.out.as_ref().map(|p| p.display().to_string()),
        log: result.log.display().to_string(),
    }
}

impl Summary {
    /// The summary of a result.
    pub fn from_result(result: &BenchResult) -> Summary {
        let id = &result.id;
        let (status, error, metrics) = match &result.outcome {
            Outcome::Failed { reason } => ("failed", Some(reason.clone()), BTreeMap::new()),
            Outcome::Measured { new, old } => {
                let metrics = new
                    .values
                    .iter()
                    .map(|&(kind, value)| {
                        let old_value = old.as_ref().and_then(|o| o.get(kind));
                        (kind.name().to_owned(), metric(value, old_value))
                    })
                    .collect();
                let (status, error) = match tools::run::failure(&result.tools) {
                    Some((reason, _)) => ("failed", Some(reason)),
                    None if result.regressed() => ("regressed", None),
                    None => ("ok", None),
                };
                (status, error, metrics)
            }
        };
        let regressions = result
            .regressions
            .iter()
            .map(|r| regression(r.metric.name(), r.limit, r.new, r.old))
            .collect();
        let tools = result
            .tools
            .iter()
            .map(|t| (t.tool.id().to_owned(), wire_tool(t)))
            .collect();
        Summary {
            version: VERSION,
            id: id.full(),
            package: result.package.to_owned(),
            file: id.file.to_owned(),
            group: id.group.to_owned(),
            function: id.function.to_owned(),
            bench_id: id.id.map(str::to_owned),
            args: id.args.to_owned(),
            command: None,
            tool: "callgrind".to_owned(),
            status: status.to_owned(),
            error,
            new_source: result.new_source.describe(),
            old_source: result.old_source.describe(),
            metrics,
            regressions,
            files: Files {
                dir: result.dir.display().to_string(),
                profile: result.profile.display().to_string(),
                log: result.log.as_ref().map(|l| l.display().to_string()),
                flamegraphs: result
                    .flamegraphs
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
            },
            duration_secs: result.duration.as_secs_f64(),
            tools,
        }
    }

    /// The summary as JSON, on one line or indented.
    pub fn to_json(&self, pretty: bool) -> String {
        let json = if pretty {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        json.expect("a summary holds only strings, finite numbers and maps")
    }
}
