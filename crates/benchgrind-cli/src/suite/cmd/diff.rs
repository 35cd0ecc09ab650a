//! `suite diff`: the same engine across result files (e.g. before and after a change), one row
//! per benchmark and engine, one column per file. With `--fail-above R` it exits with code 3
//! when the last file's value is more than R times the first file's, or is an error. Rows keep
//! the order in which each (benchmark, engine) pair first appears in the files, as in rebar.

use std::{collections::BTreeMap, sync::LazyLock};

use crate::exit::Outcome;
use crate::suite::{
    flags,
    grouped::{self, CompareFlags, Entry},
    table,
};
use crate::usage::{self, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Compare the same engines across result files, e.g. before and after a change.

USAGE:
    benchgrind suite diff [OPTIONS] <old-results> <new-results> ...

    One row per benchmark and engine, one column per file; each cell is the statistic and how
    many times the best file's value it is. --fail-above compares the last file to the first.

",
        &[
            flags::FILTER_OPTS,
            grouped::COMPARE_OPTS,
            &[flags::COLOR_OPT, flags::HELP_OPT],
        ],
    )
});

/// What `suite diff` was asked.
#[derive(Debug)]
pub struct Config {
    /// The flags `cmp` and `diff` share.
    flags: CompareFlags,
}

impl Config {
    /// Parses the flags after `suite diff`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        let flags = CompareFlags::parse(p, USAGE.as_str(), false)?;
        Ok(Config { flags })
    }
}

/// One benchmark and engine's entries: file -> entry.
type BySource<'a> = BTreeMap<&'a str, &'a Entry>;

/// Runs `suite diff`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let f = &config.flags;
    let (entries, _) = grouped::load(&f.paths, &f.filters)?;
    let sources: Vec<String> = f.paths.iter().map(|p| p.display().to_string()).collect();
    let mut groups: Vec<((&str, &str), BySource)> = vec![];
    for (pair, group) in grouped::first_seen(&entries, |e| (e.m.name.as_str(), e.m.engine.as_str()))
    {
        let mut by_src = BySource::new();
        for e in group {
            if by_src.insert(&e.source, e).is_some() {
                anyhow::bail!(
                    "{}: benchmark '{}' with engine '{}' appears twice in the same file",
                    e.source,
                    e.m.name,
                    e.m.engine
                );
            }
        }
        groups.push((pair, by_src));
    }
    let mut head = vec!["benchmark".to_string(), "engine".to_string()];
    head.extend(sources.iter().cloned());
    let mut rows = table::header(&head);
    let mut shown: Vec<&Entry> = vec![];
    let mut violations = vec![];
    for ((bench, engine), by_src) in &groups {
        let ok: Vec<&&Entry> = by_src.values().filter(|e| e.m.err.is_none()).collect();
        let best = ok
            .iter()
            .map(|e| e.m.stat(f.stat))
            .fold(f64::INFINITY, f64::min);
        if !f.range.show(ok.len(), &others(&ok, f, best)) {
            continue;
        }
        if let Some(limit) = f.fail_above {
            if let Some(v) = violation(f, &sources, by_src, limit) {
                violations.push(format!("{bench} {engine}: {v}"));
            }
        }
        let mut row = vec![bench.to_string(), engine.to_string()];
        let mut best_shown = false;
        for src in &sources {
            row.push(match by_src.get(src.as_str()) {
                None => "-".into(),
                Some(e) if e.m.err.is_some() => "ERROR".into(),
                Some(e) => {
                    let v = e.m.stat(f.stat);
                    let text = grouped::cell(&e.m, f.stat, f.units, grouped::ratio(v, best));
                    if v == best && !best_shown {
                        best_shown = true;
                        f.best(text)
                    } else {
                        text
                    }
                }
            });
            shown.extend(by_src.get(src.as_str()));
        }
        rows.push(row);
    }
    print!("{}", table::render(&rows));
    print!("{}", grouped::errors_section(&shown, true));
    Ok(grouped::fail_above(&violations))
}

/// The ratios of the values that are not the (first) best one, for `-t`/`-T`.
fn others(ok: &[&&Entry], f: &CompareFlags, best: f64) -> Vec<f64> {
    let mut best_seen = false;
    ok.iter()
        .filter_map(|e| {
            let v = e.m.stat(f.stat);
            if v == best && !best_seen {
                best_seen = true;
                None
            } else {
                Some(grouped::ratio(v, best))
            }
        })
        .collect()
}

/// What is past `--fail-above` between the first and the last file, if anything.
fn violation(
    f: &CompareFlags,
    sources: &[String],
    by_src: &BySource,
    limit: f64,
) -> Option<String> {
    let (first, last) = (
        by_src.get(sources[0].as_str()),
        by_src.get(sources[sources.len() - 1].as_str()),
    );
    match (first, last) {
        (_, Some(l)) if l.m.err.is_some() => Some(format!(
            "error in {}: {}",
            l.source,
            l.m.err.as_deref().unwrap_or_default()
        )),
        (Some(a), Some(b)) if a.m.err.is_none() && sources.len() > 1 => {
            let r = grouped::ratio(b.m.stat(f.stat), a.m.stat(f.stat));
            (r > limit).then(|| {
                format!(
                    "{r:.2}x from {} to {}, above --fail-above {limit} ({} -> {})",
                    a.source,
                    b.source,
                    grouped::value(&a.m, f.stat),
                    grouped::value(&b.m, f.stat),
                )
            })
        }
        _ => None,
    }
}
