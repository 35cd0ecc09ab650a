//! What `cmp`, `diff`, `rank` and `report` share: reading result files with filters, refusing
//! to mix metrics, ratios against the best value, the text of one cell, the list of error rows
//! that every comparison ends with (a failed benchmark is never silently dropped), the flags of
//! `cmp` and `diff`, and their `--fail-above` verdict.

use std::path::PathBuf;

use anyhow::Context;

use super::{
    flags::{self, Filters, Stat, Units},
    results::{self, Measurement, Metric},
    table::{human_duration, throughput},
};
use crate::exit::Outcome;
use crate::usage::{self, Opt, UsageError};

/// A measurement and the file it came from.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The file path as given on the command line.
    pub source: String,
    /// The measurement.
    pub m: Measurement,
}

/// The result files of a comparison command; none is a usage error.
pub fn result_files(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, UsageError> {
    if paths.is_empty() {
        return Err(UsageError::new(
            "no result files given (write them with `benchgrind suite measure > results.csv`)",
        ));
    }
    Ok(paths)
}

/// Reads all files, applies the filters, and checks that they hold one metric only.
pub fn load(paths: &[PathBuf], filters: &Filters) -> anyhow::Result<(Vec<Entry>, Metric)> {
    let mut entries = vec![];
    for path in paths {
        let source = path.display().to_string();
        let ms = results::read_file(path)
            .with_context(|| format!("cannot read results from {source}"))?;
        for m in ms {
            if filters.include(&m.name, &m.model, &m.engine) {
                entries.push(Entry {
                    source: source.clone(),
                    m,
                });
            }
        }
    }
    let metric = entries
        .iter()
        .find(|e| e.m.err.is_none())
        .map_or(Metric::Time, |e| e.m.metric);
    if let Some(other) = entries
        .iter()
        .find(|e| e.m.err.is_none() && e.m.metric != metric)
    {
        anyhow::bail!(
            "{}: the results mix metrics ({} and {}); compare time and instruction results separately",
            other.source,
            metric.as_str(),
            other.m.metric.as_str()
        );
    }
    Ok((entries, metric))
}

/// Groups entries by `key`, the groups in the order their keys first appear: the order of the
/// result files, then of their rows (rebar's order for `cmp`, `diff` and `report`).
pub fn first_seen<'a, K: Ord + Copy>(
    entries: &'a [Entry],
    key: impl Fn(&'a Entry) -> K,
) -> Vec<(K, Vec<&'a Entry>)> {
    let mut index: std::collections::BTreeMap<K, usize> = Default::default();
    let mut groups: Vec<(K, Vec<&Entry>)> = vec![];
    for e in entries {
        let k = key(e);
        let i = *index.entry(k).or_insert_with(|| {
            groups.push((k, vec![]));
            groups.len() - 1
        });
        groups[i].1.push(e);
    }
    groups
}

/// `--intersection` as rebar applies it to a report: only the benchmarks measured without error
/// by as many engines as the most-measured benchmark (so, after `-e`, by every engine kept).
pub fn intersection(entries: &mut Vec<Entry>) {
    let mut engines: std::collections::BTreeMap<&str, usize> = Default::default();
    for e in entries.iter().filter(|e| e.m.err.is_none()) {
        *engines.entry(e.m.name.as_str()).or_default() += 1;
    }
    let most = engines.values().copied().max().unwrap_or(0);
    let keep: std::collections::BTreeSet<String> = engines
        .into_iter()
        .filter(|(_, n)| *n == most)
        .map(|(name, _)| name.to_string())
        .collect();
    entries.retain(|e| keep.contains(&e.m.name));
}

/// How many times `v` is the `best` value (1.0 for the best itself).
pub fn ratio(v: f64, best: f64) -> f64 {
    if best > 0.0 {
        v / best
    } else if v > 0.0 {
        f64::INFINITY
    } else {
        1.0
    }
}

/// A statistic as text, exact enough to tell values apart: `480469 instr` or `59.28us`
/// (`59280.5ns` below 10us, where the short form would round away differences).
pub fn value(m: &Measurement, stat: Stat) -> String {
    let v = m.stat(stat);
    match m.metric {
        Metric::Instructions => format!("{v} instr"),
        Metric::Time if v < 10_000.0 => format!("{v}ns"),
        Metric::Time => human_duration(v),
    }
}

/// The text of one value: throughput when asked for and known, else the duration or the
/// instruction count, e.g. `9.5 GB/s`. A zero duration is an infinite throughput, `inf GB/s`,
/// as rebar prints it (a `mad` or `stddev` of zero, say).
pub fn cell_value(m: &Measurement, stat: Stat, units: Units) -> String {
    let v = m.stat(stat);
    match (m.metric, units, m.haystack_len) {
        (Metric::Instructions, _, _) => format!("{v} instr"),
        (Metric::Time, Units::Throughput, Some(len)) if len > 0 => throughput(len, v),
        (Metric::Time, _, _) => human_duration(v),
    }
}

/// [`cell_value`] followed by the ratio, e.g. `9.5 GB/s (4.09x)`.
pub fn cell(m: &Measurement, stat: Stat, units: Units, ratio: f64) -> String {
    format!("{} ({ratio:.2}x)", cell_value(m, stat, units))
}

/// The closing list of error rows, or an empty string when there are none.
pub fn errors_section(entries: &[&Entry], with_source: bool) -> String {
    let errs: Vec<&&Entry> = entries.iter().filter(|e| e.m.err.is_some()).collect();
    if errs.is_empty() {
        return String::new();
    }
    let mut out = format!("\nerrors ({}):\n", errs.len());
    for e in errs {
        let src = if with_source {
            format!(" [{}]", e.source)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  {} {}{src}: {}\n",
            e.m.name,
            e.m.engine,
            e.m.err.as_deref().unwrap_or_default()
        ));
    }
    out
}

/// A `[min, max]` range of speed ratios for `-t/--threshold-min` and `-T/--threshold-max`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Range {
    /// Lower bound.
    pub min: Option<f64>,
    /// Upper bound.
    pub max: Option<f64>,
}

impl Range {
    /// Whether `r` is within the range.
    pub fn contains(&self, r: f64) -> bool {
        self.min.map_or(true, |m| m <= r) && self.max.map_or(true, |m| r <= m)
    }

    /// Whether a row of `measured` values (errors left out) with these non-best ratios is
    /// shown: no bounds, or one ratio within them. A row of one value, whose only ratio is the
    /// best's 1.0, is shown when 1.0 is within the bounds, as in rebar (so `-T 2` keeps a
    /// benchmark only one engine ran, and `-t 2` drops it).
    pub fn show(&self, measured: usize, others: &[f64]) -> bool {
        if self.min.is_none() && self.max.is_none() {
            return true;
        }
        if measured == 1 {
            return self.contains(1.0);
        }
        others.iter().any(|&r| self.contains(r))
    }
}

/// The flags shared by `cmp` and `diff`.
#[derive(Debug, Default)]
pub struct CompareFlags {
    /// Result files.
    pub paths: Vec<PathBuf>,
    /// Name/model/engine filters.
    pub filters: Filters,
    /// `-s/--statistic`.
    pub stat: Stat,
    /// `-u/--units`.
    pub units: Units,
    /// `-t`/`-T`.
    pub range: Range,
    /// `--fail-above`.
    pub fail_above: Option<f64>,
    /// `--intersection` (cmp only).
    pub intersection: bool,
    /// `--row engine` (cmp only).
    pub row_engine: bool,
    /// `--color`, resolved: whether the best value of each row is coloured.
    pub color: bool,
}

/// The help lines of the flags `cmp` and `diff` share.
pub const COMPARE_OPTS: &[Opt] = &[
    Opt::new(
        "-s, --statistic <name>",
        "median (default), mad, mean, stddev, min or max",
    ),
    Opt::new(
        "-u, --units <unit>",
        "throughput (default, when the haystack length is known) or time",
    ),
    Opt::new(
        "-t, --threshold-min <ratio>",
        "only rows with a non-best ratio of at least this",
    ),
    Opt::new(
        "-T, --threshold-max <ratio>",
        "only rows with a non-best ratio of at most this (a row of\none engine has only the ratio 1.0)",
    ),
    Opt::new(
        "--fail-above <ratio>",
        "exit with code 3 when a ratio exceeds this or a row has an error",
    ),
];

impl CompareFlags {
    /// The text of a row's best cell: in bold green when colour is on, as rebar shows it.
    pub fn best(&self, cell: String) -> String {
        if self.color {
            super::table::bold_green(&cell)
        } else {
            cell
        }
    }

    /// Parses the flags; `help` is the command's usage; `cmp` accepts `cmp`'s own flags too.
    pub fn parse(
        p: &mut lexopt::Parser,
        help: &'static str,
        cmp: bool,
    ) -> Result<CompareFlags, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let mut c = CompareFlags {
            color: flags::Color::default().enabled(),
            ..CompareFlags::default()
        };
        let mut paths = vec![];
        while let Some(arg) = p.next()? {
            if let Some(kind) = Filters::kind(&arg) {
                c.filters.take(kind, p)?;
                continue;
            }
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(help)),
                Value(v) => paths.push(PathBuf::from(v)),
                Short('s') | Long("statistic") => c.stat = usage::parse(p, "-s/--statistic")?,
                Short('u') | Long("units") => c.units = usage::parse(p, "-u/--units")?,
                Short('t') | Long("threshold-min") => {
                    c.range.min = Some(flags::ratio(p, "-t/--threshold-min")?)
                }
                Short('T') | Long("threshold-max") => {
                    c.range.max = Some(flags::ratio(p, "-T/--threshold-max")?)
                }
                Long("fail-above") => c.fail_above = Some(flags::ratio(p, "--fail-above")?),
                Long("intersection") if cmp => c.intersection = true,
                Long("row") if cmp => c.row_engine = row_engine(p)?,
                Long("color") => c.color = usage::parse::<flags::Color>(p, "--color")?.enabled(),
                other => return Err(other.unexpected().into()),
            }
        }
        c.paths = result_files(paths)?;
        Ok(c)
    }
}

/// `--row`: whether the rows are engines.
fn row_engine(p: &mut lexopt::Parser) -> Result<bool, UsageError> {
    match usage::string(p, "--row")?.as_str() {
        "benchmark" => Ok(false),
        "engine" => Ok(true),
        other => Err(UsageError::new(format!(
            "--row: expected benchmark or engine, got '{other}'"
        ))),
    }
}

/// Prints the `--fail-above` violations; past the limit when there are any.
pub fn fail_above(violations: &[String]) -> Outcome {
    if violations.is_empty() {
        return Outcome::Done;
    }
    crate::messages::error!(
        "{} result(s) fail the --fail-above check:",
        violations.len()
    );
    for v in violations {
        crate::messages::item!("{v}");
    }
    Outcome::PastLimit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        let m = |median: f64, mad: f64, len: Option<u64>| Measurement {
            median,
            mad,
            haystack_len: len,
            ..Measurement::default()
        };
        let table = [
            (
                m(59_280.0, 0.0, Some(607_430)),
                Stat::Median,
                Units::Throughput,
                "9.5 GB/s (1.00x)",
            ),
            // A zero spread is an infinite throughput, as rebar prints it, not a time.
            (
                m(59_280.0, 0.0, Some(607_430)),
                Stat::Mad,
                Units::Throughput,
                "inf GB/s (1.00x)",
            ),
            (
                m(59_280.0, 0.0, Some(607_430)),
                Stat::Mad,
                Units::Time,
                "0.00ns (1.00x)",
            ),
            // Without a haystack length there is no throughput.
            (
                m(59_280.0, 0.0, None),
                Stat::Mad,
                Units::Throughput,
                "0.00ns (1.00x)",
            ),
            (
                m(59_280.0, 0.0, Some(0)),
                Stat::Median,
                Units::Throughput,
                "59.28us (1.00x)",
            ),
        ];
        for (m, stat, units, want) in table {
            assert_eq!(cell(&m, stat, units, 1.0), want, "{stat:?} {units:?}");
        }
    }
}
