//! The JSON summary of one benchmark: the wire format that `--output-format=json` prints and
//! `--save-summary` writes, versioned, flat, with plain numbers. Its JSON Schema is committed as
//! `schemas/summary.v7.schema.json` (version 7 adds `perf`, Linux perf's statistics per metric;
//! version 6 added `layout_only`, a change of layout alone, and
//! `layout_spread`, how far shifted layouts move the metrics; version 5 added `reused`, when the results of a benchmark
//! not run because its inputs were unchanged were measured; version 4 added `uncompared`, why a benchmark had no baseline
//! of its own machine and revision, `old_fingerprint`, and the revision and benchgrind version
//! in fingerprints; version 3 added `parts`, the counts per thread and process;
//! version 2 added `explanation`, the attribution of the change to functions; the schemas of
//! versions 1 and 2 stay for older files, which read as version 3 without those). The domain
//! types stay in [`crate::result`].

use crate::error::Problem;
use crate::fingerprint::{Difference, Fingerprint};
use crate::problem;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::explain::wire::WireExplanation;
use crate::result::{BenchResult, Outcome};

mod layout;
mod rates;
mod tool;
mod wire;
pub use layout::{WireLayoutOnly, WireRange, WireSpread};
pub use rates::WireRate;
use tool::wire_tool;
use wire::{read_regressions, read_values, regression, wire_metrics};
pub use wire::{Metric, WireRegression, WireTool};

/// The version of this format that this benchgrind writes; bumped on any change of shape.
pub const VERSION: u32 = 7;

/// The oldest version this benchgrind reads: every version from it to [`VERSION`] reads into
/// [`Summary`] (the fields a version lacks are absent).
pub const OLDEST_VERSION: u32 = 1;

/// Whether a summary of `version` can be read; if not, why, naming `what` (a file, `file:line`
/// or a benchmark id) and what to do.
pub fn check_version(version: Option<u64>, what: &str) -> Result<(), Problem> {
    match version {
        Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => Ok(()),
        Some(v) if v > u64::from(VERSION) => Err(problem!(
            "{what}: summary version {v} is newer than this benchgrind understands (it reads \
             versions {OLDEST_VERSION} to {VERSION}); update benchgrind to read it"
        )),
        Some(v) => Err(problem!(
            "{what}: summary version {v} is not a version benchgrind wrote (it reads versions \
             {OLDEST_VERSION} to {VERSION})"
        )),
        None => Err(problem!(
            "{what}: no summary version (expected a whole number `version`, {OLDEST_VERSION} to \
             {VERSION})"
        )),
    }
}

/// One benchmark's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// [`VERSION`] when written; from [`OLDEST_VERSION`] on when read.
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
    /// The rates in percent (`I1MissRate`, `L1HitRate`, ...) when the cache simulation ran;
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rates: BTreeMap<String, WireRate>,
    /// The limits passed.
    pub regressions: Vec<WireRegression>,
    /// The files of the run.
    pub files: Files,
    /// Wall time of the Valgrind process in seconds.
    pub duration_secs: f64,
    /// The other tools' results by tool (`dhat`, `memcheck`, ...); absent when none ran.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, WireTool>,
    /// The machine that produced the new values; absent when not known (older summaries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
    /// The machine and revision of the old values (version 4), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_fingerprint: Option<Fingerprint>,
    /// Why the benchmark was not compared with a baseline of its own machine and revision
    /// (version 4): absent when it was, or when no baseline was named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncompared: Option<String>,
    /// When the results were measured, for a benchmark not run because every input in its
    /// record was unchanged (version 5); absent when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused: Option<String>,
    /// The fields in which the machine of the old values differs; absent when none does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machine_differences: Vec<WireDifference>,
    /// What looks wrong although the benchmark ran; absent when nothing does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Why the Callgrind counts changed (version 2): every changed function, ranked; absent on a
    /// first run, when they did not change, or with `--explain=never`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<WireExplanation>,
    /// The counts of each thread of each process (version 3), with `separate_threads`; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<WirePart>,
    /// The change from the old values is one of layout alone: the same executed code, other
    /// addresses (version 6); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_only: Option<WireLayoutOnly>,
    /// How far shifted layouts move the metrics that follow layout (version 6, with
    /// `--layout-spread`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_spread: Option<WireSpread>,
    /// Linux perf's statistics (version 7), where perf sampled the benchmark; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perf: Option<WirePerf>,
}

/// Linux perf's statistics of a benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WirePerf {
    /// The significance level of the t-test.
    pub alpha: f64,
    /// What separate runs differ by, in percent of the mean, in the t-test.
    pub noise_pct: f64,
    /// Per metric (perf's names), in the order counted.
    pub metrics: Vec<WirePerfMetric>,
    /// The limits passed and the verdicts that fail, in words.
    pub regressions: Vec<String>,
    /// What the machine or the samples changed.
    pub notes: Vec<String>,
    /// Why perf gave nothing, if it did.
    pub error: Option<String>,
    /// The rounds in which base and head were sampled in turns and compared round by round
    /// (`benchgrind ab`); absent where a run was compared with one taken at another time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired_rounds: Option<usize>,
}

/// One perf metric: the new and old samples' mean, standard deviation and number, and the
/// change's significance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WirePerfMetric {
    /// perf's name (`task-clock`, `instructions:u`).
    pub name: String,
    /// `ns` for times, `count` for the others.
    pub unit: String,
    /// The new samples.
    pub new: WireStats,
    /// Those compared with, if any.
    pub old: Option<WireStats>,
    /// The change of the mean in percent, if compared (in turns: of the mean per-round ratio
    /// head/base).
    pub change_pct: Option<f64>,
    /// Welch's two-sided p-value, if compared.
    pub p_value: Option<f64>,
    /// Whether the change is significant (p below alpha).
    pub significant: bool,
    /// The interval of the change at confidence 1 - alpha, in percent: `[low, high]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_pct: Option<[f64; 2]>,
    /// The margin of the verdict, in percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_pct: Option<f64>,
    /// `faster`, `slower`, `unchanged` or `inconclusive`, where compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The new side's round means.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_rounds: Vec<f64>,
    /// The old side's round means.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old_rounds: Vec<f64>,
}

/// Mean, standard deviation and number of samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WireStats {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation.
    pub sd: f64,
    /// The number of samples.
    pub n: usize,
}

fn wire_perf(perf: &crate::result::PerfResult) -> WirePerf {
    WirePerf::of(perf)
}

impl WirePerf {
    /// The wire form of perf's statistics.
    pub fn of(perf: &crate::result::PerfResult) -> WirePerf {
        let stats = |s: &crate::perf::stats::Summary| WireStats {
            mean: s.mean,
            sd: s.sd,
            n: s.n,
        };
        WirePerf {
            alpha: perf.alpha,
            noise_pct: perf.noise_pct,
            metrics: perf
                .metrics
                .iter()
                .map(|m| WirePerfMetric {
                    name: m.name.clone(),
                    unit: if m.time { "ns" } else { "count" }.to_owned(),
                    new: stats(&m.new),
                    old: m.old.as_ref().map(stats),
                    // In turns, the estimate is the mean per-round ratio's, as the interval's.
                    change_pct: match (perf.paired_rounds, m.interval) {
                        (Some(_), Some(i)) => Some(i.pct),
                        _ => m.change_pct(),
                    }
                    .filter(|c| c.is_finite()),
                    p_value: m.p_value,
                    significant: m.significant,
                    // JSON has no infinity: an unbounded interval is left out (its verdict stays).
                    interval_pct: (m.interval)
                        .filter(|i| i.low.is_finite() && i.high.is_finite())
                        .map(|i| [i.low, i.high]),
                    margin_pct: m.verdict.map(|_| m.margin_pct),
                    verdict: m.verdict.map(|v| v.name().to_owned()),
                    new_rounds: m.new_rounds.clone(),
                    old_rounds: m.old_rounds.clone(),
                })
                .collect(),
            regressions: perf.regressions.iter().map(ToString::to_string).collect(),
            notes: perf.notes.clone(),
            error: perf.failed.clone(),
            paired_rounds: perf.paired_rounds,
        }
    }
}

impl WirePerf {
    /// The statistics as the reports take them; `id` names the benchmark in errors.
    pub fn to_result(&self, id: &str) -> Result<crate::result::PerfResult, Problem> {
        use crate::compare::perf::{Interval, PerfRegression, Verdict};
        use crate::perf::stats::Summary;
        let summary = |s: &WireStats| Summary {
            mean: s.mean,
            sd: s.sd,
            n: s.n,
        };
        let metrics = self
            .metrics
            .iter()
            .map(|m| {
                let verdict = (m.verdict.as_deref())
                    .map(str::parse::<Verdict>)
                    .transpose()
                    .map_err(|e| problem!("{id}: perf metric {}: {e}", m.name))?;
                Ok(crate::result::PerfMetricResult {
                    name: m.name.clone(),
                    time: m.unit == "ns",
                    new: summary(&m.new),
                    old: m.old.as_ref().map(summary),
                    p_value: m.p_value,
                    significant: m.significant,
                    interval: m.interval_pct.map(|[low, high]| Interval {
                        pct: m.change_pct.unwrap_or((low + high) / 2.0),
                        low,
                        high,
                    }),
                    margin_pct: m
                        .margin_pct
                        .unwrap_or(crate::config::perf::DEFAULT_MARGIN_PCT),
                    verdict,
                    new_rounds: m.new_rounds.clone(),
                    old_rounds: m.old_rounds.clone(),
                })
            })
            .collect::<Result<Vec<_>, Problem>>()?;
        Ok(crate::result::PerfResult {
            metrics,
            regressions: (self.regressions.iter())
                .map(|r| PerfRegression::Recorded(r.clone()))
                .collect(),
            notes: self.notes.clone(),
            failed: self.error.clone(),
            alpha: self.alpha,
            noise_pct: self.noise_pct,
            file: std::path::PathBuf::new(),
            paired_rounds: self.paired_rounds,
        })
    }
}

/// One thread's counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WirePart {
    /// The process, numbered in the order they appear (1 is the measured process).
    pub process: usize,
    /// Its pid in this run.
    pub pid: u32,
    /// Valgrind's number of the thread in its process (1 is the first).
    pub thread: u32,
    /// The process's command line.
    pub command: String,
    /// Each metric by name, as the benchmark's.
    pub metrics: BTreeMap<String, Metric>,
}

/// A fingerprint field that differs between the machines of the new and the old values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireDifference {
    /// The field, as in [`Fingerprint`]'s JSON.
    pub field: String,
    /// Its value on the side compared with.
    pub old: String,
    /// Its value now.
    pub new: String,
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

impl Summary {
    /// The summary of a result.
    pub fn from_result(result: &BenchResult) -> Summary {
        let id = &result.id;
        let rates = match &result.outcome {
            Outcome::Measured { new, old } => rates::wire_rates(new, old.as_ref()),
            Outcome::Failed { .. } => BTreeMap::new(),
        };
        let (status, error, metrics) = match &result.outcome {
            Outcome::Failed { reason } => ("failed", Some(reason.clone()), BTreeMap::new()),
            Outcome::Measured { new, old } => {
                let metrics = wire_metrics(new, old.as_ref());
                let (status, error) = match crate::result::other_failure(result) {
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
            package: result.package.clone(),
            file: id.file.clone(),
            group: id.group.clone(),
            function: id.function.clone(),
            bench_id: id.case.clone(),
            args: id.args.clone(),
            command: result.command.clone(),
            tool: result.tool.id().to_owned(),
            status: status.to_owned(),
            error,
            new_source: result.new_source.describe(),
            old_source: result.old_source.describe(),
            metrics,
            rates,
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
            fingerprint: result.fingerprint.clone(),
            old_fingerprint: result.old_fingerprint.clone(),
            uncompared: result.uncompared.clone(),
            reused: result.reuse.reused().map(|at| at.to_string()),
            machine_differences: result
                .machine
                .iter()
                .map(|d| WireDifference {
                    field: d.field.to_owned(),
                    old: d.old.clone(),
                    new: d.new.clone(),
                })
                .collect(),
            warnings: result.warnings.clone(),
            explanation: result.explained.as_ref().map(|x| x.explanation.to_wire()),
            parts: result
                .parts
                .iter()
                .map(|part| WirePart {
                    process: part.process,
                    pid: part.pid,
                    thread: part.thread,
                    command: part.command.clone(),
                    metrics: wire_metrics(&part.new, part.old.as_ref()),
                })
                .collect(),
            layout_only: result.layout_only.as_ref().map(layout::wire_layout_only),
            layout_spread: result.spread.as_ref().map(|spread| {
                let old = match &result.outcome {
                    Outcome::Measured { old: Some(old), .. } => Some(old),
                    _ => None,
                };
                layout::wire_spread(spread, |k| old.and_then(|o| o.get(k)))
            }),
            perf: result.perf.as_ref().map(wire_perf),
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

impl Summary {
    /// The result this summary describes, for reporting summaries read back from files (as
    /// `benchgrind merge` does); fails on a version or metric it does not know.
    pub fn to_result(&self) -> Result<crate::result::BenchResult, Problem> {
        use crate::config::EventKind;
        use crate::metrics::Metrics;
        use crate::plan::BenchId;
        use crate::result::{BenchResult, Outcome, Source};

        check_version(Some(u64::from(self.version)), &self.id)?;
        let metric = |name: &str| {
            EventKind::from_name(name)
                .ok_or_else(|| problem!("unknown metric `{name}` in the summary of {}", self.id))
        };
        let source = |text: &str| match text {
            "run" => Source::Run,
            "previous run" => Source::PreviousRun,
            other => Source::Baseline(other.strip_prefix("baseline ").unwrap_or(other).to_owned()),
        };
        let outcome = match (&self.status[..], &self.error) {
            ("failed", error) => Outcome::Failed {
                reason: error.clone().unwrap_or_else(|| "failed".into()),
            },
            _ => {
                let (mut new, mut old) = read_values(&self.metrics, metric)?;
                // Report order, whatever order the file had.
                new.sort_by_key(|(k, _)| EventKind::ALL.iter().position(|a| a == k));
                old.sort_by_key(|(k, _)| EventKind::ALL.iter().position(|a| a == k));
                Outcome::Measured {
                    new: Metrics { values: new },
                    old: (!old.is_empty()).then_some(Metrics { values: old }),
                }
            }
        };
        let regressions = read_regressions(&self.regressions, metric)?;
        Ok(BenchResult {
            package: self.package.clone(),
            id: BenchId {
                file: self.file.clone(),
                group: self.group.clone(),
                function: self.function.clone(),
                case: self.bench_id.clone(),
                args: self.args.clone(),
                truncate: None,
            },
            command: self.command.clone(),
            outcome,
            tool: crate::config::ValgrindTool::from_name(&self.tool)
                .unwrap_or(crate::config::ValgrindTool::Callgrind),
            new_source: source(&self.new_source),
            old_source: source(&self.old_source),
            regressions,
            comparisons: Vec::new(),
            output: Default::default(),
            dir: self.files.dir.clone().into(),
            profile: self.files.profile.clone().into(),
            log: self.files.log.clone().map(Into::into),
            // Any number a file holds: negative or NaN is 0, past `Duration::MAX` the maximum.
            duration: std::time::Duration::try_from_secs_f64(self.duration_secs.max(0.0))
                .unwrap_or(std::time::Duration::MAX),
            tools: self
                .tools
                .iter()
                .map(|(name, wire)| wire.to_result(name, &self.id))
                .collect::<Result<Vec<_>, Problem>>()?,
            flamegraphs: Vec::new(),
            fingerprint: self.fingerprint.clone(),
            old_fingerprint: self.old_fingerprint.clone(),
            uncompared: self.uncompared.clone(),
            reuse: match &self.reused {
                Some(at) => crate::execute::reuse::Verdict::Reuse(
                    at.parse()
                        .map_err(|e| problem!("{}: `reused`: {e}", self.id))?,
                ),
                None => crate::execute::reuse::Verdict::Measure,
            },
            machine: self.machine(),
            warnings: self.warnings.clone(),
            explained: self.explained(),
            parts: self
                .parts
                .iter()
                .map(|part| {
                    let (new, old) = read_values(&part.metrics, metric)?;
                    Ok(crate::result::PartResult {
                        process: part.process,
                        pid: part.pid,
                        thread: part.thread,
                        command: part.command.clone(),
                        new: Metrics { values: new },
                        old: (!old.is_empty()).then_some(Metrics { values: old }),
                    })
                })
                .collect::<Result<_, Problem>>()?,
            layout_only: (self.layout_only.as_ref())
                .map(|l| l.to_layout_only(&self.id))
                .transpose()?,
            spread: (self.layout_spread.as_ref())
                .map(|s| s.to_spread(&self.id))
                .transpose()?,
            view: Default::default(),
            perf: (self.perf.as_ref())
                .map(|p| p.to_result(&self.id))
                .transpose()?,
        })
    }

    /// The machine differences as recorded.
    fn machine(&self) -> Vec<Difference> {
        self.machine_differences
            .iter()
            .map(|d| Difference {
                field: crate::fingerprint::field_name(&d.field),
                old: d.old.clone(),
                new: d.new.clone(),
            })
            .collect()
    }

    /// The recorded explanation. Markdown and JSON show every explanation; the terminal only
    /// those of benchmarks past a limit (the run's `--explain` threshold is not recorded).
    fn explained(&self) -> Option<crate::result::Explained> {
        self.explanation
            .as_ref()
            .and_then(WireExplanation::to_explanation)
            .map(|explanation| crate::result::Explained {
                explanation,
                shown: !self.regressions.is_empty(),
            })
    }
}

#[cfg(test)]
mod tests;
