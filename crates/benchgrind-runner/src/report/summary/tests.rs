use super::*;

const V1: &str = r#"{"version":1,"id":"f::g::func","package":"p","file":"f","group":"g","function":"func","bench_id":null,"args":"","command":null,"tool":"callgrind","status":"ok","error":null,"new_source":"run","old_source":"previous run","metrics":{"Ir":{"new":90,"old":100,"diff_pct":-10.0,"factor":-1.1}},"regressions":[],"files":{"dir":"d","profile":"d/callgrind.out","log":null},"duration_secs":0.5}"#;

#[test]
fn version_1_reads_as_6_without_an_explanation_or_parts_and_newer_ones_are_named() {
    let summary: Summary = serde_json::from_str(V1).unwrap();
    assert_eq!(summary.explanation, None);
    assert!(summary.parts.is_empty());
    let result = summary.to_result().unwrap();
    assert!(matches!(result.outcome, Outcome::Measured { .. }));
    // Written again, it is version 6 and has neither an `explanation` nor a `parts` key.
    let again = Summary {
        version: VERSION,
        ..summary.clone()
    };
    let json = again.to_json(false);
    assert!(
        !json.contains("explanation") && !json.contains("parts"),
        "{json}"
    );

    let newer = Summary {
        version: 8,
        ..summary
    };
    let err = newer.to_result().unwrap_err();
    assert_eq!(
        err,
        "f::g::func: summary version 8 is newer than this benchgrind understands (it reads \
         versions 1 to 7); update benchgrind to read it"
    );
    assert!(check_version(Some(0), "x")
        .unwrap_err()
        .contains("not a version"));
    assert!(check_version(None, "x")
        .unwrap_err()
        .contains("no summary version"));
    assert_eq!(check_version(Some(1), "x"), Ok(()));
}

// Seen while writing fuzz/fuzz_targets/summary_json.rs: `Duration::from_secs_f64` panics
// on a number past `Duration::MAX`.
#[test]
fn any_duration_in_a_file_reads() {
    for (secs, want) in [
        ("0.5", std::time::Duration::from_millis(500)),
        ("-3", std::time::Duration::ZERO),
        ("1e300", std::time::Duration::MAX),
    ] {
        let text = V1.replace(
            r#""duration_secs":0.5"#,
            &format!(r#""duration_secs":{secs}"#),
        );
        let summary: Summary = serde_json::from_str(&text).unwrap();
        assert_eq!(summary.to_result().unwrap().duration, want, "{secs}");
    }
}

#[test]
fn a_layout_only_change_and_a_spread_read_back_as_written() {
    use crate::compare::layout::{LayoutOnly, Spread};
    use crate::compare::regression::{Limit, Regression};
    use crate::config::EventKind;
    let mut result = serde_json::from_str::<Summary>(V1)
        .unwrap()
        .to_result()
        .unwrap();
    let only = LayoutOnly {
        functions: 7,
        moved: vec![EventKind::L1hits, EventKind::EstimatedCycles],
        held: vec![Regression {
            metric: EventKind::EstimatedCycles,
            new: 110.0,
            old: Some(100.0),
            limit: Limit::Relative {
                limit_pct: 0.001,
                diff_pct: 10.0,
            },
        }],
    };
    let spread = Spread {
        layouts: 5,
        ranges: vec![
            (EventKind::L1hits, 40, 44),
            (EventKind::EstimatedCycles, 300, 370),
        ],
        left_out: vec!["shift 3: it failed".into()],
        stack_only: vec![2],
        seconds: 2.5,
    };
    result.layout_only = Some(only.clone());
    result.spread = Some(spread.clone());
    let json = Summary::from_result(&result).to_json(false);
    let read: Summary = serde_json::from_str(&json).unwrap();
    assert_eq!(read.version, VERSION);
    let back = read.to_result().unwrap();
    assert_eq!(back.layout_only, Some(only));
    assert_eq!(back.spread, Some(spread));
    // Without them, neither key is written.
    result.layout_only = None;
    result.spread = None;
    let json = Summary::from_result(&result).to_json(false);
    assert!(!json.contains("layout"), "{json}");
}

#[test]
fn perfs_statistics_and_verdicts_survive_the_wire() {
    use crate::compare::perf::{Interval, PerfMetricResult, PerfRegression, Verdict};
    use crate::perf::stats::Summary as Stats;
    let metric = |paired: bool| PerfMetricResult {
        name: "task-clock".into(),
        time: true,
        new: Stats {
            mean: 110.0,
            sd: 2.0,
            n: 4,
        },
        old: Some(Stats {
            mean: 100.0,
            sd: 1.0,
            n: 4,
        }),
        p_value: (!paired).then_some(0.001),
        significant: true,
        interval: Some(Interval {
            pct: 10.5,
            low: 8.0,
            high: 13.0,
        }),
        margin_pct: 5.0,
        verdict: Some(Verdict::Slower),
        new_rounds: vec![108.0, 110.0, 112.0, 110.0],
        old_rounds: vec![99.0, 100.0, 101.0, 100.0],
    };
    for paired in [false, true] {
        let perf = crate::result::PerfResult {
            metrics: vec![metric(paired)],
            regressions: vec![PerfRegression::Verdict {
                metric: "task-clock".into(),
                verdict: Verdict::Slower,
                interval: metric(paired).interval.unwrap(),
                margin_pct: 5.0,
                paired,
            }],
            alpha: 0.05,
            noise_pct: 1.5,
            paired_rounds: paired.then_some(4),
            ..Default::default()
        };
        let wire = WirePerf::of(&perf);
        // The estimate of a paired change is the per-round ratios', as its interval's.
        let want = if paired { 10.5 } else { 10.0 };
        assert_eq!(wire.metrics[0].change_pct, Some(want));
        let json = serde_json::to_string(&wire).unwrap();
        let read: WirePerf = serde_json::from_str(&json).unwrap();
        let back = read.to_result("b::f").unwrap();
        assert_eq!(WirePerf::of(&back), wire, "{json}");
        assert_eq!(back.metrics[0].verdict, Some(Verdict::Slower));
        assert_eq!(
            back.regressions[0].to_string(),
            perf.regressions[0].to_string()
        );
    }
    // A verdict this version does not know is an error naming the benchmark.
    let mut wire = WirePerf::of(&crate::result::PerfResult {
        metrics: vec![metric(false)],
        ..Default::default()
    });
    wire.metrics[0].verdict = Some("better".into());
    let e = wire.to_result("b::f").unwrap_err().to_string();
    assert!(e.contains("b::f") && e.contains("`better`"), "{e}");
}
