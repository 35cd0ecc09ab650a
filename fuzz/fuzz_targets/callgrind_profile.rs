//! A Callgrind profile (`callgrind.out`, as `target/benchgrind` holds them): the totals parser
//! and the metrics derived from it, and the call-graph parser and the flamegraph stacks built
//! from it.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::compare::flamegraph;
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::{callgraph, callgrind};
use benchgrind_runner::EventKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("callgrind.out");
    match callgrind::parse(path, data) {
        Ok(profile) => {
            assert_eq!(profile.events.len(), profile.totals.len());
            let _ = Metrics::from_profile(&profile);
        }
        Err(e) => check_parse_error(&e, path, data),
    }
    match callgraph::parse(path, data) {
        Ok(graph) => {
            let _ = graph.totals();
            for event in [EventKind::Ir, EventKind::EstimatedCycles] {
                let _ = flamegraph::folded(&graph, event);
            }
        }
        Err(e) => check_parse_error(&e, path, data),
    }
});
