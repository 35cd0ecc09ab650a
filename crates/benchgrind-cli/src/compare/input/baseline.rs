//! A saved baseline as one side: every `baseline.<NAME>.callgrind.out` below the benchgrind home
//! (`--save-baseline=NAME` writes them, one per benchmark directory).
//!
//! A baseline is a Callgrind profile, not a summary (the `summary.json` next to it is the last
//! run's, which may be another), so its totals are read with the bench binary's own parser and
//! turned into metrics by the same code (`benchgrind_runner::metrics`): a baseline compared here
//! shows exactly the numbers the bench binary shows for it. The benchmark's id comes from the
//! directory, `<package>/<bench file>/<group>/<function>[.<id>]`, as the runner lays it out.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Profile, Read};

use super::summary::find_files;
use crate::compare::model::{Benchmark, Kind, Metric, ResultSet};

/// Whether `name` can be a baseline name (the bench binary's rule: letters, digits, `-`, `_`,
/// `.`); anything else on the command line is a path.
pub fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The profiles of baseline `name` below `home`, in path order; empty when there are none.
pub fn find(home: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let file = format!("baseline.{name}.callgrind.out");
    let mut found = Vec::new();
    if home.is_dir() {
        find_files(home, &|f| f == file, &mut found)?;
    }
    found.sort();
    Ok(found)
}

/// Reads baseline `name` below `home`.
pub fn load(home: &Path, name: &str, label: String) -> Result<ResultSet> {
    let profiles = find(home, name)?;
    if profiles.is_empty() {
        bail!(
            "no baseline `{name}` below `{}` (no `baseline.{name}.callgrind.out`)",
            home.display()
        );
    }
    let mut benchmarks: Vec<Benchmark> = Vec::new();
    for profile in profiles {
        let id = id_of(home, &profile)?;
        if benchmarks.iter().any(|b| b.name == id) {
            bail!(
                "baseline `{name}`: benchmark `{id}` is there twice below `{}` (two packages or \
                 targets with the same bench file): pass `--home` of one of them",
                home.display()
            );
        }
        let parsed = profile::parse_file(&profile, Read::Totals)
            .with_context(|| format!("cannot read baseline `{name}`"))?;
        benchmarks.push(benchmark(id, &parsed));
    }
    Ok(ResultSet {
        label,
        benchmarks,
        ..ResultSet::default()
    })
}

/// The benchmark `id` of a baseline: its profile's metrics, derived as the bench binary derives
/// them.
pub fn benchmark(id: String, profile: &Profile) -> Benchmark {
    let metrics = Metrics::from_profile(profile);
    Benchmark {
        name: id,
        kind: Kind::Run,
        metrics: metrics
            .values
            .iter()
            .map(|&(kind, value)| Metric::count(kind, value as f64))
            .collect(),
        error: None,
        entries: Vec::new(),
    }
}

/// `file::group::function[::id]` from the profile's directory below `home`.
fn id_of(home: &Path, profile: &Path) -> Result<String> {
    let dir = profile.parent().unwrap_or(home);
    let parts: Vec<&str> = dir
        .strip_prefix(home)
        .unwrap_or(dir)
        .iter()
        .filter_map(|p| p.to_str())
        .collect();
    let [.., file, group, leaf] = parts[..] else {
        bail!(
            "`{}` is not in a benchmark directory (`<package>/<bench file>/<group>/<function>`) \
             below `{}`",
            profile.display(),
            home.display()
        );
    };
    // Function and bench ids are Rust identifiers: the first `.` separates them.
    Ok(match leaf.split_once('.') {
        Some((function, id)) => format!("{file}::{group}::{function}::{id}"),
        None => format!("{file}::{group}::{leaf}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_directories() {
        let home = Path::new("/h");
        let id = |p: &str| id_of(home, Path::new(p)).map_err(|e| e.to_string());
        assert_eq!(
            id("/h/pkg/bench/group/func.case/baseline.x.callgrind.out").unwrap(),
            "bench::group::func::case"
        );
        assert_eq!(
            id("/h/x86_64-unknown-linux-gnu/pkg/bench/group/func/baseline.x.callgrind.out")
                .unwrap(),
            "bench::group::func"
        );
        assert!(id("/h/func/baseline.x.callgrind.out").is_err());
    }

    #[test]
    fn names_follow_the_bench_binarys_rule() {
        for good in ["main", "v1.2", "before-change", "a_b"] {
            assert!(is_name(good), "{good}");
        }
        for bad in ["", "a/b", "./x", ".hidden", "a b"] {
            assert!(!is_name(bad), "{bad}");
        }
    }
}
