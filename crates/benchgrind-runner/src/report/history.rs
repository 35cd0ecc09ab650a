//! The history of a home: after the report stage, every run of a bench binary appends one small
//! file to `<home>/history/` (`<unix-ms>-<pid>.json`) with the date, the git commit, the bench
//! file and, per benchmark, its metric values and which limits it passed (schema:
//! `schemas/history.v1.schema.json`). `benchgrind report` draws a benchmark's history from
//! these files.
//!
//! The files are versioned ([`VERSION`]), written atomically (temp file and rename, as summaries
//! are), and bounded: after a write the oldest files go until at most [`Bounds::runs`] files and
//! [`Bounds::bytes`] bytes are left. `--history=off` (`BENCHGRIND_HISTORY=off`) writes nothing.
//! The commit is read from `.git` directly, without spawning git: a bench run does not depend on
//! git being installed, and a home outside a repository simply has no commit.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

pub use crate::dates::utc_date;
use crate::fingerprint::git_commit;
use crate::report::summary::Summary;
use crate::result::BenchResult;
use crate::store;

/// The version of the history record format; bumped on any incompatible change.
pub const VERSION: u32 = 1;

/// The directory below the home that holds the history.
pub const DIR: &str = "history";

/// How much history is kept: the newest files within both bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// At most this many runs.
    pub runs: usize,
    /// At most this many bytes in all.
    pub bytes: u64,
}

impl Default for Bounds {
    /// 500 runs or 64 MiB: a year of daily runs of a few hundred benchmarks.
    fn default() -> Self {
        Bounds {
            runs: 500,
            bytes: 64 << 20,
        }
    }
}

/// One run of one bench binary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`VERSION`].
    pub version: u32,
    /// When the run ended, in milliseconds since the Unix epoch.
    pub unix_ms: u64,
    /// The same instant as `YYYY-MM-DDTHH:MM:SSZ`, for people.
    pub date: String,
    /// The git commit checked out in the package's repository, if there is one.
    pub commit: Option<String>,
    /// The package of the bench target.
    pub package: String,
    /// The bench target.
    pub file: String,
    /// What besides the code decides the counts (Valgrind, CPU, ...), when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<serde_json::Value>,
    /// Per benchmark id (`file::group::function::id`), its values in this run.
    pub benchmarks: BTreeMap<String, Entry>,
}

/// One benchmark in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// `ok`, `regressed` or `failed`, as in the summary.
    pub status: String,
    /// The benchmark's directory relative to the home (where its files and flamegraphs are).
    pub dir: String,
    /// Callgrind's metrics by name (`Ir`, `EstimatedCycles`, ...); empty when it failed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, u64>,
    /// The other tools' metrics by tool and name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, BTreeMap<String, u64>>,
    /// The metrics that passed a limit (`Ir`, `dhat:TotalBytes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regressed: Vec<String>,
}

impl Entry {
    /// The entry of a benchmark's summary; `home` makes its directory relative.
    pub fn from_summary(summary: &Summary, home: &Path) -> Entry {
        let dir = Path::new(&summary.files.dir);
        let dir = dir.strip_prefix(home).unwrap_or(dir);
        let mut regressed: Vec<String> = summary
            .regressions
            .iter()
            .map(|r| r.metric.clone())
            .collect();
        for (tool, wire) in &summary.tools {
            regressed.extend(
                wire.regressions
                    .iter()
                    .map(|r| format!("{tool}:{}", r.metric)),
            );
        }
        Entry {
            status: summary.status.clone(),
            dir: dir.display().to_string(),
            metrics: summary
                .metrics
                .iter()
                .map(|(k, m)| (k.clone(), m.new))
                .collect(),
            tools: summary
                .tools
                .iter()
                .map(|(tool, wire)| {
                    let values = wire.metrics.iter().map(|(k, m)| (k.clone(), m.new));
                    (tool.clone(), values.collect())
                })
                .collect(),
            regressed,
        }
    }
}

/// Collects the results of a run and appends them to the history at its end.
#[derive(Debug)]
pub struct Recorder {
    home: PathBuf,
    record: Option<Record>,
}

impl Recorder {
    /// A recorder for a run of `file` in `package`; not `enabled` (`--history=off`, or
    /// `--load-baseline`, which measures nothing), it records nothing.
    pub fn new(enabled: bool, home: &Path, package: &str, file: &str) -> Self {
        let record = enabled.then(|| Record {
            version: VERSION,
            unix_ms: 0,
            date: String::new(),
            commit: None,
            package: package.to_owned(),
            file: file.to_owned(),
            fingerprint: None,
            benchmarks: BTreeMap::new(),
        });
        Recorder {
            home: home.to_owned(),
            record,
        }
    }

    /// Adds one benchmark's result.
    pub fn add(&mut self, result: &BenchResult) {
        if let Some(record) = &mut self.record {
            let summary = Summary::from_result(result);
            let entry = Entry::from_summary(&summary, &self.home);
            record.benchmarks.insert(summary.id, entry);
        }
    }

    /// Writes the record (if anything was added) and drops the oldest files past the default
    /// bounds; `repo` is a directory inside the package's git repository. A failure is a
    /// warning: the run's results are on disk either way.
    pub fn finish(self, repo: &Path) {
        let Some(mut record) = self.record.filter(|r| !r.benchmarks.is_empty()) else {
            return;
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        record.unix_ms = now.as_millis() as u64;
        record.date = utc_date(now.as_secs());
        record.commit = git_commit(repo);
        let dir = self.home.join(DIR);
        let appended =
            append(&dir, &record, Bounds::default()).file_op("write the history in", &dir);
        if let Err(e) = appended {
            crate::messages::warning!("{e}");
        }
    }
}

/// Writes `record` as a new file in `dir`, then prunes to `bounds`; returns the file.
pub fn append(dir: &Path, record: &Record, bounds: Bounds) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!(
        "{:013}-{}.json",
        record.unix_ms,
        std::process::id()
    ));
    let json = serde_json::to_vec(record).expect("a record holds only strings, numbers and maps");
    store::write_atomic(&path, &json)?;
    prune(dir, bounds)?;
    Ok(path)
}

/// The history files in `dir`, oldest first (by the time and pid in their names); other files
/// are not the history's and are left alone.
pub fn files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if let Some(key) = path.file_name().and_then(|n| n.to_str()).and_then(sort_key) {
            found.push((key, path));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// `(unix_ms, pid)` of a history file's name `<unix-ms>-<pid>.json`.
fn sort_key(name: &str) -> Option<(u64, u32)> {
    let (ms, pid) = name.strip_suffix(".json")?.split_once('-')?;
    Some((ms.parse().ok()?, pid.parse().ok()?))
}

/// Deletes the oldest history files until the rest fit `bounds`; the newest is always kept.
pub fn prune(dir: &Path, bounds: Bounds) -> io::Result<()> {
    let files = files(dir)?;
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .collect();
    let mut total: u64 = sizes.iter().sum();
    let mut count = files.len();
    for (file, size) in files.iter().zip(&sizes) {
        if count <= 1 || (count <= bounds.runs && total <= bounds.bytes) {
            break;
        }
        if let Err(e) = std::fs::remove_file(file) {
            // NotFound: another run pruning at the same time got there first.
            if e.kind() != io::ErrorKind::NotFound {
                return Err(e);
            }
        }
        count -= 1;
        total -= size;
    }
    Ok(())
}

/// Reads one history file; the error names the file and what is wrong.
pub fn read(path: &Path) -> Result<Record, Problem> {
    let bytes = std::fs::read(path).file_op("read", path)?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| problem!("{}: not a history record ({e})", path.display()))?;
    let version = value.get("version").and_then(serde_json::Value::as_u64);
    if version != Some(u64::from(VERSION)) {
        return Err(problem!(
            "{}: history version {} (this benchgrind reads version {VERSION})",
            path.display(),
            value.get("version").unwrap_or(&serde_json::Value::Null)
        ));
    }
    serde_json::from_value(value)
        .map_err(|e| problem!("{}: not a history record ({e})", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_utc() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        // `date -u -d @951782400`: the leap day of a year divisible by 400.
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc_date(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    fn record(ms: u64, ir: u64) -> Record {
        let entry = Entry {
            status: "ok".into(),
            dir: "p/f/g/fun.id".into(),
            metrics: [("Ir".to_owned(), ir)].into_iter().collect(),
            tools: BTreeMap::new(),
            regressed: Vec::new(),
        };
        Record {
            version: VERSION,
            unix_ms: ms,
            date: utc_date(ms / 1000),
            commit: None,
            package: "p".into(),
            file: "f".into(),
            fingerprint: None,
            benchmarks: [("f::g::fun::id".to_owned(), entry)].into_iter().collect(),
        }
    }

    #[test]
    fn appends_read_back_in_order_and_keep_within_bounds() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(DIR);
        let bounds = Bounds {
            runs: 3,
            bytes: 1 << 20,
        };
        for i in 0..5u64 {
            append(&dir, &record(1_000 + i, 100 + i), bounds).unwrap();
        }
        // Someone else's file is not the history's: neither read nor deleted.
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let kept = files(&dir).unwrap();
        assert_eq!(kept.len(), 3);
        let irs: Vec<u64> = kept
            .iter()
            .map(|f| read(f).unwrap().benchmarks["f::g::fun::id"].metrics["Ir"])
            .collect();
        assert_eq!(irs, [102, 103, 104], "the newest are kept, oldest first");

        let size = std::fs::metadata(&kept[0]).unwrap().len();
        prune(
            &dir,
            Bounds {
                runs: 10,
                bytes: size * 2,
            },
        )
        .unwrap();
        assert_eq!(files(&dir).unwrap().len(), 2, "the byte bound");
        prune(&dir, Bounds { runs: 0, bytes: 0 }).unwrap();
        assert_eq!(files(&dir).unwrap().len(), 1, "the newest always stays");
        assert!(dir.join("notes.txt").exists());
    }

    #[test]
    fn bad_records_name_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("1-1.json");
        std::fs::write(&path, "{\"version\": 9}").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("1-1.json: history version 9"), "{e}");
        std::fs::write(&path, "{\"version\": 1, \"date\": 3}").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("1-1.json: not a history record"), "{e}");
        std::fs::write(&path, "{").unwrap();
        assert!(read(&path).unwrap_err().contains("not a history record"));
    }

    #[test]
    fn the_commit_of_a_branch_a_detached_head_and_packed_refs() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        let nested = tmp.path().join("crates/x");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::create_dir_all(&nested).unwrap();
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(git.join("refs/heads/main"), format!("{a}\n")).unwrap();
        assert_eq!(git_commit(&nested), Some(a.clone()));
        std::fs::remove_file(git.join("refs/heads/main")).unwrap();
        std::fs::write(
            git.join("packed-refs"),
            format!("# pack-refs with: peeled\n{b} refs/heads/main\n"),
        )
        .unwrap();
        assert_eq!(git_commit(&nested), Some(b.clone()));
        std::fs::write(git.join("HEAD"), format!("{a}\n")).unwrap();
        assert_eq!(git_commit(&nested), Some(a));
        std::fs::write(git.join("HEAD"), "garbage").unwrap();
        assert_eq!(git_commit(&nested), None);
    }
}
