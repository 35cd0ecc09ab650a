//! `benchgrind report`, stage 1: what the inputs hold, as one [`Bench`] per benchmark.
//!
//! An input is a benchgrind home (`target/benchgrind`: summaries, history, profiles,
//! baselines), any directory below one or a copy of one (a CI partition's), or a file of
//! summaries one per line (`--output-format=json`, or `benchgrind merge --output-format=json`).
//! Per benchmark the newest values come from its `summary.json` when that is the last run's,
//! else from the newest history record, else from its current Callgrind profile; its history
//! from the records of every input's `history/`; its baselines from the `baseline.NAME.
//! callgrind.out` files next to it, read with the bench binary's own parser.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{bail, Context, Result};
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Read};
use benchgrind_runner::report::history::{self, Entry};
use benchgrind_runner::report::summary::{check_version, Summary};
use serde::Deserialize;
use serde_json::Value;

/// Metric values by name.
pub type Values = BTreeMap<String, u64>;

/// One run of a benchmark in the history.
#[derive(Debug, Clone)]
pub struct Point {
    /// When the run ended (ms since the epoch).
    pub unix_ms: u64,
    /// The same, for people.
    pub date: String,
    /// The git commit, if recorded.
    pub commit: Option<String>,
    /// The benchmark's values then.
    pub entry: Entry,
}

/// Everything known about one benchmark.
#[derive(Debug, Clone, Default)]
pub struct Bench {
    /// `file::group::function::id`.
    pub id: String,
    /// The package of its bench target.
    pub package: String,
    /// `ok`, `regressed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Its directory, if found: flamegraphs and baselines are there.
    pub dir: Option<PathBuf>,
    /// Its last run's summary, when that is the newest data.
    pub summary: Option<Summary>,
    /// The same summary as read, for fields this version does not know (the attribution hook).
    pub raw: Option<Value>,
    /// The newest values.
    pub current: Values,
    /// The run before's values.
    pub previous: Values,
    /// The baseline compared with: its name and values.
    pub baseline: Option<(String, Values)>,
    /// Every saved baseline's values, by name.
    pub baselines: BTreeMap<String, Values>,
    /// The other tools' newest values: tool -> metric -> (new, old).
    pub tools: BTreeMap<String, BTreeMap<String, (u64, Option<u64>)>>,
    /// The history, oldest first.
    pub history: Vec<Point>,
}

/// The summaries read, by `(package, id)`: the summary, as read, its benchmark's directory and
/// where it was read (for errors).
type Found = BTreeMap<(String, String), (Summary, Value, PathBuf, String)>;

/// What the inputs hold.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The benchmarks, by `(package, id)`.
    pub benches: BTreeMap<(String, String), Bench>,
    /// How many history records were read.
    pub records: usize,
    /// Things skipped, for a warning each.
    pub warnings: Vec<String>,
}

/// Reads every input; `baseline` names the baseline to compare with (default: the one the run
/// compared with, else `default`, else the first by name).
pub fn load(inputs: &[PathBuf], baseline: Option<&str>) -> Result<Loaded> {
    let mut loaded = Loaded::default();
    let mut summaries: Found = BTreeMap::new();
    let mut points: Vec<(String, String, Point, PathBuf)> = Vec::new();
    let mut dirs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, input, &mut summaries, &mut dirs)?;
            read_history(input, &mut points, &mut loaded)?;
        } else if input.is_file() {
            read_lines(input, &mut summaries)?;
        } else {
            bail!(
                "{} does not exist; pass a benchgrind home (target/benchgrind), a directory \
                 of summaries or a file of summaries",
                input.display()
            );
        }
    }
    points.sort_by_key(|p| p.2.unix_ms);
    for (package, id, point, root) in points {
        let bench = loaded
            .benches
            .entry((package.clone(), id.clone()))
            .or_default();
        bench.dir.get_or_insert_with(|| root.join(&point.entry.dir));
        bench.history.push(point);
    }
    for ((package, id), (summary, raw, dir, _)) in summaries {
        let bench = loaded.benches.entry((package, id)).or_default();
        bench.dir = Some(dir.clone());
        if stale(&summary, &dir, bench.history.last()) {
            loaded.warnings.push(format!(
                "{}: summary.json is older than the history; showing the history's newest run",
                summary.id
            ));
            continue;
        }
        bench.raw = Some(raw);
        bench.summary = Some(summary);
    }
    for (root, dir) in dirs {
        add_profile_only(&mut loaded, &root, &dir);
    }
    for ((package, id), bench) in &mut loaded.benches {
        bench.package.clone_from(package);
        bench.id.clone_from(id);
        resolve(bench, baseline, &mut loaded.warnings);
    }
    if loaded.benches.is_empty() {
        bail!(
            "no benchmark results in {}: run benchmarks first (`cargo bench`), or pass the home \
             they wrote (--home) or summaries (--save-summary)",
            inputs
                .iter()
                .map(|i| i.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(loaded)
}

/// Whether the summary is an older run's than the history's newest point: written before it
/// and with other values (a later run without `--save-summary`).
fn stale(summary: &Summary, dir: &Path, last: Option<&Point>) -> bool {
    let Some(last) = last else { return false };
    let written = std::fs::metadata(dir.join("summary.json"))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as u64);
    let values: Values = summary
        .metrics
        .iter()
        .map(|(k, m)| (k.clone(), m.new))
        .collect();
    written.is_some_and(|w| w < last.unix_ms) && values != last.entry.metrics
}

/// Collects the summaries and benchmark directories below `dir`; the history and a report
/// written into the home are not benchmarks.
fn walk(
    root: &Path,
    dir: &Path,
    summaries: &mut Found,
    dirs: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<()> {
    let entries = std::fs::read_dir(dir).file_op("read directory", dir)?;
    let mut profile = false;
    for entry in entries {
        let entry = entry.file_op("read directory", dir)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry.file_type().file_op("read", &entry.path())?;
        if kind.is_dir() {
            if dir == root && (name == history::DIR || name == "report") {
                continue;
            }
            walk(root, &entry.path(), summaries, dirs)?;
        } else if name == "summary.json" {
            let path = entry.path();
            let text = std::fs::read_to_string(&path).file_op("read", &path)?;
            let (summary, raw) = parse_summary(&text, &path.display().to_string())?;
            let from = path.display().to_string();
            insert(summaries, (summary, raw, dir.to_owned(), from))?;
        } else if name == "callgrind.out"
            || (name.starts_with("baseline.") && name.ends_with(".callgrind.out"))
        {
            profile = true;
        }
    }
    if profile {
        dirs.push((root.to_owned(), dir.to_owned()));
    }
    Ok(())
}

/// Reads a file of summaries, one per line (or one indented summary).
fn read_lines(path: &Path, summaries: &mut Found) -> Result<()> {
    let text = std::fs::read_to_string(path).file_op("read", path)?;
    let docs = crate::compare::input::summary::documents(&text);
    if docs.is_empty() {
        bail!("{} holds no summary", path.display());
    }
    for (line, doc) in docs {
        let at = format!("{}:{line}", path.display());
        let (summary, raw) = parse_summary(doc, &at)?;
        let dir = PathBuf::from(&summary.files.dir);
        insert(summaries, (summary, raw, dir, at))?;
    }
    Ok(())
}

fn parse_summary(text: &str, at: &str) -> Result<(Summary, Value)> {
    let raw: Value = serde_json::from_str(text)
        .with_context(|| format!("{at}: not JSON; expected a benchgrind summary"))?;
    let version = raw.get("version").and_then(Value::as_u64);
    check_version(version, at).map_err(|e| {
        anyhow::anyhow!("{e} (write summaries with --save-summary or --output-format=json)")
    })?;
    let summary = Summary::deserialize(&raw).with_context(|| {
        format!("{at}: not a benchgrind summary (write them with --save-summary)")
    })?;
    Ok((summary, raw))
}

fn insert(summaries: &mut Found, found: (Summary, Value, PathBuf, String)) -> Result<()> {
    let key = (found.0.package.clone(), found.0.id.clone());
    if let Some((_, _, _, first)) = summaries.get(&key) {
        bail!(
            "{} is there twice, in {first} and in {}: pass the shares of one run, each \
             benchmark once",
            found.0.id,
            found.3
        );
    }
    summaries.insert(key, found);
    Ok(())
}

/// Reads `<root>/history/*.json`; unreadable records are warnings, not errors (one bad file
/// must not hide a year of history).
fn read_history(
    root: &Path,
    points: &mut Vec<(String, String, Point, PathBuf)>,
    loaded: &mut Loaded,
) -> Result<()> {
    let dir = root.join(history::DIR);
    if !dir.is_dir() {
        return Ok(());
    }
    let files = history::files(&dir).file_op("read", &dir)?;
    for file in files {
        let record = match history::read(&file) {
            Ok(record) => record,
            Err(e) => {
                loaded.warnings.push(format!("{e}; skipped"));
                continue;
            }
        };
        loaded.records += 1;
        for (id, entry) in record.benchmarks {
            let point = Point {
                unix_ms: record.unix_ms,
                date: record.date.clone(),
                commit: record.commit.clone(),
                entry,
            };
            points.push((record.package.clone(), id, point, root.to_owned()));
        }
    }
    Ok(())
}

/// A benchmark directory with profiles but neither summary nor history (a run with
/// `--history=off`, or saved baselines only): its id comes from the directory's place,
/// `<package>/<bench file>/<group>/<function>[.<id>]`.
fn add_profile_only(loaded: &mut Loaded, root: &Path, dir: &Path) {
    let Ok(rel) = dir.strip_prefix(root) else {
        return;
    };
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    // Relative to the home: exactly four levels; anything else is not laid out by the runner.
    let [package, file, group, leaf] = &parts[..] else {
        return;
    };
    let id = match leaf.split_once('.') {
        Some((function, bench)) => format!("{file}::{group}::{function}::{bench}"),
        None => format!("{file}::{group}::{leaf}"),
    };
    let key = (package.clone(), id);
    if loaded.benches.contains_key(&key) {
        return;
    }
    let bench = loaded.benches.entry(key).or_default();
    bench.dir = Some(dir.to_owned());
}

/// Decides the benchmark's current, previous and baseline values and its status.
fn resolve(bench: &mut Bench, baseline: Option<&str>, warnings: &mut Vec<String>) {
    if let Some(dir) = bench.dir.clone() {
        bench.baselines = read_baselines(&dir, &bench.id, warnings);
    }
    let mut compared = None;
    if let Some(summary) = &bench.summary {
        bench.status.clone_from(&summary.status);
        bench.error.clone_from(&summary.error);
        for (name, m) in &summary.metrics {
            bench.current.insert(name.clone(), m.new);
        }
        let old: Values = summary
            .metrics
            .iter()
            .filter_map(|(k, m)| Some((k.clone(), m.old?)))
            .collect();
        match summary.old_source.strip_prefix("baseline ") {
            // A baseline compared with for the first time has no values: the files may.
            Some(name) if old.is_empty() => compared = Some(name.to_owned()),
            Some(name) if baseline.is_none() => bench.baseline = Some((name.to_owned(), old)),
            Some(_) => {}
            None => bench.previous = old,
        }
        for (tool, wire) in &summary.tools {
            let values = wire
                .metrics
                .iter()
                .map(|(k, m)| (k.clone(), (m.new, m.old)));
            bench.tools.insert(tool.clone(), values.collect());
        }
    } else if let Some(last) = bench.history.last() {
        bench.status.clone_from(&last.entry.status);
        bench.current.clone_from(&last.entry.metrics);
        let before = bench
            .history
            .len()
            .checked_sub(2)
            .map(|i| &bench.history[i]);
        for (tool, values) in &last.entry.tools {
            let old = before.and_then(|b| b.entry.tools.get(tool));
            let values = values
                .iter()
                .map(|(k, v)| (k.clone(), (*v, old.and_then(|o| o.get(k).copied()))));
            bench.tools.insert(tool.clone(), values.collect());
        }
    } else if let Some(current) = bench.dir.as_ref().map(|d| d.join("callgrind.out")) {
        bench.status = "ok".into();
        match read_profile(&current) {
            Ok(Some(values)) => bench.current = values,
            Ok(None) => {}
            Err(e) => warnings.push(format!("{}: {e}", bench.id)),
        }
    }
    if bench.previous.is_empty() && bench.summary.is_none() && bench.history.len() >= 2 {
        let before = &bench.history[bench.history.len() - 2];
        bench.previous.clone_from(&before.entry.metrics);
    }
    if bench.baseline.is_none() {
        let name = baseline
            .map(str::to_owned)
            .or(compared)
            .or_else(|| {
                bench
                    .baselines
                    .contains_key("default")
                    .then(|| "default".into())
            })
            .or_else(|| bench.baselines.keys().next().cloned());
        if let Some(values) = name.as_ref().and_then(|n| bench.baselines.get(n)) {
            bench.baseline = Some((name.expect("found by name"), values.clone()));
        }
    }
    if bench.status.is_empty() {
        bench.status = "ok".into();
    }
}

/// Every `baseline.NAME.callgrind.out` in `dir`, as metrics.
fn read_baselines(dir: &Path, id: &str, warnings: &mut Vec<String>) -> BTreeMap<String, Values> {
    let mut found = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(name) = file
            .to_str()
            .and_then(|f| f.strip_prefix("baseline."))
            .and_then(|f| f.strip_suffix(".callgrind.out"))
        else {
            continue;
        };
        match read_profile(&entry.path()) {
            Ok(Some(values)) => {
                found.insert(name.to_owned(), values);
            }
            Ok(None) => {}
            Err(e) => warnings.push(format!("{id}: baseline `{name}`: {e}; not shown")),
        }
    }
    found
}

/// A Callgrind profile's metrics, as the bench binary derives them; `None` if it is missing.
fn read_profile(path: &Path) -> Result<Option<Values>, Problem> {
    if !path.exists() {
        return Ok(None);
    }
    let profile = profile::parse_file(path, Read::Totals).map_err(|e| problem!("{e}"))?;
    let metrics = Metrics::from_profile(&profile);
    Ok(Some(
        metrics
            .values
            .iter()
            .map(|(k, v)| (k.name().to_owned(), *v))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchgrind_runner::report::history::Record;

    fn summary_json(id: &str, dir: &Path, new: u64, old: Option<u64>) -> String {
        let (file, rest) = id.split_once("::").unwrap();
        let (group, function) = rest.split_once("::").unwrap();
        serde_json::json!({
            "version": 1, "id": id, "package": "p", "file": file, "group": group,
            "function": function, "bench_id": null, "args": "()", "command": null,
            "tool": "callgrind", "status": "ok", "error": null, "new_source": "run",
            "old_source": "previous run",
            "metrics": {"Ir": {"new": new, "old": old, "diff_pct": null, "factor": null}},
            "regressions": [],
            "files": {"dir": dir, "profile": dir.join("callgrind.out"), "log": null},
            "duration_secs": 0.1,
            "attribution": [{"function": "f::hot", "change": 12}]
        })
        .to_string()
    }

    fn entry(ir: u64, regressed: bool, dir: &str) -> Entry {
        Entry {
            status: if regressed { "regressed" } else { "ok" }.into(),
            dir: dir.into(),
            metrics: [("Ir".to_owned(), ir)].into_iter().collect(),
            tools: BTreeMap::new(),
            regressed: if regressed { vec!["Ir".into()] } else { vec![] },
        }
    }

    #[test]
    fn summaries_history_and_stale_summaries() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        let now = std::time::SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        // `a` has history only; `b` a summary of the last run; `c` a summary older than the
        // history's newest run, with other values.
        let history: [[(&str, u64, bool); 3]; 3] = [
            [
                ("f::g::a", 100, false),
                ("f::g::b", 40, false),
                ("f::g::c", 7, false),
            ],
            [
                ("f::g::a", 110, true),
                ("f::g::b", 40, false),
                ("f::g::c", 7, false),
            ],
            [
                ("f::g::a", 110, false),
                ("f::g::b", 50, false),
                ("f::g::c", 8, false),
            ],
        ];
        for (i, run) in history.iter().enumerate() {
            let benchmarks = run
                .iter()
                .map(|&(id, ir, bad)| {
                    let dir = format!("p/f/g/{}", &id[6..]);
                    (id.to_owned(), entry(ir, bad, &dir))
                })
                .collect();
            let record = Record {
                version: history::VERSION,
                unix_ms: now - 1000 + i as u64,
                date: history::utc_date(now / 1000),
                commit: None,
                package: "p".into(),
                file: "f".into(),
                fingerprint: None,
                benchmarks,
            };
            history::append(&home.join("history"), &record, Default::default()).unwrap();
        }
        for (leaf, id, new, old) in [("b", "f::g::b", 50, Some(40)), ("c", "f::g::c", 7, None)] {
            let dir = home.join("p/f/g").join(leaf);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("summary.json"), summary_json(id, &dir, new, old)).unwrap();
        }
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1000);
        let file = std::fs::File::options()
            .write(true)
            .open(home.join("p/f/g/c/summary.json"))
            .unwrap();
        file.set_modified(old).unwrap();
        // A report written into the home is not read as results.
        std::fs::create_dir_all(home.join("report/x")).unwrap();
        std::fs::write(home.join("report/x/summary.json"), "not read").unwrap();

        let loaded = load(&[home.to_owned()], None).unwrap();
        assert_eq!(loaded.records, 3);
        assert_eq!(loaded.benches.len(), 3, "{:?}", loaded.benches.keys());
        let bench = |id: &str| &loaded.benches[&("p".to_owned(), id.to_owned())];
        let a = bench("f::g::a");
        assert_eq!((a.current["Ir"], a.previous["Ir"]), (110, 110));
        assert_eq!(a.status, "ok");
        assert_eq!(a.history.len(), 3);
        assert!(a.history[1].entry.regressed.contains(&"Ir".to_owned()));
        assert_eq!(a.dir.as_deref(), Some(home.join("p/f/g/a").as_path()));
        let b = bench("f::g::b");
        assert_eq!((b.current["Ir"], b.previous["Ir"]), (50, 40));
        assert!(b.raw.as_ref().unwrap().get("attribution").is_some());
        let c = bench("f::g::c");
        assert_eq!(
            (c.current["Ir"], c.previous["Ir"]),
            (8, 7),
            "the history's newest"
        );
        assert!(c.summary.is_none());
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.warnings[0].contains("f::g::c: summary.json is older than the history"));
    }
}
