//! The files of a tool run with [`Tool::outfile_modifier`]: with `--trace-children=yes` each
//! process writes its own, named `<file>.new.<expansion>`. After the run the benchmark's own
//! process's files take the usual names (`dhat.out.new`, read and rotated as without a
//! modifier); its children's move to `children/<file>.<expansion>`, replacing those of the
//! tool's last run.

use std::path::{Path, PathBuf};

use crate::config::Tool;
use crate::store::{BenchPaths, Which};

/// The directory, in the benchmark's, that holds the child processes' files.
pub const CHILDREN: &str = "children";

/// Moves the files of the run of `tool` whose benchmark process had the id `pid` to their
/// places; returns the children's files. Without a modifier there is nothing to move.
pub fn settle(tool: &Tool, paths: &BenchPaths, pid: u32) -> Result<Vec<PathBuf>, String> {
    let Some(modifier) = &tool.modifier else {
        return Ok(Vec::new());
    };
    let own = expand(modifier, pid);
    let children_dir = paths.dir.join(CHILDREN);
    let mut children = Vec::new();
    for name in tool.kind().files() {
        remove_earlier(&children_dir, &name);
        let new = paths.file(&name, Which::New);
        let prefix = format!("{}.", file_name(&new));
        let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(&paths.dir)
            .map_err(|e| format!("cannot read {}: {e}", paths.dir.display()))?
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
        // The process's own expansion; failing that (`%q{VAR}` without `%p`) the first file.
        let mine = found
            .iter()
            .position(|(expansion, _)| *expansion == own)
            .or_else(|| (!modifier.contains("%p") && !found.is_empty()).then_some(0));
        for (i, (expansion, path)) in found.iter().enumerate() {
            let target = if Some(i) == mine {
                new.clone()
            } else {
                std::fs::create_dir_all(&children_dir)
                    .map_err(|e| format!("cannot create {}: {e}", children_dir.display()))?;
                children_dir.join(format!("{name}.{expansion}"))
            };
            std::fs::rename(path, &target).map_err(|e| {
                format!(
                    "cannot move {} to {}: {e}",
                    path.display(),
                    target.display()
                )
            })?;
            if target != new {
                children.push(target);
            }
        }
    }
    Ok(children)
}

/// `modifier` as Valgrind expands it for the process `pid`, but for `%q{VAR}`, kept as is.
fn expand(modifier: &str, pid: u32) -> String {
    let mut out = String::new();
    let mut chars = modifier.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('p') => out.push_str(&pid.to_string()),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
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
    fn the_process_id_and_percent_expand_and_the_rest_stays() {
        assert_eq!(expand("%p", 42), "42");
        assert_eq!(expand("pid-%p.%%.%q{HOME}", 7), "pid-7.%.%q{HOME}");
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
        let mut children = settle(&tool, &paths, 10).unwrap();
        children.sort();
        let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(read("dhat.out.new"), "own");
        assert_eq!(read("dhat.log.new"), "own log");
        assert_eq!(read("children/dhat.out.11"), "child");
        assert_eq!(read("children/dhat.log.11"), "child log");
        assert!(!dir.path().join("children/dhat.out.9").exists());
        assert_eq!(children.len(), 2);
        // Without a modifier nothing moves.
        std::fs::write(dir.path().join("dhat.out.new.12"), "x").unwrap();
        assert!(settle(&Tool::new(ValgrindTool::DHAT), &paths, 12)
            .unwrap()
            .is_empty());
        assert!(dir.path().join("dhat.out.new.12").exists());
    }
}
