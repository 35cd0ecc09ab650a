//! Layout-only changes told from changes of code, on profiles real Valgrind wrote
//! (`tests/fixtures/layout`, see its README) and, for the rules of naming, on small ones
//! written here.

use std::path::{Path, PathBuf};

use super::*;
use crate::parse::profile::{parse, parse_file, Read};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layout")
        .join(name)
}

fn read(name: &str, read: Read) -> Profile {
    parse_file(&fixture(name), read).unwrap()
}

fn text(profile: &str) -> Profile {
    parse(Path::new("t.out"), profile.as_bytes(), Read::Functions).unwrap()
}

/// The change from `old` to `new`, both read with their functions.
fn change(old: &Profile, new: &Profile) -> Option<LayoutOnly> {
    let (om, nm) = (Metrics::from_profile(old), Metrics::from_profile(new));
    layout_only(old, new, &om, &nm)
}

#[test]
fn reading_the_functions_gives_the_self_costs_of_a_full_read() {
    // And a profile of many functions, calls and inlined files.
    let many = "../../../../benchgrind-selfbench/fixtures/sort500.callgrind.out";
    for name in [
        "sort100.callgrind.out",
        "sort100.shifted1.callgrind.out",
        "fib10.callgrind.out",
        "fib15.callgrind.out",
        many,
    ] {
        let (full, functions) = (read(name, Read::Full), read(name, Read::Functions));
        let costs = |p: &Profile| -> Vec<(String, Vec<u64>)> {
            (p.functions.iter())
                .map(|f| (f.name.clone(), f.self_cost.clone()))
                .collect()
        };
        assert!(full.functions.len() >= 2, "{name}");
        assert_eq!(costs(&full), costs(&functions), "{name}");
        assert_eq!(full.totals(), functions.totals(), "{name}");
        assert!(
            functions.graph.functions.is_empty(),
            "{name}: no call graph"
        );
        assert!(functions.functions.iter().all(|f| f.lines.is_empty()));
    }
}

#[test]
fn a_shifted_heap_is_layout_only_and_a_larger_input_is_not() {
    // The same benchmark measured with the heap 160 bytes further: a data block straddles one
    // more cache line.
    for read_as in [Read::Functions, Read::Full] {
        let old = read("sort100.callgrind.out", read_as);
        let new = read("sort100.shifted1.callgrind.out", read_as);
        assert_eq!(same_code(&old, &new), Some(true));
        let only = change(&old, &new).expect("layout only");
        assert_eq!(only.functions, 2, "{only:?}");
        for kind in [
            EventKind::D1mw,
            EventKind::L1hits,
            EventKind::EstimatedCycles,
        ] {
            assert!(only.moved.contains(&kind), "{kind:?} in {only:?}");
        }
        assert!(only.moved.iter().all(|k| k.follows_layout()));
        // Nothing moved: not a change at all.
        assert_eq!(change(&old, &old), None);
    }
    // Fibonacci of 10 and of 15: the same functions, other counts.
    let (old, new) = (
        read("fib10.callgrind.out", Read::Functions),
        read("fib15.callgrind.out", Read::Functions),
    );
    assert_eq!(same_code(&old, &new), Some(false));
    assert_eq!(change(&old, &new), None);
    // Read without functions: it cannot be told, so it is not layout only.
    let (old, new) = (
        read("sort100.callgrind.out", Read::Totals),
        read("sort100.shifted1.callgrind.out", Read::Totals),
    );
    assert_eq!(same_code(&old, &new), None);
    assert_eq!(change(&old, &new), None);
}

#[test]
fn functions_are_compared_by_name_whatever_their_object_file_or_address() {
    let head = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n";
    let old = text(&format!(
        "{head}ob=/a/target/release/deps/bench-1111\nfl=src/lib.rs\nfn=_ZN4work4loop17h0123456789abcdefE\n\
         1 100 10 5 1 0 0 1 0 0\nfi=/rustc/core/iter.rs\n7 20 2 1 0 0 0 0 0 0\n\
         fn=0x0000000004001000\n1 6 0 0 0 0 0 0 0 0\nfn=idle\n1 0 0 0 0 0 0 0 0 0\n"
    ));
    // Another checkout (object path and hash), the inlined file named otherwise, the
    // function without a symbol at another address, the idle one gone; more misses.
    let moved = text(&format!(
        "{head}ob=/b/target/release/deps/bench-2222\nfl=/b/src/lib.rs\n\
         fn=_ZN4work4loop17hfedcba9876543210E\n1 100 10 5 3 1 0 3 1 0\n\
         fi=/rustc/other/core/iter.rs\n9 20 2 1 0 0 0 0 0 0\nfn=0x0000000004001040\n1 6 0 0 1 0 0 1 0 0\n"
    ));
    assert_eq!(same_code(&old, &moved), Some(true));
    assert!(change(&old, &moved).is_some());
    // One more data read in one function: other code, although the instructions are the same.
    let read_more = text(&format!(
        "{head}ob=/a/target/release/deps/bench-1111\nfl=src/lib.rs\nfn=_ZN4work4loop17h0123456789abcdefE\n\
         1 100 11 5 1 0 0 1 0 0\nfi=/rustc/core/iter.rs\n7 20 2 1 0 0 0 0 0 0\n\
         fn=0x0000000004001000\n1 6 0 0 0 0 0 0 0 0\n"
    ));
    assert_eq!(same_code(&old, &read_more), Some(false));
    assert_eq!(change(&old, &read_more), None);
    // The same total moved from one function to another: other code.
    let shifted_work = text(&format!(
        "{head}fn=work::loop\n1 110 12 6 1 0 0 1 0 0\nfn=helper\n1 16 0 0 0 0 0 0 0 0\n"
    ));
    let other_split = text(&format!(
        "{head}fn=work::loop\n1 116 12 6 1 0 0 1 0 0\nfn=helper\n1 10 0 0 1 0 0 0 0 0\n"
    ));
    assert_eq!(same_code(&shifted_work, &other_split), Some(false));
}

#[test]
fn a_layout_only_change_holds_the_limits_on_metrics_that_follow_layout() {
    let regression = |metric, limit, old: Option<f64>| Regression {
        metric,
        new: 110.0,
        old,
        limit,
    };
    let relative = Limit::Relative {
        limit_pct: 0.001,
        diff_pct: 10.0,
    };
    let passed = vec![
        regression(EventKind::EstimatedCycles, relative, Some(100.0)),
        regression(EventKind::L1hits, relative, Some(100.0)),
        regression(EventKind::Ir, relative, Some(100.0)),
        // Under the cap before: the layout took it past, held.
        regression(
            EventKind::RamHits,
            Limit::Absolute { cap: 105.0 },
            Some(100.0),
        ),
        // Past it before as well: fires.
        regression(
            EventKind::LLhits,
            Limit::Absolute { cap: 90.0 },
            Some(100.0),
        ),
    ];
    let mut only = LayoutOnly {
        functions: 1,
        moved: vec![EventKind::L1hits],
        held: Vec::new(),
    };
    let fired = hold(passed, &mut only);
    let metrics = |r: &[Regression]| r.iter().map(|r| r.metric).collect::<Vec<_>>();
    assert_eq!(metrics(&fired), [EventKind::Ir, EventKind::LLhits]);
    assert_eq!(
        metrics(&only.held),
        [
            EventKind::EstimatedCycles,
            EventKind::L1hits,
            EventKind::RamHits
        ]
    );
}

#[test]
fn a_spread_is_the_range_of_each_metric_that_follows_layout() {
    let m = |ir, l1, cycles| Metrics {
        values: vec![
            (EventKind::Ir, ir),
            (EventKind::L1hits, l1),
            (EventKind::EstimatedCycles, cycles),
        ],
    };
    let spread = Spread::of(
        &[m(10, 50, 300), m(10, 48, 330), m(10, 51, 310)],
        vec![],
        1.5,
    );
    assert_eq!(spread.layouts, 3);
    assert_eq!(
        spread.ranges,
        [
            (EventKind::L1hits, 48, 51),
            (EventKind::EstimatedCycles, 300, 330)
        ]
    );
    assert_eq!(spread.range(EventKind::Ir), None);
    assert!(spread.within(EventKind::L1hits, 48) && spread.within(EventKind::L1hits, 51));
    assert!(!spread.within(EventKind::L1hits, 47) && !spread.within(EventKind::L1hits, 52));
    assert!(!spread.within(EventKind::Ir, 10));
}
