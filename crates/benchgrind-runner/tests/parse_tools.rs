//! Parsers of the other tools' files and the flamegraph stacks, on real output (see
//! `fixtures/README.md` for the commands).

use std::path::{Path, PathBuf};

use benchgrind_runner::config::{ToolMetric, ValgrindTool};
use benchgrind_runner::metrics::{dhat_second_ballast, read_metrics, Context};
use benchgrind_runner::parse::profile::{self, Read};
use benchgrind_runner::parse::{dhat, errors, massif};
use benchgrind_runner::report::flamegraph::folded;
use benchgrind_runner::EventKind;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[test]
fn dhat_totals_of_the_benchmark_function_leave_setup_and_harness_out() {
    let profile = dhat::parse_file(&fixture("alloc_one_mib.dhat.out")).unwrap();
    assert_eq!(profile.mode, "heap");
    let bench = profile.restricted_to("e2e_tools::alloc_one_mib");
    assert_eq!(bench.total_bytes, 1 << 20);
    assert_eq!(bench.total_blocks, 1);
    assert_eq!(bench.max_bytes, 1 << 20);
    assert_eq!(bench.write_bytes, 1 << 20);
    assert_eq!(bench.end_bytes, 0, "the teardown freed it");
    // The generated runner around it also made setup's 10 MiB; the whole process more.
    let runner = profile.restricted_to("e2e_tools::alloc_one_mib::__run_0");
    assert_eq!(runner.total_bytes, (10 << 20) + (1 << 20));
    let everything: u64 = profile.pps.iter().map(|p| p.tb).sum();
    assert_eq!(everything, 11_543_376);

    let cx = Context {
        function: "e2e_tools::alloc_one_mib",
    };
    let m = read_metrics(ValgrindTool::DHAT, &fixture("alloc_one_mib.dhat.out"), cx).unwrap();
    assert_eq!(m.get(ToolMetric::TotalBytes), Some(1 << 20));
    assert_eq!(m.get(ToolMetric::ReadsBytes), Some(0));
}

fn dhat_metric(file: &str, function: &str, metric: ToolMetric) -> Option<u64> {
    let cx = Context { function };
    let m = read_metrics(ValgrindTool::DHAT, &fixture(file), cx).unwrap();
    m.get(metric)
}

#[test]
fn dhat_peak_outside_the_window_asks_for_a_second_run_with_a_larger_ballast() {
    // One-byte ballast; setup's temporary 10 MiB made the global peak, before the window.
    let file = fixture("freed_setup.ballast1.dhat.out");
    let profile = dhat::parse_file(&file).unwrap();
    assert_eq!(profile.ballast_at_peak(), Some(0));
    assert_eq!(profile.global_peak(), 10_486_308);
    assert_eq!(dhat_second_ballast(&file), Some(10_486_309));
    let f = "e2e_dhat_peak::one_kib_after_freed_setup";
    let window = profile.restricted_to(f);
    // Each point's maximum is only updated at a new global peak: the old figure was 0.
    assert_eq!((window.total_bytes, window.max_bytes), (1024, 0));
    assert_eq!(
        window.gmax_bytes, 0,
        "the window held nothing at the global peak"
    );

    // The second run: the ballast, one byte more than that peak, puts the peak in the window.
    let file = fixture("freed_setup.ballast2.dhat.out");
    let profile = dhat::parse_file(&file).unwrap();
    assert_eq!(profile.ballast_at_peak(), Some(10_486_309));
    assert_eq!(dhat_second_ballast(&file), None);
    let file = "freed_setup.ballast2.dhat.out";
    assert_eq!(dhat_metric(file, f, ToolMetric::PeakBytes), Some(1024));
    assert_eq!(dhat_metric(file, f, ToolMetric::PeakBlocks), Some(1));
    // The ballast passes through the window's generated code but counts nowhere.
    assert_eq!(dhat_metric(file, f, ToolMetric::TotalBytes), Some(1024));
    assert_eq!(dhat_metric(file, f, ToolMetric::TotalBlocks), Some(1));
}

#[test]
fn dhat_peak_of_two_sites_peaking_at_different_moments() {
    let file = "two_sites.ballast1.dhat.out";
    let profile = dhat::parse_file(&fixture(file)).unwrap();
    assert_eq!(
        profile.ballast_at_peak(),
        Some(1),
        "the peak is in the window"
    );
    let f = "e2e_dhat_peak::two_sites";
    let window = profile.restricted_to(f);
    assert_eq!(window.total_bytes, 2300);
    assert_eq!(window.max_bytes, 700, "the old lower bound");
    assert_eq!(dhat_metric(file, f, ToolMetric::PeakBytes), Some(1300));
    assert_eq!(dhat_metric(file, f, ToolMetric::PeakBlocks), Some(2));
    assert_eq!(dhat_metric(file, f, ToolMetric::TotalBlocks), Some(3));
    // A profile without a ballast (an older run) keeps the lower bound.
    let old = "alloc_one_mib.dhat.out";
    let g = "e2e_tools::alloc_one_mib";
    assert_eq!(dhat_metric(old, g, ToolMetric::PeakBytes), Some(1 << 20));
}

#[test]
fn massif_peak_is_the_marked_snapshot() {
    let profile = massif::parse_file(&fixture("alloc_one_mib.massif.out")).unwrap();
    let peak = profile.peak();
    assert!(peak.peak);
    assert_eq!(
        (peak.heap, peak.heap_extra, peak.stacks),
        (11_539_298, 4_374, 0)
    );
    let largest = profile.snapshots.iter().map(|s| s.heap).max().unwrap();
    assert_eq!(largest, peak.heap);
}

#[test]
fn memcheck_error_summary() {
    let s = errors::parse_file(&fixture("read_uninit.memcheck.log")).unwrap();
    assert_eq!((s.errors, s.contexts, s.suppressed), (1, 1, 0));
}

#[test]
fn flamegraph_stacks_of_a_real_profile_add_up_to_its_total() {
    let graph = profile::parse_file(&fixture("fib10.cache-sim.callgrind.out"), Read::Full)
        .unwrap()
        .graph;
    assert_eq!(graph.totals()[0], 2658, "the profile's `totals:` Ir");
    let stacks = folded(&graph, EventKind::Ir).unwrap();
    assert_eq!(
        stacks,
        "e2e_lib::bench_fibonacci::__run_0 1\n\
         e2e_lib::bench_fibonacci::__run_0;e2e_lib::bench_fibonacci 7\n\
         e2e_lib::bench_fibonacci::__run_0;e2e_lib::bench_fibonacci;e2e_lib::fibonacci 20\n\
         e2e_lib::bench_fibonacci::__run_0;e2e_lib::bench_fibonacci;e2e_lib::fibonacci;\
         e2e_lib::fibonacci 2630\n"
    );
    // Derived metrics add up the same way: 3894 L1 hits in the terminal report of that run.
    let l1: u64 = folded(&graph, EventKind::L1hits)
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(l1, 2658 + 534 + 711 - (3 + 6));
}

#[test]
fn every_real_profiles_stacks_add_up_to_its_totals_line() {
    for name in [
        "fib10.cache-sim.callgrind.out",
        "sort100.no-cache-sim.callgrind.out",
        "fib15.instr-branch.callgrind.out",
    ] {
        let path = fixture(name);
        let totals = profile::parse_file(&path, Read::Totals).unwrap();
        let graph = profile::parse_file(&path, Read::Full).unwrap().graph;
        assert_eq!(graph.totals(), totals.totals(), "{name}");
        let sum: u64 = folded(&graph, EventKind::Ir)
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(Some(sum), totals.total("Ir"), "{name}");
    }
}
