//! `--output-format=gungraun-json`: each benchmark's summary in the format gungraun 0.20 writes
//! (its summary version 7), one per line, so that tools reading gungraun's results read
//! benchgrind's. Built from benchgrind's own summary: a profile per tool (`Callgrind`, `DHAT`,
//! `Memcheck`, ...), each with its parts (a process's thread, when the counts were kept per
//! thread; else the whole run as one part) and its total with the regressions found. Metric
//! names are gungraun's (`Ir`, `AtTGmaxBytes`, `Contexts`); a change is written as its percentage
//! and factor in text, as gungraun does. A failed benchmark, for which gungraun writes no
//! summary, is left out.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use super::summary::{Metric, Summary, WireRate, WireRegression};
use crate::result::BenchResult;

/// The summary version gungraun 0.20 writes.
pub const VERSION: &str = "7";

/// Prints each benchmark's summary in gungraun's format, one per line.
pub struct GungraunJson {
    /// The executable and directory, looked up once; the time is each benchmark's own.
    context: Context,
}

impl Default for GungraunJson {
    fn default() -> GungraunJson {
        GungraunJson {
            context: Context::of_this_process(),
        }
    }
}

impl Reporter for GungraunJson {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        write_output(out, &result.output, true)?;
        self.context.now = SystemTime::now();
        match to_gungraun(&Summary::from_result(result), &self.context) {
            Some(document) => writeln!(out, "{document}"),
            None => Ok(()),
        }
    }

    fn finish(&mut self, _out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        write_tally(&mut io::stderr(), summary)
    }
}

/// What gungraun's summary holds that benchgrind's does not: where the benchmark ran from.
#[derive(Debug, Clone)]
pub struct Context {
    /// The bench executable.
    pub exe: String,
    /// The package's directory (where cargo starts bench executables).
    pub package_dir: String,
    /// When the summary was written.
    pub now: SystemTime,
}

impl Context {
    /// The running bench executable's, in its working directory, now.
    pub fn of_this_process() -> Context {
        let text = |p: io::Result<std::path::PathBuf>| {
            p.map(|p| p.display().to_string()).unwrap_or_default()
        };
        Context {
            exe: text(std::env::current_exe()),
            package_dir: text(std::env::current_dir()),
            now: SystemTime::now(),
        }
    }
}

/// gungraun's name of a metric benchgrind names `name`, for a tool (`None`: gungraun has none).
fn metric_name(tool: &str, name: &str) -> Option<String> {
    let renamed = match (tool, name) {
        ("dhat", "PeakBytes") => "AtTGmaxBytes",
        ("dhat", "PeakBlocks") => "AtTGmaxBlocks",
        (_, "ErrorContexts") => "Contexts",
        ("massif", _) => return None,
        _ => name,
    };
    Some(renamed.to_owned())
}

/// gungraun's name of a tool: its title, as benchgrind shows it.
fn tool_name(tool: &str) -> String {
    crate::config::ValgrindTool::from_name(tool)
        .map_or_else(|| tool.to_owned(), |t| t.title().to_owned())
}

/// A number as gungraun writes a change: in text, `inf` for a rise from zero.
fn number_text(value: f64) -> String {
    format!("{value}")
}

fn metric(metric: &Metric) -> Value {
    let mut values = Map::new();
    values.insert("new".into(), json!(metric.new));
    if let Some(old) = metric.old {
        values.insert("old".into(), json!(old));
    }
    let change = match (metric.old, metric.diff_pct) {
        (Some(old), Some(diff)) => {
            // gungraun's factor is new / old (benchgrind's is signed, -2 for halved).
            let ratio = if old == 0 {
                if metric.new == 0 {
                    1.0
                } else {
                    f64::INFINITY
                }
            } else {
                metric.new as f64 / old as f64
            };
            json!({ "diff_pct": number_text(diff), "factor": number_text(ratio) })
        }
        (Some(old), _) if old == metric.new => json!({ "diff_pct": "0", "factor": "1" }),
        (Some(0), _) => json!({ "diff_pct": "inf", "factor": "inf" }),
        _ => Value::Null,
    };
    json!({ "change": change, "values": values })
}

fn metrics(tool: &str, all: &BTreeMap<String, Metric>) -> Map<String, Value> {
    all.iter()
        .filter_map(|(name, m)| metric_name(tool, name).map(|n| (n, metric(m))))
        .collect()
}

/// A value as gungraun writes a metric: an integer when it is whole, else a float.
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value >= 0.0 && value < u64::MAX as f64 {
        json!(value as u64)
    } else {
        json!(value)
    }
}

/// A rate (a percentage, a float in gungraun's summaries).
fn rate(rate: &WireRate) -> Value {
    let mut values = Map::new();
    values.insert("new".into(), json!(rate.new));
    if let Some(old) = rate.old {
        values.insert("old".into(), json!(old));
    }
    let change = match (rate.old, rate.diff_pct) {
        (Some(old), Some(diff)) if old != 0.0 => {
            json!({ "diff_pct": number_text(diff), "factor": number_text(rate.new / old) })
        }
        (Some(old), _) if old == rate.new => json!({ "diff_pct": "0", "factor": "1" }),
        (Some(_), _) => json!({ "diff_pct": "inf", "factor": "inf" }),
        _ => Value::Null,
    };
    json!({ "change": change, "values": values })
}

fn regression(tool: &str, r: &WireRegression) -> Option<Value> {
    let name = metric_name(tool, &r.metric)?;
    let kind = json!({ tool_name(tool): name });
    Some(if r.kind == "absolute" {
        json!({ "Hard": {
            "metric": kind,
            "new": number(r.new),
            "diff": number((r.new - r.limit).max(0.0)),
            "limit": number(r.limit),
        }})
    } else {
        json!({ "Soft": {
            "metric": kind,
            "new": number(r.new),
            "old": number(r.old.unwrap_or(0.0)),
            "diff_pct": number_text(r.diff_pct.unwrap_or(0.0)),
            "limit": number_text(r.limit),
        }})
    })
}

fn profile(
    tool: &str,
    parts: Vec<Value>,
    total: Map<String, Value>,
    regressions: Vec<Value>,
    duration_ns: u64,
    started_at: &str,
) -> Value {
    json!({
        "tool": tool_name(tool),
        "duration_ns": duration_ns,
        "process_ns": duration_ns,
        "started_at": started_at,
        "data": {
            "parts": parts,
            "total": { "metrics": total, "regressions": regressions },
        },
    })
}

/// One part: a thread of a process, or the whole run.
fn part(command: &str, pid: u32, part: usize, thread: u32, metrics: Map<String, Value>) -> Value {
    let run = json!({ "command": command, "pid": pid, "part": part, "thread": thread });
    json!({ "metrics": metrics, "tool_run": { "new": run } })
}

/// The summary in gungraun's format, or `None` for a benchmark that failed.
pub fn to_gungraun(summary: &Summary, context: &Context) -> Option<Value> {
    if summary.status == "failed" || summary.metrics.is_empty() {
        return None;
    }
    let duration = Duration::from_secs_f64(summary.duration_secs.max(0.0));
    let duration_ns = u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
    let started_at = rfc3339(context.now.checked_sub(duration).unwrap_or(context.now));
    let command = summary
        .command
        .clone()
        .unwrap_or_else(|| context.exe.clone());

    let mut total = metrics("callgrind", &summary.metrics);
    for (name, r) in &summary.rates {
        total.insert(name.clone(), rate(r));
    }
    let parts = if summary.parts.is_empty() {
        vec![part(&command, 0, 1, 1, total.clone())]
    } else {
        summary
            .parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let m = metrics("callgrind", &p.metrics);
                part(&p.command, p.pid, i + 1, p.thread, m)
            })
            .collect()
    };
    let regressions = summary
        .regressions
        .iter()
        .filter_map(|r| regression("callgrind", r))
        .collect();
    let mut profiles = vec![profile(
        "callgrind",
        parts,
        total,
        regressions,
        duration_ns,
        &started_at,
    )];
    for (tool, result) in &summary.tools {
        let total = metrics(tool, &result.metrics);
        let regressions = result
            .regressions
            .iter()
            .filter_map(|r| regression(tool, r))
            .collect();
        let parts = vec![part(&command, 0, 1, 1, total.clone())];
        profiles.push(profile(
            tool,
            parts,
            total,
            regressions,
            duration_ns,
            &started_at,
        ));
    }

    let baseline = |source: &str| {
        source
            .strip_prefix("baseline ")
            .map_or(Value::Null, |name| json!(name))
    };
    let module_path = format!("{}::{}::{}", summary.file, summary.group, summary.function);
    let kind = if summary.command.is_some() {
        "BinaryBenchmark"
    } else {
        "LibraryBenchmark"
    };
    Some(json!({
        "version": VERSION,
        "kind": kind,
        "project_root": context.package_dir,
        "package_dir": context.package_dir,
        "benchmark_file": summary.file,
        "benchmark_exe": context.exe,
        "function_name": summary.function,
        "module_path": module_path,
        "id": summary.bench_id,
        "details": if summary.args.is_empty() { Value::Null } else { json!(summary.args) },
        "group": summary.group,
        "output_dir": summary.files.dir,
        "baselines": [baseline(&summary.new_source), baseline(&summary.old_source)],
        "started_at": started_at,
        "duration_ns": duration_ns,
        "profiles": profiles,
    }))
}

/// `2026-11-26T16:02:04.121680298Z`: [`crate::dates::utc_date`] with the nanoseconds.
fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let date = crate::dates::utc_date(since.as_secs());
    let seconds = date.trim_end_matches('Z');
    format!("{seconds}.{:09}Z", since.subsec_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_rfc3339_in_utc() {
        let at = UNIX_EPOCH + Duration::new(1_795_708_924, 121_680_298);
        assert_eq!(rfc3339(at), "2026-11-26T16:02:04.121680298Z");
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000000000Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(leap), "2000-02-29T00:00:00.000000000Z");
    }

    #[test]
    fn a_summary_becomes_one_profile_per_tool_with_gungrauns_names() {
        let summaries = crate::report::gbench::json::tests::summaries();
        let context = Context {
            exe: "bench".into(),
            package_dir: "/p".into(),
            now: UNIX_EPOCH,
        };
        let ok = summaries.iter().find(|s| s.status != "failed").unwrap();
        let document = to_gungraun(ok, &context).unwrap();
        assert_eq!(document["version"], "7");
        assert_eq!(document["profiles"][0]["tool"], "Callgrind");
        let ir = &document["profiles"][0]["data"]["total"]["metrics"]["Ir"];
        assert_eq!(ir["values"]["new"], json!(ok.metrics["Ir"].new));
        let failed = summaries.iter().find(|s| s.status == "failed").unwrap();
        assert!(to_gungraun(failed, &context).is_none());
    }
}
