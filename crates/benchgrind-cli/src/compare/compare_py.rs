//! Where compare.py, Google Benchmark's own comparison tool, reports the same two Google
//! Benchmark files otherwise than `compare`, and why, so that the report can say so.
//!
//! What compare.py does, as observed by running it (Debian's `libbenchmark-tools`) on Google
//! Benchmark's test inputs: it orders each file's entries by family, family instance, runs before
//! aggregates, and repetition index; groups them by name alone; keeps the entries of a name in
//! the time unit of the old side's first entry of that name that has times; and pairs the i-th
//! entry of a name on one side with the i-th on the other, whatever each is. Its U test takes
//! every entry of a name on each side when both have two or more. Its OVERALL_GEOMEAN takes
//! every entry of each file that is not an aggregate, paired or not. A change from 0 is
//! `(new - old) / mean(old, new)`, so +2.0000 for anything new.
//!
//! `compare` pairs like with like (see [`super::diff`]), keeps its geometric mean to the runs it
//! compares (a benchmark added or removed does not move it), and shows a change from 0 as
//! `n/a`. Each of compare.py's rows is checked here against this comparison: a row with the same
//! entries and the same numbers is the same row; any other is a [`Difference`] with compare.py's
//! numbers and the reason, and so is each row of this comparison that compare.py lacks.

use std::collections::{HashMap, HashSet};

use super::diff::{BenchDiff, Comparison, MetricDiff, GEOMEAN_NAME};
pub use super::diff::{Difference, Row};
use super::model::{GbEntry, Kind, ResultSet};
use super::stats;

/// What this comparison shows for one pair of entries.
struct Ours<'a> {
    bench: &'a BenchDiff,
    time: Option<Option<f64>>,
    cpu: Option<Option<f64>>,
}

/// compare.py's report of `old` against `new`, set against `cmp`; empty unless both sides are
/// Google Benchmark JSON. `utest` is whether U tests were asked for (compare.py's `--no-utest`).
pub fn differences(
    old: &ResultSet,
    new: &ResultSet,
    cmp: &Comparison,
    utest: bool,
) -> Vec<Difference> {
    let (Some(lhs), Some(rhs)) = (&old.gbench, &new.gbench) else {
        return Vec::new();
    };
    let (lhs, rhs) = (sorted(lhs), sorted(rhs));
    let mut out = Vec::new();

    // This comparison's pairs of entries, by (old id, new id).
    let mut ours: HashMap<(usize, usize), Ours<'_>> = HashMap::new();
    for bench in &cmp.benchmarks {
        let (o, n) = &bench.entries;
        for (k, pair) in o.iter().copied().zip(n.iter().copied()).enumerate() {
            let change = |name: &str| {
                let m = bench.metrics.iter().find(|m| m.name == name)?;
                Some(pair_change(m, k))
            };
            ours.insert(
                pair,
                Ours {
                    bench,
                    time: change("time"),
                    cpu: change("cpu"),
                },
            );
        }
    }
    // This comparison's U tests (of time), by the entries they take.
    let mut our_utests: HashMap<(Vec<usize>, Vec<usize>), &BenchDiff> = HashMap::new();
    for bench in &cmp.benchmarks {
        if metric(bench, "time").is_some_and(|m| m.utest.is_some()) {
            our_utests.insert(id_sets(&bench.entries.0, &bench.entries.1), bench);
        }
    }

    let new_names: HashSet<&str> = rhs.iter().map(|e| e.name.as_str()).collect();
    let mut names: Vec<&str> = Vec::new();
    let mut seen = HashSet::new();
    for e in &lhs {
        if new_names.contains(e.name.as_str()) && seen.insert(e.name.as_str()) {
            names.push(&e.name);
        }
    }
    for name in names {
        let Some(unit) = lhs
            .iter()
            .find(|e| e.name == name && has_times(e))
            .and_then(|e| e.time_unit.as_deref())
        else {
            continue;
        };
        let (l, r) = (of_unit(&lhs, name, unit), of_unit(&rhs, name, unit));
        for (i, (a, b)) in l.iter().zip(&r).enumerate() {
            let time = py_change(a.real_time, b.real_time);
            let cpu = py_change(a.cpu_time, b.cpu_time);
            let row = |reason: String| Difference {
                name: name.to_string(),
                row: Row::Pair(i),
                time,
                cpu,
                reason,
            };
            match ours.remove(&(a.id, b.id)) {
                Some(p) => {
                    let same = |o: Option<Option<f64>>, py: Option<f64>| match o {
                        Some(o) => close(o, py),
                        None => py.is_none(),
                    };
                    if !same(p.time, time) || !same(p.cpu, cpu) {
                        let zero = [a.real_time, a.cpu_time].contains(&Some(0.0));
                        out.push(row(if zero {
                            "a change from 0 is n/a here; compare.py divides by the mean of the \
                             two values"
                                .into()
                        } else {
                            format!("{} shows other values", p.bench.label)
                        }));
                    }
                }
                None => out.push(row(pairing_reason(a, b, &l, &r))),
            }
        }
        if utest && l.len() >= 2 && r.len() >= 2 {
            let p = |field: fn(&GbEntry) -> Option<f64>| {
                let values = |side: &[&GbEntry]| side.iter().map(|e| field(e)).collect();
                let (x, y): (Option<Vec<f64>>, Option<Vec<f64>>) = (values(&l), values(&r));
                stats::mann_whitney_u(&x?, &y?).map(|u| u.p_value)
            };
            let (time, cpu) = (p(|e| e.real_time), p(|e| e.cpu_time));
            // compare.py leaves the row out when either p-value is 0.
            let shown = time.is_some_and(|p| p != 0.0) && cpu.is_some_and(|p| p != 0.0);
            let ids = |side: &[&GbEntry]| side.iter().map(|e| e.id).collect::<Vec<_>>();
            let key = id_sets(&ids(&l), &ids(&r));
            match our_utests.remove(&key) {
                Some(bench) if shown => {
                    let p_of = |name| metric(bench, name).and_then(|m| m.utest.map(|u| u.p_value));
                    if !close(p_of("time"), time) || !close(p_of("cpu"), cpu) {
                        out.push(Difference {
                            name: format!("{name}_pvalue"),
                            row: Row::UTest,
                            time,
                            cpu,
                            reason: format!("{} shows other p-values", bench.label),
                        });
                    }
                }
                Some(bench) => out.push(Difference {
                    name: bench.label.clone(),
                    row: Row::Absent,
                    time: None,
                    cpu: None,
                    reason: "compare.py shows no U test where a p-value is 0".into(),
                }),
                None if shown => out.push(Difference {
                    name: format!("{name}_pvalue"),
                    row: Row::UTest,
                    time,
                    cpu,
                    reason: if l.iter().chain(&r).any(|e| e.failed) {
                        "a failed benchmark is listed here, not compared".into()
                    } else {
                        format!(
                            "compare.py tests {} against {}; here a U test takes the \
                             repetitions of one run",
                            kinds(&l),
                            kinds(&r)
                        )
                    },
                }),
                None => {}
            }
        }
    }

    // Rows of this comparison that compare.py does not have, once per benchmark.
    let mut absent: Vec<(&BenchDiff, String)> = Vec::new();
    let by_id = |side: &[&'_ GbEntry]| -> HashMap<usize, GbEntry> {
        side.iter().map(|e| (e.id, (*e).clone())).collect()
    };
    let (old_by_id, new_by_id) = (by_id(&lhs), by_id(&rhs));
    let mut left: Vec<((usize, usize), Ours<'_>)> = ours.into_iter().collect();
    left.sort_by_key(|(pair, _)| *pair);
    for ((o, n), p) in left {
        if absent.iter().any(|(b, _)| std::ptr::eq(*b, p.bench)) {
            continue;
        }
        let (Some(a), Some(b)) = (old_by_id.get(&o), new_by_id.get(&n)) else {
            continue;
        };
        let reason = if !has_times(a) || !has_times(b) {
            "compare.py leaves out entries without time_unit, real_time and cpu_time".to_string()
        } else if a.time_unit != b.time_unit {
            format!(
                "its time units differ ({} old, {} new); compare.py leaves out entries in another \
                 unit than the old side's first, here times are converted",
                a.time_unit.as_deref().unwrap_or("?"),
                b.time_unit.as_deref().unwrap_or("?")
            )
        } else {
            "compare.py pairs these entries otherwise (see its rows above)".to_string()
        };
        absent.push((p.bench, reason));
    }
    for bench in our_utests.into_values() {
        absent.push((
            bench,
            "its U test: compare.py has none for these entries".into(),
        ));
    }
    out.extend(absent.into_iter().map(|(bench, reason)| Difference {
        name: bench.label.clone(),
        row: Row::Absent,
        time: None,
        cpu: None,
        reason,
    }));

    if let Some(d) = geomean_difference(&lhs, &rhs, cmp) {
        out.push(d);
    }
    out
}

/// compare.py's OVERALL_GEOMEAN set against this comparison's, if they differ.
fn geomean_difference(lhs: &[&GbEntry], rhs: &[&GbEntry], cmp: &Comparison) -> Option<Difference> {
    let runs = |side: &[&GbEntry]| -> Vec<usize> {
        let mut ids: Vec<usize> = side.iter().filter(|e| !e.aggregate).map(|e| e.id).collect();
        ids.sort_unstable();
        ids
    };
    let compared = |pick: fn(&BenchDiff) -> &Vec<usize>| -> Vec<usize> {
        let mut ids: Vec<usize> = cmp
            .benchmarks
            .iter()
            .filter(|b| b.kind == Kind::Run && metric(b, "time").is_some())
            .flat_map(|b| pick(b).iter().copied())
            .collect();
        ids.sort_unstable();
        ids
    };
    let (py_old, py_new) = (runs(lhs), runs(rhs));
    let (our_old, our_new) = (compared(|b| &b.entries.0), compared(|b| &b.entries.1));
    let (gl, gr) = (py_geomean(lhs), py_geomean(rhs));
    let py = match (gl, gr) {
        (Some(Some(l)), Some(Some(r)))
            if l.iter().any(|v| *v != 0.0) && r.iter().any(|v| *v != 0.0) =>
        {
            Some((
                py_change(Some(l[0]), Some(r[0])),
                py_change(Some(l[1]), Some(r[1])),
            ))
        }
        _ => None,
    };
    let our = |name: &str| {
        cmp.geomean
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.summary.change)
    };
    let same_sets = py_old == our_old && py_new == our_new;
    let same_values = match py {
        Some((t, c)) => {
            our("time").is_some_and(|o| close(o, t)) && our("cpu").is_some_and(|o| close(o, c))
        }
        None => our("time").is_none() && our("cpu").is_none(),
    };
    if same_sets && same_values {
        return None;
    }
    let reason = if gl.is_some_and(|g| g.is_none()) || gr.is_some_and(|g| g.is_none()) {
        "compare.py cannot compute it: a run without real_time or cpu_time, or of an unknown \
         time unit"
            .to_string()
    } else if !same_sets {
        format!(
            "compare.py's geometric mean takes every run of each file ({} old, {} new), paired or not; here the \
             runs compared ({} old, {} new)",
            py_old.len(),
            py_new.len(),
            our_old.len(),
            our_new.len()
        )
    } else if py.is_none() {
        "compare.py shows none when a side's geometric means are 0".to_string()
    } else {
        "a change from 0 is n/a here; compare.py divides by the mean of the two values".to_string()
    };
    let (time, cpu) = py.unwrap_or((None, None));
    Some(Difference {
        name: GEOMEAN_NAME.to_string(),
        row: Row::Geomean,
        time,
        cpu,
        reason,
    })
}

/// The geometric means of real and CPU time, in seconds, over the runs of a side, as compare.py
/// computes them: `None` without runs, `Some(None)` where compare.py stops with an error.
fn py_geomean(side: &[&GbEntry]) -> Option<Option<[f64; 2]>> {
    let runs: Vec<&GbEntry> = side.iter().filter(|e| !e.aggregate).copied().collect();
    if runs.is_empty() {
        return None;
    }
    let mut columns = [Vec::new(), Vec::new()];
    for e in runs {
        let scale = match e.time_unit.as_deref().unwrap_or("s") {
            "ns" => 1e-9,
            "us" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            _ => return Some(None),
        };
        let (Some(real), Some(cpu)) = (e.real_time, e.cpu_time) else {
            return Some(None);
        };
        columns[0].push(real * scale);
        columns[1].push(cpu * scale);
    }
    Some(Some(columns.map(|c| {
        if c.iter().any(|v| *v < 0.0 || v.is_nan()) {
            f64::NAN
        } else if c.contains(&0.0) {
            0.0
        } else {
            (c.iter().map(|v| v.ln()).sum::<f64>() / c.len() as f64).exp()
        }
    })))
}

/// The entries in compare.py's order: by family, family instance, runs before aggregates, and
/// repetition index, each missing index first; the file's order otherwise.
fn sorted(entries: &[GbEntry]) -> Vec<&GbEntry> {
    let mut out: Vec<&GbEntry> = entries.iter().collect();
    out.sort_by_key(|e| {
        let [family, instance, repetition] = e.order.map(|i| i.unwrap_or(-1));
        (family, instance, e.aggregate, repetition)
    });
    out
}

/// The entries of `name` in `unit`, which compare.py pairs.
fn of_unit<'a>(side: &[&'a GbEntry], name: &str, unit: &str) -> Vec<&'a GbEntry> {
    side.iter()
        .filter(|e| e.name == name && e.time_unit.as_deref() == Some(unit))
        .copied()
        .collect()
}

/// Whether compare.py takes the entry for one it can compare.
fn has_times(e: &GbEntry) -> bool {
    e.time_unit.is_some() && e.real_time.is_some() && e.cpu_time.is_some()
}

/// compare.py's change: 0 from 0 to 0, `(new - old) / mean(old, new)` from 0, else
/// `(new - old) / |old|`.
fn py_change(old: Option<f64>, new: Option<f64>) -> Option<f64> {
    let (old, new) = (old?, new?);
    Some(if old == 0.0 && new == 0.0 {
        0.0
    } else if old == 0.0 {
        (new - old) / ((old + new) / 2.0)
    } else {
        (new - old) / old.abs()
    })
}

/// Whether two numbers agree (NaN and `None` standing for the same missing value).
fn close(ours: Option<f64>, theirs: Option<f64>) -> bool {
    let ours = ours.filter(|v| !v.is_nan());
    let theirs = theirs.filter(|v| !v.is_nan());
    match (ours, theirs) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * b.abs().max(1.0),
        _ => false,
    }
}

/// The change this comparison shows for the k-th pair of a metric.
fn pair_change(m: &MetricDiff, k: usize) -> Option<f64> {
    if m.repetitions.is_empty() {
        m.summary.change
    } else {
        m.repetitions.get(k).and_then(|c| c.change)
    }
}

/// A benchmark's metric by name.
fn metric<'a>(bench: &'a BenchDiff, name: &str) -> Option<&'a MetricDiff> {
    bench.metrics.iter().find(|m| m.name == name)
}

/// The entry ids of both sides, sorted, as a key for a U test (which does not see order).
fn id_sets(old: &[usize], new: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let sort = |ids: &[usize]| {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        ids
    };
    (sort(old), sort(new))
}

/// An entry among those of its name on its side: `run #1`, `aggregate #0`, `aggregate mean #0`.
fn describe(e: &GbEntry, side: &[&GbEntry]) -> String {
    let alike = |x: &&&GbEntry| x.aggregate == e.aggregate && x.aggregate_name == e.aggregate_name;
    let k = side
        .iter()
        .take_while(|x| x.id != e.id)
        .filter(alike)
        .count();
    let failed = if e.failed { " (failed)" } else { "" };
    match (&e.aggregate_name, e.aggregate) {
        (_, false) => format!("run #{k}{failed}"),
        (Some(stat), true) => format!("aggregate {stat} #{k}{failed}"),
        (None, true) => format!("aggregate #{k}{failed}"),
    }
}

/// What a side's entries of a name are: `2 runs`, `1 run and 2 aggregates`.
fn kinds(side: &[&GbEntry]) -> String {
    let aggregates = side.iter().filter(|e| e.aggregate).count();
    let runs = side.len() - aggregates;
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match (runs, aggregates) {
        (_, 0) => plural(runs, "run"),
        (0, _) => plural(aggregates, "aggregate"),
        _ => format!(
            "{} and {}",
            plural(runs, "run"),
            plural(aggregates, "aggregate")
        ),
    }
}

/// Why compare.py pairs two entries that this comparison does not.
fn pairing_reason(a: &GbEntry, b: &GbEntry, l: &[&GbEntry], r: &[&GbEntry]) -> String {
    let what = format!(
        "compare.py pairs old {} with new {}",
        describe(a, l),
        describe(b, r)
    );
    if a.failed || b.failed {
        format!("{what}; a failed benchmark is listed here, not compared")
    } else if a.aggregate != b.aggregate {
        format!("{what} (it pairs a name's entries by position); here runs pair with runs only")
    } else {
        format!(
            "{what} (it pairs a name's entries by position); here each aggregate pairs with the \
             same aggregate"
        )
    }
}
