//! The terminal report's tests: the seed's line layout, labels, formats and rates, layout-only
//! changes and spreads, significant digits.

use super::*;

fn m(values: &[(EventKind, u64)]) -> Metrics {
    Metrics {
        values: values.to_vec(),
    }
}

fn render(new: &Metrics, old: Option<&Metrics>) -> String {
    render_with(Labels::IaiCallgrind, new, old)
}

fn render_with(labels: Labels, new: &Metrics, old: Option<&Metrics>) -> String {
    let mut out = Vec::new();
    let style = Style {
        labels,
        ..Style::new(Color::Never, labels)
    };
    metrics(&mut out, style, None, new, old).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn lines_have_the_seed_layout() {
    let new = m(&[
        (EventKind::Ir, 1733),
        (EventKind::EstimatedCycles, 35638757),
    ]);
    assert_eq!(
        render(&new, None),
        "  Instructions:                1733|N/A             (*********)\n  \
         Estimated Cycles:        35638757|N/A             (*********)\n"
    );
    let old = m(&[
        (EventKind::Ir, 2804),
        (EventKind::EstimatedCycles, 35638757),
    ]);
    assert_eq!(
        render(&new, Some(&old)),
        "  Instructions:                1733|2804            (-38.1954%) [-1.61800x]\n  \
         Estimated Cycles:        35638757|35638757        (No change)\n"
    );
}

#[test]
fn labels_are_iai_callgrinds_unless_benchgrinds_are_asked_for() {
    let new = m(&[(EventKind::LLhits, 3), (EventKind::L1hits, 4)]);
    let iai = render(&new, None);
    assert!(iai.starts_with("  L2 Hits:"), "{iai}");
    assert!(iai.contains("\n  L1 Hits:"), "{iai}");
    let own = render_with(Labels::Benchgrind, &new, None);
    assert!(own.starts_with("  LL Hits:"), "{own}");
}

#[test]
fn a_format_orders_the_lines_adds_rates_and_skips_what_is_missing() {
    let new = m(&[
        (EventKind::Ir, 1000),
        (EventKind::Dr, 0),
        (EventKind::Dw, 0),
        (EventKind::I1mr, 20),
    ]);
    let old = m(&[
        (EventKind::Ir, 1000),
        (EventKind::Dr, 0),
        (EventKind::Dw, 0),
        (EventKind::I1mr, 10),
    ]);
    let mut out = Vec::new();
    let style = Style {
        grid: true,
        ..Style::new(Color::Never, Labels::Benchgrind)
    };
    let format = [EventKind::I1MissRate, EventKind::Bc, EventKind::Ir];
    metrics(&mut out, style, Some(&format), &new, Some(&old)).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        "|-I1 Miss Rate:            2.00000%|1.00000%        (+100.000%) [+2.00000x]\n\
         |-Instructions:                1000|1000            (No change)\n"
    );
    let mut out = Vec::new();
    let style = Style {
        tolerance: Some(100.0),
        ..Style::new(Color::Never, Labels::Benchgrind)
    };
    metrics(&mut out, style, Some(&format[..1]), &new, Some(&old)).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with("(Tolerance)\n"), "{text}");
}

#[test]
fn a_layout_only_change_and_a_spread_are_said_under_the_metrics() {
    use crate::compare::layout::{LayoutOnly, Spread};
    use crate::compare::regression::{Limit, Regression};
    let mut result = crate::report::gbench::json::tests::summaries()[0]
        .to_result()
        .unwrap();
    result.layout_only = Some(LayoutOnly {
        functions: 12,
        moved: vec![EventKind::EstimatedCycles],
        held: vec![Regression {
            metric: EventKind::EstimatedCycles,
            new: 110.0,
            old: Some(100.0),
            limit: Limit::Relative {
                limit_pct: 1.0,
                diff_pct: 10.0,
            },
        }],
    });
    let runs = [(110, 90), (104, 90), (112, 90)]
        .map(|(cycles, ir)| m(&[(EventKind::Ir, ir), (EventKind::EstimatedCycles, cycles)]));
    result.spread = Some(Spread::of(&runs, vec!["shift 2: it failed".into()], 0.5));
    let mut out = Vec::new();
    let style = Style::new(Color::Never, Labels::Benchgrind);
    Terminal { style }.bench(&mut out, &result).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("ayout") || l.contains("Spread"))
        .collect();
    assert_eq!(
        lines,
        [
            "  Layout only:      the same 12 functions executed the same counts; only \
             addresses moved (Estimated Cycles)",
            "  Layout only:      not failed (--limit-layout fails it): Estimated Cycles (100 \
             -> 110) changed by +10.00000%, past the limit of +1.00000%",
            "  Layout spread:    over 3 layouts (this run's and 2 with the stack and heap \
             shifted), measured in 0.50s",
            "  Layout spread:    left out: shift 2: it failed",
            "  Spread of Estimated Cycles: 104..112 (8); the old 100 is outside layout spread",
        ]
    );
}

#[test]
fn six_significant_digits() {
    assert_eq!(signed_sig6(61.80034), "+61.8003");
    assert_eq!(signed_sig6(-8.737864), "-8.73786");
    assert_eq!(signed_sig6(-25.0), "-25.0000");
    assert_eq!(signed_sig6(1.6180), "+1.61800");
    assert_eq!(signed_sig6(0.5), "+0.50000");
    assert_eq!(signed_sig6(1234567.0), "+1234567");
    assert_eq!(signed_sig6(150.0), "+150.000");
}
