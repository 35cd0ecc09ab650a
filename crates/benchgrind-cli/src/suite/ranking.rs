//! The ranking of `suite rank` and `suite report`: engines ordered by the geometric mean of their
//! speed ratios (value / best value of the benchmark), over every benchmark they measured without
//! error.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    flags::Stat,
    grouped::{self, Entry},
};

/// One engine's line in the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Rank {
    /// Engine name.
    pub engine: String,
    /// Engine version (the last seen).
    pub version: String,
    /// Geometric mean of the ratios.
    pub geomean: f64,
    /// Number of benchmarks.
    pub count: usize,
}

/// Computes the ranking of the error-free entries; with `intersection`, only over benchmarks
/// that every engine measured.
pub fn ranking(entries: &[Entry], stat: Stat, intersection: bool) -> Vec<Rank> {
    let mut by_bench: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries.iter().filter(|e| e.m.err.is_none()) {
        by_bench.entry(&e.m.name).or_default().push(e);
    }
    let all: BTreeSet<&str> = entries.iter().map(|e| e.m.engine.as_str()).collect();
    let mut logs: BTreeMap<&str, (f64, usize, &str)> = BTreeMap::new();
    for row in by_bench.values() {
        if intersection && row.len() < all.len() {
            continue;
        }
        let best = row
            .iter()
            .map(|e| e.m.stat(stat))
            .fold(f64::INFINITY, f64::min);
        for e in row {
            let slot = logs.entry(&e.m.engine).or_insert((0.0, 0, ""));
            slot.0 += grouped::ratio(e.m.stat(stat), best).ln();
            slot.1 += 1;
            slot.2 = &e.m.engine_version;
        }
    }
    let mut ranks: Vec<Rank> = logs
        .into_iter()
        .map(|(engine, (sum, n, v))| Rank {
            engine: engine.into(),
            version: v.into(),
            geomean: (sum / n as f64).exp(),
            count: n,
        })
        .collect();
    ranks.sort_by(|a, b| {
        a.geomean
            .total_cmp(&b.geomean)
            .then(a.engine.cmp(&b.engine))
    });
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::results::Measurement;

    fn e(name: &str, engine: &str, median: f64, err: bool) -> Entry {
        let m = Measurement {
            name: name.into(),
            engine: engine.into(),
            median,
            err: err.then(|| "boom".into()),
            ..Measurement::default()
        };
        Entry {
            source: "r.csv".into(),
            m,
        }
    }

    #[test]
    fn geometric_mean() {
        let entries = vec![
            e("a", "x", 1.0, false),
            e("a", "y", 4.0, false),
            e("b", "x", 9.0, false),
            e("b", "y", 1.0, false),
            e("c", "x", 2.0, false),
            e("c", "y", 0.0, true),
        ];
        let r = ranking(&entries, Stat::Median, false);
        // x: ratios 1, 9, 1 -> 9^(1/3); y: 4, 1 -> 2.
        assert_eq!(r[0].engine, "y");
        assert!((r[0].geomean - 2.0).abs() < 1e-12 && r[0].count == 2);
        assert!((r[1].geomean - 9f64.powf(1.0 / 3.0)).abs() < 1e-12 && r[1].count == 3);
        let inter = ranking(&entries, Stat::Median, true);
        assert_eq!(
            inter.iter().map(|r| r.count).collect::<Vec<_>>(),
            vec![2, 2]
        );
    }
}
