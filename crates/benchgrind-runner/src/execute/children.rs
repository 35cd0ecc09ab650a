//! The files of a run: Callgrind's raw profiles and logs ([`super::parts`]), and those of another
//! tool, which every process writes for itself (`--trace-children=yes`), named
//! `<file>.new.<expansion>` by the tool's [`Tool::outfile_modifier`] (`%p` by default). After the run the benchmark's own
//! process's files take the usual names (`dhat.out.new`, read and rotated as without a
//! modifier); its children's move to `children/<file>.<expansion>`, replacing those of the
//! tool's last run.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::parts::CHILDREN;
use super::watch::{wait_with_usage, Limits, Stopped, Usage};
use crate::config::Tool;
use crate::store::{BenchPaths, Which};

/// Which files a run leaves to settle.
#[derive(Debug, Clone, Copy)]
pub enum Files<'a> {
    /// Callgrind's raw profiles and logs, one per process and thread ([`super::parts`]).
    Callgrind,
    /// Another tool's, one set per process.
    Tool(&'a Tool),
    /// None (test mode).
    Nothing,
}

/// A process run to its end, or stopped at a limit.
pub struct Ran {
    /// How it ended and what it printed.
    pub output: Output,
    /// Whether its files were settled.
    pub settled: Result<(), Problem>,
    /// Why it was stopped before it ended, if it was.
    pub stopped: Option<Stopped>,
    /// What it cost besides its counts ([`super::watch`]).
    pub usage: Usage,
}

/// Runs `cmd` to its end, or kills its process group at one of its `limits`. What an earlier
/// run left is cleared first and this run's files are settled after, by the measured
/// process's id, which only spawning it tells (and `launcher`, which started it, translates
/// into the id it knows itself by: its namespace's).
pub fn output(
    cmd: &mut Command,
    launcher: &super::launcher::Launcher,
    files: Files<'_>,
    paths: &BenchPaths,
    limits: Limits,
) -> std::io::Result<Ran> {
    match files {
        Files::Tool(tool) => clear(tool, paths),
        Files::Callgrind => {
            let raw = paths.raw_dir();
            let _ = std::fs::remove_dir_all(&raw);
            std::fs::create_dir_all(&raw)?;
        }
        Files::Nothing => {}
    }
    let machine_before = super::machine::machine_reads();
    let child = cmd.spawn()?;
    let pid = child.id();
    let (done, watch) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || super::watch::watch(pid, limits, watch));
    let waited = wait_with_usage(child);
    drop(done);
    let stopped = watchdog.join().unwrap_or(None);
    let (output, mut usage) = waited?;
    if let (Some(before), Some(after)) = (machine_before, super::machine::machine_reads()) {
        usage.disk_reads += after.saturating_sub(before);
    }
    let pid = launcher.measured_pid(pid);
    let settled = match files {
        Files::Tool(tool) => settle(tool, paths, pid),
        Files::Callgrind => {
            let raw = paths.raw_dir();
            let settled = super::parts::settle(&raw, pid, paths);
            let _ = std::fs::remove_dir_all(&raw);
            settled
        }
        Files::Nothing => Ok(()),
    };
    Ok(Ran {
        output,
        settled,
        stopped,
        usage,
    })
}

/// Removes what an earlier run with a modifier may have left (`<file>.new.<expansion>` of a run
/// that failed or was killed before [`settle`]), so that only this run's files are settled.
fn clear(tool: &Tool, paths: &BenchPaths) {
    for name in tool.kind().files() {
        for (_, path) in modified_files(paths, &name) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Moves the files of the run of `tool` whose benchmark process had the id `pid` to their
/// places.
fn settle(tool: &Tool, paths: &BenchPaths, pid: u32) -> Result<(), Problem> {
    let modifier = tool.modifier();
    let pattern = Pattern::of(modifier, pid);
    let children_dir = paths.dir.join(CHILDREN);
    for name in tool.kind().files() {
        remove_earlier(&children_dir, &name);
        let found = modified_files(paths, &name);
        // The process's own file; without `%p` in the modifier nothing tells the processes
        // apart, and the first file (in name order) is taken for the benchmark's.
        let mine = match found
            .iter()
            .position(|(expansion, _)| pattern.matches(expansion))
        {
            Some(i) => Some(i),
            None if pattern.has_pid && !found.is_empty() => {
                let names: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
                return Err(problem!(
                    "none of the {name} files ({}) is the benchmark process's (pid {pid}) as the \
                     outfile modifier `{modifier}` names them",
                    names.join(", ")
                ));
            }
            None => (!found.is_empty()).then_some(0),
        };
        let new = paths.file(&name, Which::New);
        for (i, (expansion, path)) in found.iter().enumerate() {
            let target = if Some(i) == mine {
                new.clone()
            } else {
                std::fs::create_dir_all(&children_dir).file_op("create", &children_dir)?;
                children_dir.join(format!("{name}.{expansion}"))
            };
            std::fs::rename(path, &target).file_op_to("move", path, &target)?;
        }
    }
    Ok(())
}

/// The files `<name>.new.<expansion>` in the benchmark's directory, sorted by expansion.
fn modified_files(paths: &BenchPaths, name: &str) -> Vec<(String, PathBuf)> {
    let prefix = format!("{}.", file_name(&paths.file(name, Which::New)));
    let Ok(entries) = std::fs::read_dir(&paths.dir) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let expansion = entry
                .file_name()
                .to_str()?
                .strip_prefix(&prefix)?
                .to_owned();
            Some((expansion, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// A modifier as Valgrind expands it for one process: `%p` its id, `%%` a `%`; `%q{VAR}` (an
/// environment variable's value) and `%n` (a sequence number) match any text here.
struct Pattern {
    parts: Vec<Part>,
    has_pid: bool,
}

enum Part {
    Text(String),
    Any,
}

impl Pattern {
    fn of(modifier: &str, pid: u32) -> Pattern {
        let (mut parts, mut text, mut has_pid) = (Vec::new(), String::new(), false);
        let mut chars = modifier.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                text.push(c);
                continue;
            }
            match chars.next() {
                Some('p') => {
                    has_pid = true;
                    text.push_str(&pid.to_string());
                }
                Some('%') => text.push('%'),
                Some(kind @ ('q' | 'n')) => {
                    if kind == 'q' && chars.peek() == Some(&'{') {
                        chars.by_ref().find(|&c| c == '}');
                    }
                    parts.push(Part::Text(std::mem::take(&mut text)));
                    parts.push(Part::Any);
                }
                Some(other) => {
                    text.push('%');
                    text.push(other);
                }
                None => text.push('%'),
            }
        }
        parts.push(Part::Text(text));
        Pattern { parts, has_pid }
    }

    fn matches(&self, name: &str) -> bool {
        fn rest_matches(parts: &[Part], name: &str) -> bool {
            match parts.split_first() {
                None => name.is_empty(),
                Some((Part::Text(text), rest)) => name
                    .strip_prefix(text.as_str())
                    .is_some_and(|name| rest_matches(rest, name)),
                Some((Part::Any, rest)) => (0..=name.len())
                    .any(|i| name.is_char_boundary(i) && rest_matches(rest, &name[i..])),
            }
        }
        rest_matches(&self.parts, name)
    }
}

/// Removes the children's files of the tool's last run (`<name>.<anything>`).
fn remove_earlier(children_dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(children_dir) else {
        return;
    };
    let prefix = format!("{name}.");
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix))
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ValgrindTool;

    #[test]
    fn a_modifier_matches_the_processs_own_names_only() {
        let p = Pattern::of("%p", 42);
        assert!(p.has_pid && p.matches("42") && !p.matches("421") && !p.matches("4"));
        let p = Pattern::of("pid-%p.%%.%q{USER}", 7);
        assert!(p.matches("pid-7.%.alice") && p.matches("pid-7.%."));
        assert!(!p.matches("pid-8.%.alice"));
        // A literal `%p` (written `%%p`) names no process.
        let p = Pattern::of("%%p", 7);
        assert!(!p.has_pid && p.matches("%p"));
    }

    #[test]
    fn the_benchmarks_files_take_the_usual_names_and_the_childrens_move_aside() {
        let dir = tempfile::tempdir().unwrap();
        let paths = BenchPaths {
            dir: dir.path().to_owned(),
        };
        let tool = Tool::new(ValgrindTool::DHAT).outfile_modifier("%p");
        for (name, text) in [
            ("dhat.out.new.10", "own"),
            ("dhat.out.new.11", "child"),
            ("dhat.log.new.10", "own log"),
            ("dhat.log.new.11", "child log"),
        ] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        std::fs::create_dir(dir.path().join(CHILDREN)).unwrap();
        std::fs::write(dir.path().join("children/dhat.out.9"), "an earlier run").unwrap();
        settle(&tool, &paths, 10).unwrap();
        let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(read("dhat.out.new"), "own");
        assert_eq!(read("dhat.log.new"), "own log");
        assert_eq!(read("children/dhat.out.11"), "child");
        assert_eq!(read("children/dhat.log.11"), "child log");
        assert!(!dir.path().join("children/dhat.out.9").exists());
        // No file of the benchmark's process among several: an error that names them.
        std::fs::write(dir.path().join("dhat.out.new.13"), "x").unwrap();
        let e = settle(&tool, &paths, 12).unwrap_err();
        assert!(e.contains("(13)") && e.contains("pid 12"), "{e}");
        // What a failed run left is cleared before the next.
        clear(&tool, &paths);
        assert!(!dir.path().join("dhat.out.new.13").exists());
        // Without a modifier, `%p` is the default.
        std::fs::write(dir.path().join("dhat.out.new.12"), "default").unwrap();
        settle(&Tool::new(ValgrindTool::DHAT), &paths, 12).unwrap();
        assert_eq!(read("dhat.out.new"), "default");
    }
}
