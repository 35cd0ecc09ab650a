//! The `filters` and `benchmarksfiltered` modes: keep the benchmarks whose name a side's regex
//! matches, and replace the matched text with one shared marker, so that, say, `BM_memcpy/8` and
//! `BM_copy/8` both become `[BM_memcpy vs. BM_copy]/8` and are compared.

use regex::{NoExpand, Regex};

use super::model::ResultSet;

/// The marker that replaces each side's match: `[FILTER_OLD vs. FILTER_NEW]`.
pub fn marker(old_filter: &str, new_filter: &str) -> String {
    format!("[{old_filter} vs. {new_filter}]")
}

/// Keeps the benchmarks of `set` that `filter` matches, renamed with `marker`.
pub fn apply(mut set: ResultSet, filter: &Regex, marker: &str) -> ResultSet {
    set.benchmarks.retain(|b| filter.is_match(&b.name));
    for b in &mut set.benchmarks {
        b.name = filter.replace_all(&b.name, NoExpand(marker)).into_owned();
    }
    // The file's entries as compare.py filters them: the same entries, the same names.
    if let Some(entries) = &mut set.gbench {
        entries.retain(|e| filter.is_match(&e.name));
        for e in entries {
            e.name = filter.replace_all(&e.name, NoExpand(marker)).into_owned();
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::model::{Benchmark, Kind};

    #[test]
    fn keeps_matches_and_renames_them() {
        let bench = |name: &str| Benchmark {
            name: name.into(),
            kind: Kind::Run,
            metrics: Vec::new(),
            error: None,
            entries: Vec::new(),
        };
        let set = ResultSet {
            label: "x".into(),
            benchmarks: vec![
                bench("BM_memcpy/8"),
                bench("BM_copy/8"),
                bench("BM_memcpy/64"),
            ],
            ..ResultSet::default()
        };
        let m = marker("BM_memcpy", "BM_copy");
        let kept = apply(set, &Regex::new("BM_memcpy").unwrap(), &m);
        let names: Vec<_> = kept.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            ["[BM_memcpy vs. BM_copy]/8", "[BM_memcpy vs. BM_copy]/64"]
        );
    }
}
