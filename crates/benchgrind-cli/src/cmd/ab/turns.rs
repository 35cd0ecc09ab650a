//! perf's benchmarks of base and head sampled in turns: after both sides are built and Callgrind
//! has measured both, `--perf-rounds` rounds, in each the base's bench binaries (kept in
//! `benchgrind-ab/base-bin/`, since the checkout has moved on to the head) and the head's run
//! with `--perf-round=FILE`, one round of sampling each, in an order drawn per round from a
//! seed (logged); then every metric is compared paired, round by round (the mean of the
//! per-round ratios head/base and its Student interval, [`benchgrind_runner::compare::perf`]),
//! so that whatever drifts during the job (the machine's load, its clock) moves both sides of a
//! round alike and cancels. The comparison replaces perf's section in the head's summaries.
//! Where perf samples none of the benchmarks, the first round finds that and no other runs.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use benchgrind_runner::compare::limits::{check, from_bounds, Gate};
use benchgrind_runner::compare::perf::{paired, PerfMetricResult};
use benchgrind_runner::error::FileResult;
use benchgrind_runner::perf::samples::RoundMean;
use benchgrind_runner::perf::stats::Summary;
use benchgrind_runner::report::summary::{Summary as BenchSummary, WirePerf};
use benchgrind_runner::result::PerfResult;

/// The default number of rounds in turns (`--perf-rounds`).
pub const DEFAULT_ROUNDS: usize = 10;

/// One side's bench binaries and the directory each runs in.
pub type Benches = Vec<(PathBuf, PathBuf)>;

/// The list of the base's kept bench binaries, below `base-bin/`.
const LIST: &str = "list";

/// Copies the base's bench binaries to `dir` (emptied first) with a list of them and their
/// packages' directories, so that they can run after the checkout has moved to the head.
pub fn keep_base(benches: &Benches, dir: &Path) -> Result<()> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).file_op("create", dir)?;
    let mut list = String::new();
    for (i, (exe, package_dir)) in benches.iter().enumerate() {
        let name = exe
            .file_name()
            .map_or("bench".into(), |n| n.to_string_lossy());
        let kept = dir.join(format!("{i}-{name}"));
        std::fs::copy(exe, &kept).file_op("copy the base's bench binary to", &kept)?;
        list.push_str(&format!("{}\t{}\n", kept.display(), package_dir.display()));
    }
    let path = dir.join(LIST);
    benchgrind_runner::store::write_atomic(&path, list.as_bytes()).file_op("write", &path)?;
    Ok(())
}

/// The base's kept bench binaries, or `None` when they are not all there.
pub fn kept_base(dir: &Path) -> Option<Benches> {
    let text = std::fs::read_to_string(dir.join(LIST)).ok()?;
    let benches: Benches = text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(exe, package)| (PathBuf::from(exe), PathBuf::from(package)))
        .collect();
    (!benches.is_empty() && benches.iter().all(|(exe, _)| exe.exists())).then_some(benches)
}

/// What the rounds need: both sides' binaries, the bench arguments, where to write.
pub struct Turns<'a> {
    /// The base's kept binaries.
    pub base: &'a Benches,
    /// The head's.
    pub head: &'a Benches,
    /// The bench arguments (the user's, without the report's).
    pub args: &'a [OsString],
    /// `benchgrind-ab/`.
    pub ab: &'a Path,
    /// How many rounds.
    pub rounds: usize,
    /// The seed of the order in each round.
    pub seed: u64,
}

/// Whether the base runs first in round `round` (drawn from the seed).
pub fn base_first(seed: u64, round: usize) -> bool {
    benchgrind_runner::random::block(seed, round as u64) & 1 == 0
}

/// One metric's round means on both sides, and how the head's settings judge them.
#[derive(Debug, Clone, Default)]
struct Pairs {
    /// Whether the values are nanoseconds.
    time: bool,
    /// `[base, head]`, a value per round (`NaN` where a round gave none).
    sides: [Vec<f64>; 2],
    /// The verdict's margin in percent.
    margin_pct: f64,
    /// The interval's confidence is `1 - alpha`.
    alpha: f64,
    /// Whether an inconclusive verdict fails.
    fail_inconclusive: bool,
    /// The head's hard limits on the metric's mean (bound, pattern).
    hard: Vec<(f64, String)>,
}

/// The pairs by benchmark and metric.
type Means = BTreeMap<(String, String), Pairs>;

impl Turns<'_> {
    /// Runs the rounds and puts the paired comparison into the head's `summaries` (replacing
    /// whatever perf section they had).
    pub fn run(&self, summaries: &mut [(BenchSummary, PathBuf)]) -> Result<()> {
        let mut means = Means::new();
        let mut errors = BTreeMap::new();
        for round in 0..self.rounds {
            if round == 1 {
                if means.is_empty() && errors.is_empty() {
                    // perf samples none of the benchmarks: no more rounds, nothing to say.
                    return Ok(());
                }
                self.say_order();
            }
            let sides = if base_first(self.seed, round) {
                [0, 1]
            } else {
                [1, 0]
            };
            for side in sides {
                let lines = self.one(side, round)?;
                for line in lines {
                    if let Some(error) = line.error {
                        errors.insert(line.id, error);
                        continue;
                    }
                    let pairs = means.entry((line.id, line.metric)).or_default();
                    pairs.time = line.time;
                    if side == 1 {
                        // The head's settings decide, as its limits do.
                        pairs.margin_pct = line.margin_pct;
                        pairs.alpha = line.alpha;
                        pairs.fail_inconclusive = line.fail_inconclusive;
                        pairs.hard = line.hard;
                    }
                    pairs.sides[side].resize(round, f64::NAN);
                    pairs.sides[side].push(line.mean);
                }
            }
        }
        if self.rounds == 1 && !(means.is_empty() && errors.is_empty()) {
            self.say_order();
        }
        for (summary, _) in summaries.iter_mut() {
            summary.perf = self.compare(&summary.id, &means, errors.get(&summary.id));
        }
        Ok(())
    }

    /// Logs the order of every round.
    fn say_order(&self) {
        let order: String = (0..self.rounds)
            .map(|r| {
                if base_first(self.seed, r) {
                    "BH "
                } else {
                    "HB "
                }
            })
            .collect();
        crate::messages::note!(
            "perf in turns: {} rounds of base (B) and head (H), in the order {}(seed {})",
            self.rounds,
            order,
            self.seed
        );
    }

    /// One round of one side (0: base, 1: head): every bench binary with `--perf-round`.
    fn one(&self, side: usize, round: usize) -> Result<Vec<RoundMean>> {
        let (name, benches) = if side == 0 {
            ("base", self.base)
        } else {
            ("head", self.head)
        };
        let home = self.ab.join("perf-home").join(name);
        let mut out = Vec::new();
        for (i, (exe, package_dir)) in benches.iter().enumerate() {
            let file = self.ab.join(format!("perf-round-{name}-{i}.txt"));
            let _ = std::fs::remove_file(&file);
            let output = Command::new(exe)
                .arg("--bench")
                .arg(format!("--home={}", home.display()))
                .args(self.args)
                .arg(format!("--perf-round={}", file.display()))
                .current_dir(package_dir)
                .stdin(Stdio::null())
                .output()
                .with_context(|| format!("cannot run {}", exe.display()))?;
            if !output.status.success() {
                crate::messages::relay(&String::from_utf8_lossy(&output.stderr));
                bail!(
                    "{} (the {name}'s) failed in perf's round {} with {}",
                    exe.display(),
                    round + 1,
                    output.status
                );
            }
            let text = std::fs::read_to_string(&file).file_op("read", &file)?;
            out.extend(
                RoundMean::parse_file(&text).with_context(|| format!("in {}", file.display()))?,
            );
        }
        Ok(out)
    }

    /// The paired comparison of one benchmark's metrics, or `None` when perf sampled none.
    fn compare(&self, id: &str, means: &Means, error: Option<&String>) -> Option<WirePerf> {
        let of_id: Vec<(&String, &Pairs)> = means
            .iter()
            .filter(|((of, _), _)| of == id)
            .map(|((_, metric), pairs)| (metric, pairs))
            .collect();
        let metrics: Vec<PerfMetricResult> = (of_id.iter())
            .filter_map(|(metric, pairs)| metric_of(metric, pairs))
            .collect();
        if metrics.is_empty() && error.is_none() {
            return None;
        }
        let first = of_id.first().map(|(_, p)| (*p).clone()).unwrap_or_default();
        let mut perf = PerfResult {
            metrics,
            failed: error.cloned(),
            alpha: first.alpha,
            paired_rounds: Some(self.rounds),
            ..PerfResult::default()
        };
        let gate = Gate {
            paired: true,
            fail_inconclusive: first.fail_inconclusive,
        };
        // Each metric with the head's hard limits on it, checked on the mean of its rounds.
        for m in &perf.metrics {
            let limits = (of_id.iter())
                .find(|(name, _)| **name == m.name)
                .map(|(_, p)| from_bounds(&p.hard, p.time))
                .unwrap_or_default();
            let passed = check(&limits, std::slice::from_ref(m), gate, &mut perf.notes);
            perf.regressions.extend(passed);
        }
        Some(WirePerf::of(&perf))
    }
}

/// One metric's rounds, paired: the rounds both sides gave; a metric the base lacks (a
/// benchmark new since it) is the head's rounds alone, compared with nothing.
fn metric_of(name: &str, pairs: &Pairs) -> Option<PerfMetricResult> {
    let [base, head] = &pairs.sides;
    let (base, head): (Vec<f64>, Vec<f64>) = if base.iter().all(|b| !b.is_finite()) {
        (
            Vec::new(),
            head.iter().copied().filter(|h| h.is_finite()).collect(),
        )
    } else {
        base.iter()
            .zip(head)
            .filter(|(b, h)| b.is_finite() && h.is_finite())
            .map(|(b, h)| (*b, *h))
            .unzip()
    };
    let interval = paired(&base, &head, pairs.alpha);
    Some(PerfMetricResult {
        name: name.to_owned(),
        time: pairs.time,
        new: Summary::of(&head)?,
        old: Summary::of(&base),
        p_value: None,
        significant: interval.is_some_and(|i| i.low > 0.0 || i.high < 0.0),
        interval,
        margin_pct: pairs.margin_pct,
        verdict: interval.map(|i| i.verdict(pairs.margin_pct)),
        new_rounds: head,
        old_rounds: base,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_drawn_from_the_seed_and_mixes() {
        let orders: Vec<bool> = (0..40).map(|r| base_first(7, r)).collect();
        assert_eq!(
            orders,
            (0..40).map(|r| base_first(7, r)).collect::<Vec<_>>()
        );
        let first = orders.iter().filter(|b| **b).count();
        assert!((10..=30).contains(&first), "{orders:?}");
        assert_ne!(
            orders,
            (0..40).map(|r| base_first(8, r)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn kept_binaries_are_listed_and_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bench-1234");
        std::fs::write(&exe, b"#!/bin/sh\n").unwrap();
        let benches = vec![(exe, dir.path().join("pkg"))];
        let kept = dir.path().join("base-bin");
        keep_base(&benches, &kept).unwrap();
        let found = kept_base(&kept).unwrap();
        assert_eq!(found.len(), 1);
        assert!(found[0].0.starts_with(&kept), "{found:?}");
        assert_eq!(found[0].1, dir.path().join("pkg"));
        std::fs::remove_file(&found[0].0).unwrap();
        assert!(kept_base(&kept).is_none());
    }

    /// Turns of `rounds` rounds without bench binaries: for [`Turns::compare`] alone.
    fn no_sides(rounds: usize) -> Turns<'static> {
        static NONE: Benches = Vec::new();
        Turns {
            base: &NONE,
            head: &NONE,
            args: &[],
            ab: Path::new("/nonexistent"),
            rounds,
            seed: 1,
        }
    }

    fn pairs_of(means: &Means) -> Pairs {
        means.values().next().unwrap().clone()
    }

    #[test]
    fn rounds_pair_up_and_a_missing_round_is_left_out() {
        let turns = no_sides(4);
        // A drift of 50 % across the rounds; the head 20 % slower in each.
        let base = [100.0, 120.0, f64::NAN, 150.0];
        let head = [120.0, 144.0, 170.0, 180.0];
        let pairs = Pairs {
            time: true,
            sides: [base.to_vec(), head.to_vec()],
            margin_pct: 5.0,
            alpha: 0.05,
            fail_inconclusive: false,
            hard: Vec::new(),
        };
        let m = metric_of("task-clock", &pairs).unwrap();
        assert_eq!(m.new_rounds.len(), 3);
        let i = m.interval.unwrap();
        assert!((i.pct - 20.0).abs() < 1e-9, "{i:?}");
        assert_eq!(m.verdict.map(|v| v.name()), Some("slower"));
        let mut means = Means::new();
        means.insert(("b::f".into(), "task-clock".into()), pairs);
        let perf = turns.compare("b::f", &means, None).unwrap();
        assert_eq!(perf.paired_rounds, Some(4));
        assert_eq!(perf.regressions.len(), 1, "{:?}", perf.regressions);
        assert!(
            perf.regressions[0].contains("slower"),
            "{:?}",
            perf.regressions
        );
        assert!(turns.compare("b::g", &means, None).is_none());
        // New since the base: the head's rounds, no comparison, no verdict.
        let new = Pairs {
            sides: [Vec::new(), head.to_vec()],
            ..pairs_of(&means)
        };
        let m = metric_of("task-clock", &new).unwrap();
        assert_eq!((m.new.n, m.old, m.verdict), (4, None, None));
    }

    #[test]
    fn the_heads_hard_limits_are_checked_on_the_mean_of_its_rounds() {
        let turns = no_sides(3);
        // The same on both sides (unchanged), the head's mean 110 ns.
        let pairs = |hard: Vec<(f64, String)>| Pairs {
            time: true,
            sides: [vec![100.0, 110.0, 120.0], vec![100.0, 110.0, 120.0]],
            margin_pct: 5.0,
            alpha: 0.05,
            fail_inconclusive: false,
            hard,
        };
        let regressions = |hard: Vec<(f64, String)>| {
            let mut means = Means::new();
            means.insert(("b::f".into(), "task-clock".into()), pairs(hard));
            turns.compare("b::f", &means, None).unwrap().regressions
        };
        assert!(regressions(Vec::new()).is_empty());
        assert!(regressions(vec![(115.0, "task-clock".into())]).is_empty());
        let above = regressions(vec![(105.0, "task-*".into())]);
        assert_eq!(above.len(), 1, "{above:?}");
        assert!(
            above[0].contains("above the hard limit") && above[0].contains("(task-*)"),
            "{above:?}"
        );
    }
}
