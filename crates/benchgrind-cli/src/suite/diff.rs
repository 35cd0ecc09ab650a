//! `suite diff`: the same engine across result files (e.g. before and after a change), one row
//! per benchmark and engine, one column per file. With `--fail-above R` it exits with code 3
//! when the last file's value is more than R times the first file's, or is an error.

use std::collections::BTreeMap;

use super::{
    args,
    cmp::fail,
    grouped::{self, CompareFlags, Entry},
    table,
};

const USAGE: &str = "\
Compare the same engines across result files, e.g. before and after a change.

USAGE:
    benchgrind suite diff [OPTIONS] <old-results> <new-results> ...

    One row per benchmark and engine, one column per file; each cell is the statistic and how
    many times the best file's value it is. --fail-above compares the last file to the first.

OPTIONS:
{filters}
{compare}
    -h, --help                   print this help
";

/// Runs `suite diff`.
pub fn run(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    let help = USAGE
        .replace("{filters}", args::FILTER_USAGE)
        .replace("{compare}", grouped::COMPARE_USAGE);
    let Some(f) = CompareFlags::parse(p, &help, false)? else {
        return Ok(0);
    };
    let (entries, _) = grouped::load(&f.paths, &f.filters)?;
    let sources: Vec<String> = f.paths.iter().map(|p| p.display().to_string()).collect();
    let mut groups: BTreeMap<(&str, &str), BTreeMap<&str, &Entry>> = BTreeMap::new();
    for e in &entries {
        if groups
            .entry((&e.m.name, &e.m.engine))
            .or_default()
            .insert(&e.source, e)
            .is_some()
        {
            anyhow::bail!(
                "{}: benchmark '{}' with engine '{}' appears twice in the same file",
                e.source,
                e.m.name,
                e.m.engine
            );
        }
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
        let mut best_seen = false;
        let others: Vec<f64> = ok
            .iter()
            .filter_map(|e| {
                let v = e.m.stat(f.stat);
                if v == best && !best_seen {
                    best_seen = true;
                    None
                } else {
                    Some(grouped::ratio(v, best))
                }
            })
            .collect();
        if !f.range.show(&others) {
            continue;
        }
        if let Some(limit) = f.fail_above {
            let (first, last) = (
                by_src.get(sources[0].as_str()),
                by_src.get(sources[sources.len() - 1].as_str()),
            );
            match (first, last) {
                (_, Some(l)) if l.m.err.is_some() => violations.push(format!(
                    "{bench} {engine}: error in {}: {}",
                    l.source,
                    l.m.err.as_deref().unwrap_or_default()
                )),
                (Some(a), Some(b)) if a.m.err.is_none() && sources.len() > 1 => {
                    let r = grouped::ratio(b.m.stat(f.stat), a.m.stat(f.stat));
                    if r > limit {
                        violations.push(format!(
                            "{bench} {engine}: {r:.2}x from {} to {}, above --fail-above {limit} ({} -> {})",
                            a.source,
                            b.source,
                            grouped::value(&a.m, f.stat),
                            grouped::value(&b.m, f.stat),
                        ));
                    }
                }
                _ => {}
            }
        }
        let mut row = vec![bench.to_string(), engine.to_string()];
        for src in &sources {
            row.push(match by_src.get(src.as_str()) {
                None => "-".into(),
                Some(e) if e.m.err.is_some() => "ERROR".into(),
                Some(e) => grouped::cell(
                    &e.m,
                    f.stat,
                    f.units,
                    grouped::ratio(e.m.stat(f.stat), best),
                ),
            });
            shown.extend(by_src.get(src.as_str()));
        }
        rows.push(row);
    }
    print!("{}", table::render(&rows));
    print!("{}", grouped::errors_section(&shown, true));
    Ok(fail(&violations))
}
