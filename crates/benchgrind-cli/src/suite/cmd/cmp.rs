//! `suite cmp`: engines side by side, one row per benchmark (or per engine with `--row
//! engine`), each cell the statistic and its ratio to the best engine of the row. Error rows
//! show as `ERROR` and are listed below the table; `--fail-above` turns the table into a CI
//! check (exit code 3). Rows keep the order in which benchmarks first appear in the result
//! files, as in rebar; engines are sorted by name.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::LazyLock,
};

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Stat},
    grouped::{self, CompareFlags, Entry},
    table,
};
use crate::usage::{self, Opt, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Compare engines side by side from one or more result files.

USAGE:
    benchgrind suite cmp [OPTIONS] <results> ...

    Each cell is the statistic for that engine and, in parentheses, how many times the best
    engine's value it is (1.00x is the best). Result files may be rebar CSV, full CSV or JSON.

",
        &[
            flags::FILTER_OPTS,
            grouped::COMPARE_OPTS,
            &[flags::COLOR_OPT],
            &[
                Opt::new(
                    "--row <benchmark|engine>",
                    "what the rows are (default: benchmark)",
                ),
                Opt::new(
                    "--intersection",
                    "only benchmarks that every engine measured without error",
                ),
                flags::HELP_OPT,
            ],
        ],
    )
});

/// What `suite cmp` was asked.
#[derive(Debug)]
pub struct Config {
    /// The flags `cmp` and `diff` share.
    flags: CompareFlags,
}

impl Config {
    /// Parses the flags after `suite cmp`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        let flags = CompareFlags::parse(p, USAGE.as_str(), true)?;
        Ok(Config { flags })
    }
}

/// One benchmark's cells: engine -> entry.
type Row<'a> = BTreeMap<&'a str, &'a Entry>;

/// Runs `suite cmp`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let f = &config.flags;
    let (entries, _) = grouped::load(&f.paths, &f.filters)?;
    let mut by_bench: Vec<(&str, Row)> = vec![];
    for (bench, group) in grouped::first_seen(&entries, |e| e.m.name.as_str()) {
        let mut row = Row::new();
        for e in group {
            if let Some(prev) = row.insert(&e.m.engine, e) {
                anyhow::bail!("benchmark '{}' with engine '{}' appears twice ({} and {}); compare one run per engine, or use `suite diff`", e.m.name, e.m.engine, prev.source, e.source);
            }
        }
        by_bench.push((bench, row));
    }
    let engines: Vec<&str> = entries
        .iter()
        .map(|e| e.m.engine.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if f.intersection {
        by_bench.retain(|(_, row)| {
            engines
                .iter()
                .all(|en| row.get(en).is_some_and(|e| e.m.err.is_none()))
        });
    }
    // For every benchmark shown: engine -> cell text; plus CI violations.
    let mut shown: Vec<(&str, BTreeMap<&str, String>)> = vec![];
    let mut shown_entries: Vec<&Entry> = vec![];
    let mut violations = vec![];
    for (bench, row) in &by_bench {
        if let Some(cells) = cells(f, bench, row, &mut violations) {
            shown_entries.extend(row.values());
            shown.push((bench, cells));
        }
    }
    print!("{}", table::render(&layout(f.row_engine, &engines, &shown)));
    print!("{}", grouped::errors_section(&shown_entries, false));
    Ok(grouped::fail_above(&violations))
}

/// The cells of one benchmark's row, `None` when `-t`/`-T` hide it; `--fail-above` violations
/// are added to `violations`.
fn cells<'a>(
    f: &CompareFlags,
    bench: &str,
    row: &Row<'a>,
    violations: &mut Vec<String>,
) -> Option<BTreeMap<&'a str, String>> {
    let ok: Vec<&&Entry> = row.values().filter(|e| e.m.err.is_none()).collect();
    let best = ok
        .iter()
        .map(|e| e.m.stat(f.stat))
        .fold(f64::INFINITY, f64::min);
    let best_engine = ok
        .iter()
        .find(|e| e.m.stat(f.stat) == best)
        .map(|e| e.m.engine.as_str())
        .unwrap_or("");
    let ratios: BTreeMap<&str, f64> = ok
        .iter()
        .map(|e| (e.m.engine.as_str(), grouped::ratio(e.m.stat(f.stat), best)))
        .collect();
    let others: Vec<f64> = ratios
        .iter()
        .filter(|(en, _)| **en != best_engine)
        .map(|(_, r)| *r)
        .collect();
    if !f.range.show(ok.len(), &others) {
        return None;
    }
    let mut cells = BTreeMap::new();
    for (engine, e) in row {
        let text = match ratios.get(engine) {
            Some(&r) => {
                if f.fail_above.is_some_and(|limit| r > limit) {
                    violations.push(format!(
                        "{bench} {engine}: {r:.2}x the best ({best_engine}), above --fail-above {} ({} vs {})",
                        f.fail_above.unwrap_or_default(),
                        grouped::value(&e.m, f.stat),
                        human_best(row, best_engine, f.stat),
                    ));
                }
                let text = grouped::cell(&e.m, f.stat, f.units, r);
                if *engine == best_engine {
                    f.best(text)
                } else {
                    text
                }
            }
            None => {
                if f.fail_above.is_some() {
                    violations.push(format!(
                        "{bench} {engine}: error: {}",
                        e.m.err.as_deref().unwrap_or_default()
                    ));
                }
                "ERROR".to_string()
            }
        };
        cells.insert(*engine, text);
    }
    Some(cells)
}

/// The table: a row per benchmark and a column per engine, or the other way round.
fn layout(
    row_engine: bool,
    engines: &[&str],
    shown: &[(&str, BTreeMap<&str, String>)],
) -> Vec<Vec<String>> {
    let cell = |cells: &BTreeMap<&str, String>, engine: &str| {
        cells.get(engine).cloned().unwrap_or_else(|| "-".into())
    };
    if row_engine {
        let mut head = vec!["engine".to_string()];
        head.extend(shown.iter().map(|(b, _)| b.to_string()));
        let mut rows = table::header(&head);
        for engine in engines {
            let mut row = vec![engine.to_string()];
            row.extend(shown.iter().map(|(_, cells)| cell(cells, engine)));
            rows.push(row);
        }
        rows
    } else {
        let mut head = vec!["benchmark".to_string()];
        head.extend(engines.iter().map(|e| e.to_string()));
        let mut rows = table::header(&head);
        for (bench, cells) in shown {
            let mut row = vec![bench.to_string()];
            row.extend(engines.iter().map(|en| cell(cells, en)));
            rows.push(row);
        }
        rows
    }
}

/// The best engine's value, for a violation's message.
fn human_best(row: &Row, best_engine: &str, stat: Stat) -> String {
    row.get(best_engine)
        .map(|e| grouped::value(&e.m, stat))
        .unwrap_or_default()
}
