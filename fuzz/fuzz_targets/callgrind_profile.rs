//! A Callgrind profile (`callgrind.out`, as `target/benchgrind` holds them): the reader as far as
//! the totals and the metrics derived from them, and in full with the flamegraph stacks built
//! from its call graph.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Read};
use benchgrind_runner::report::flamegraph;
use benchgrind_runner::EventKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("callgrind.out");
    match profile::parse(path, data, Read::Totals) {
        Ok(profile) => {
            assert_eq!(profile.events.len(), profile.totals().len());
            let _ = Metrics::from_profile(&profile);
        }
        Err(e) => check_parse_error(&e, path, data),
    }
    match profile::parse(path, data, Read::Full) {
        Ok(profile) => {
            let graph = &profile.graph;
            let _ = graph.totals();
            for event in [EventKind::Ir, EventKind::EstimatedCycles] {
                let _ = flamegraph::folded(graph, event);
            }
        }
        Err(e) => check_parse_error(&e, path, data),
    }
});
