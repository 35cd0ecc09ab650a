//! The comparison's tests: pairing by name and kind, repetitions and their U test, aggregates,
//! the geometric mean, and matching in linear time.

use super::*;

fn bench(name: &str, kind: Kind, time: &[f64]) -> Benchmark {
    Benchmark {
        name: name.into(),
        kind,
        metrics: vec![Metric {
            name: "time".into(),
            unit: Unit::Nanoseconds,
            better: Better::Lower,
            samples: time.to_vec(),
            geomean: true,
        }],
        error: None,
        entries: Vec::new(),
    }
}

fn set(benchmarks: Vec<Benchmark>) -> ResultSet {
    ResultSet {
        label: "x".into(),
        benchmarks,
        ..ResultSet::default()
    }
}

const OPTIONS: Options = Options {
    alpha: 0.05,
    utest: true,
};

#[test]
fn matches_by_name_and_lists_the_rest() {
    let mut failing = bench("f", Kind::Run, &[1.0]);
    failing.error = Some("boom".into());
    let old = set(vec![
        bench("a", Kind::Run, &[100.0]),
        bench("gone", Kind::Run, &[1.0]),
        bench("f", Kind::Run, &[1.0]),
    ]);
    let new = set(vec![
        bench("added", Kind::Run, &[1.0]),
        failing,
        bench("a", Kind::Run, &[110.0]),
    ]);
    let c = compare(&old, &new, OPTIONS);
    assert_eq!(c.benchmarks.len(), 1);
    let m = &c.benchmarks[0].metrics[0];
    assert_eq!(m.summary_of, SummaryOf::Single);
    assert!((m.summary.change.unwrap() - 0.1).abs() < 1e-12);
    assert!(m.repetitions.is_empty() && m.utest.is_none());
    assert_eq!(c.only_old, ["gone"]);
    assert_eq!(c.only_new, ["added"]);
    assert_eq!(c.failures.len(), 1);
    assert_eq!(c.failures[0].side, Side::New);
    // The geometric mean covers matched runs only: a alone.
    assert!((c.geomean[0].summary.old - 100.0).abs() < 1e-9);
}

#[test]
fn repetitions_pair_by_index_and_get_a_u_test() {
    let old = set(vec![bench("a", Kind::Run, &[10.0, 11.0, 12.0, 13.0])]);
    let new = set(vec![bench("a", Kind::Run, &[20.0, 21.0, 22.0])]);
    let c = compare(&old, &new, OPTIONS);
    let m = &c.benchmarks[0].metrics[0];
    assert_eq!(m.samples, (4, 3));
    assert_eq!(m.repetitions.len(), 3);
    assert_eq!(m.repetitions[2].change, Some((22.0 - 12.0) / 12.0));
    assert_eq!(m.summary_of, SummaryOf::Median);
    assert_eq!((m.summary.old, m.summary.new), (11.5, 21.0));
    let u = m.utest.unwrap();
    assert!(!u.reliable);
    assert!(
        (u.p_value - 0.05714285714285714).abs() < 1e-12,
        "{}",
        u.p_value
    );
    assert!(!u.significant);
    // Geomean over every sample of each side.
    let g = &c.geomean[0];
    assert_eq!(g.samples, (4, 3));
    let want_old = (10.0f64 * 11.0 * 12.0 * 13.0).powf(0.25);
    assert!((g.summary.old - want_old).abs() < 1e-9);
}

#[test]
fn aggregates_are_compared_but_not_in_the_geomean() {
    let agg = || Kind::Aggregate {
        run: "a".into(),
        stat: "mean".into(),
        spread: false,
    };
    let old = set(vec![bench("a_mean", agg(), &[10.0])]);
    let new = set(vec![bench("a_mean", agg(), &[12.0])]);
    let c = compare(&old, &new, OPTIONS);
    assert_eq!(c.benchmarks[0].metrics[0].summary.change, Some(0.2));
    assert!(c.geomean.is_empty());
}

// Issue 54: the first entry of a name won whatever its kind, so a run was compared with a
// same-named aggregate and a second aggregate with the other side's first.
#[test]
fn runs_pair_with_runs_and_aggregates_with_the_same_aggregate() {
    let agg = |stat: &str| Kind::Aggregate {
        run: "a".into(),
        stat: stat.into(),
        spread: false,
    };
    let old = set(vec![
        bench("a", Kind::Run, &[9.0, 8.0]),
        bench("a", agg("aggregate"), &[8.0]),
        bench("a", agg("aggregate"), &[7.0]),
        bench("b", agg("mean"), &[10.0]),
    ]);
    let new = set(vec![
        bench("a", agg("aggregate"), &[4.0]),
        bench("a", Kind::Run, &[7.0, 6.0]),
        bench("a", agg("aggregate"), &[3.5]),
        bench("b", Kind::Run, &[9.0]),
    ]);
    let c = compare(&old, &new, OPTIONS);
    let labels: Vec<_> = c.benchmarks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["a", "a (aggregate #0)", "a (aggregate #1)"]);
    let change = |i: usize| c.benchmarks[i].metrics[0].summary.change.unwrap();
    assert!((change(0) - (6.5 - 8.5) / 8.5).abs() < 1e-12);
    assert!((change(1) - -0.5).abs() < 1e-12);
    assert!((change(2) - -0.5).abs() < 1e-12);
    assert_eq!(c.only_old, ["b (aggregate mean)"]);
    assert_eq!(c.only_new, ["b"]);
    // The geometric mean: runs on both sides only (a, not b).
    assert_eq!(c.geomean[0].samples, (2, 2));
}

// Found by fuzzing (fuzz/fuzz_targets/summary_json.rs): matching each benchmark of one side
// by a search through the other took quadratic time; a lookup by name keeps it linear.
#[test]
fn many_benchmarks_match_in_linear_time() {
    let n = 100_000;
    let side = |offset: usize| {
        set((0..n)
            .map(|i| bench(&format!("b{}", i + offset), Kind::Run, &[1.0]))
            .collect())
    };
    let (old, new) = (side(0), side(n / 2));
    let start = std::time::Instant::now();
    let c = compare(&old, &new, OPTIONS);
    assert_eq!(c.benchmarks.len(), n / 2);
    assert_eq!((c.only_old.len(), c.only_new.len()), (n / 2, n / 2));
    assert_eq!(c.only_old[0], "b0");
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
