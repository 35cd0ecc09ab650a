//! The profiles of one run, settled into the benchmark's files: Callgrind writes one per thread
//! of every process the run started and per dump (`%p` in the names, see
//! [`super::args::COUNT_EVERYTHING`]); those of the measured process and its descendants are
//! joined into the benchmark's `callgrind.out.new` ([`crate::parse::join`]), its log becomes
//! `callgrind.log.new`, and its descendants' logs go to `children/`.
//!
//! Which processes descend from the measured one, Valgrind's logs say: each begins with its
//! `Parent PID`. A fork server's directory holds every benchmark's processes, one benchmark at a
//! time; a process that outlives its benchmark and writes later is not part of it.

use crate::error::FileResult;
use crate::error::Problem;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::parse::join::{join, Part, PartId};
use crate::store::{BenchPaths, Which};

/// Callgrind's profile of each process, in a run's directory of raw files.
pub const OUT_PATTERN: &str = "callgrind.%p.out";
/// Valgrind's log of each process, beside it.
pub const LOG_PATTERN: &str = "callgrind.%p.log";

/// The directory, in a benchmark's, that holds the files of the processes it started (their
/// logs, and other tools' files).
pub const CHILDREN: &str = "children";

/// One file Callgrind wrote: `callgrind.<pid>.out[.<dump>][-<thread>]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct OutFile {
    pid: u32,
    thread: u32,
    dump: u32,
    path: PathBuf,
}

/// Reads a profile's name: the pid, the dump (0 for the one at exit, which comes last) and the
/// thread (1 without `--separate-threads`).
fn out_file(name: &str, path: PathBuf) -> Option<OutFile> {
    let rest = name.strip_prefix("callgrind.")?;
    let (pid, rest) = rest.split_once(".out")?;
    let (dump, thread) = match rest.split_once('-') {
        Some((dump, thread)) => (dump, thread.parse().ok()?),
        None => (rest, 1),
    };
    let dump = match dump.strip_prefix('.') {
        Some(n) => n.parse().ok()?,
        None if dump.is_empty() => u32::MAX,
        None => return None,
    };
    Some(OutFile {
        pid: pid.parse().ok()?,
        thread,
        dump,
        path,
    })
}

/// The pid of a log `callgrind.<pid>.log`.
fn log_pid(name: &str) -> Option<u32> {
    name.strip_prefix("callgrind.")?
        .strip_suffix(".log")?
        .parse()
        .ok()
}

/// The parent a Valgrind log names (`==PID== Parent PID: N`, in its first lines).
pub(crate) fn parent_pid(log: &Path) -> Option<u32> {
    let text = std::fs::read(log).ok()?;
    let head = &text[..text.len().min(2048)];
    String::from_utf8_lossy(head).lines().find_map(|line| {
        let (_, rest) = line.split_once("Parent PID:")?;
        rest.trim().parse().ok()
    })
}

/// The files of `root` and its descendants in `dir`: profiles in order (the measured process
/// first, then by pid, thread and dump) and logs by pid.
fn tree(dir: &Path, root: u32) -> std::io::Result<(Vec<OutFile>, BTreeMap<u32, PathBuf>)> {
    let mut outs = Vec::new();
    let mut logs = BTreeMap::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if let Some(pid) = log_pid(&name) {
            logs.insert(pid, entry.path());
        } else if let Some(out) = out_file(&name, entry.path()) {
            outs.push(out);
        }
    }
    let parents: BTreeMap<u32, u32> = logs
        .iter()
        .filter(|(&pid, _)| pid != root)
        .filter_map(|(&pid, log)| Some((pid, parent_pid(log)?)))
        .collect();
    let mut members = BTreeSet::from([root]);
    loop {
        let before = members.len();
        for (pid, parent) in &parents {
            if members.contains(parent) {
                members.insert(*pid);
            }
        }
        if members.len() == before {
            break;
        }
    }
    outs.retain(|o| members.contains(&o.pid));
    outs.sort_by_key(|o| (o.pid != root, o.pid, o.thread, o.dump));
    logs.retain(|pid, _| members.contains(pid));
    Ok((outs, logs))
}

/// Joins the profiles of `root`'s process tree in `dir` into the benchmark's
/// `callgrind.out.new` and moves the logs: `root`'s to `callgrind.log.new`, the others' to
/// `children/callgrind.<pid>.log` (replacing those of the last run). The files are gone from
/// `dir` afterwards. A profile without `totals:` (a process killed before it ended) is left out;
/// so are threads that counted nothing, but for the measured process's first.
pub fn settle(dir: &Path, root: u32, paths: &BenchPaths) -> Result<(), Problem> {
    let (outs, logs) = tree(dir, root).file_op("read", dir)?;
    let mut texts = Vec::new();
    for out in &outs {
        let text = std::fs::read_to_string(&out.path).file_op("read", &out.path)?;
        let _ = std::fs::remove_file(&out.path);
        let counted = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("totals:"))
            .map(|t| t.split_whitespace().any(|n| n != "0"));
        let first = out.pid == root && texts.is_empty();
        match counted {
            Some(true) => texts.push((out, text)),
            Some(false) if first => texts.push((out, text)),
            _ => {}
        }
    }
    clear_children(&paths.dir);
    for (pid, log) in &logs {
        let target = if *pid == root {
            paths.file("callgrind.log", Which::New)
        } else {
            let children = paths.dir.join(CHILDREN);
            std::fs::create_dir_all(&children).file_op("create", &children)?;
            children.join(format!("callgrind.{pid}.log"))
        };
        move_file(log, &target)?;
    }
    if texts.is_empty() {
        return Err(Problem::new("Valgrind wrote no profile"));
    }
    let parts: Vec<Part<'_>> = texts
        .iter()
        .map(|(out, text)| Part {
            id: PartId {
                pid: out.pid,
                thread: out.thread,
            },
            text,
        })
        .collect();
    let joined = join(&parts)?;
    let target = paths.file("callgrind.out", Which::New);
    Ok(std::fs::write(&target, joined).file_op("write", &target)?)
}

/// Removes the logs of the processes of the last run.
fn clear_children(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir.join(CHILDREN)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| log_pid(n).is_some()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn move_file(from: &Path, to: &Path) -> Result<(), Problem> {
    std::fs::rename(from, to)
        .or_else(|_| std::fs::copy(from, to).map(|_| ()))
        .file_op_to("move", from, to)
        .map_err(Problem::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_pid_dump_and_thread() {
        let f = |name: &str| out_file(name, PathBuf::new()).map(|o| (o.pid, o.dump, o.thread));
        assert_eq!(f("callgrind.12.out"), Some((12, u32::MAX, 1)));
        assert_eq!(f("callgrind.12.out-03"), Some((12, u32::MAX, 3)));
        assert_eq!(f("callgrind.12.out.2-01"), Some((12, 2, 1)));
        assert_eq!(f("callgrind.12.out.2"), Some((12, 2, 1)));
        assert_eq!(f("callgrind.12.log"), None);
        assert_eq!(f("callgrind.out.new"), None);
        assert_eq!(log_pid("callgrind.12.log"), Some(12));
    }
}
