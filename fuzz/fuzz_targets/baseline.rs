//! A saved baseline (`baseline.NAME.callgrind.out`): read by the bench binary (metrics, then
//! regression limits against the new run) and by `compare` (a benchmark of its metrics).
#![no_main]

use std::path::Path;

use benchgrind_cli::compare::input::baseline;
use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::compare::regression;
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Read};
use benchgrind_runner::{EventKind, RegressionConfig};
use libfuzzer_sys::fuzz_target;

const FIXTURE: &[u8] =
    include_bytes!("../../crates/benchgrind-runner/tests/fixtures/fib10.cache-sim.callgrind.out");

fuzz_target!(|data: &[u8]| {
    let path = Path::new("baseline.main.callgrind.out");
    let profile = match profile::parse(path, data, Read::Totals) {
        Ok(profile) => profile,
        Err(e) => return check_parse_error(&e, path, data),
    };
    let new = profile::parse(Path::new("callgrind.out"), FIXTURE, Read::Totals)
        .expect("the fixture reads");
    let (old, new) = (Metrics::from_profile(&profile), Metrics::from_profile(&new));
    let mut config = RegressionConfig::default();
    config
        .limits([(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, -1.0)])
        .hard_limits([(EventKind::Ir, 1000)]);
    for r in regression::check(&config, &new, Some(&old)) {
        let _ = r.describe();
    }
    let _ = regression::check(&config, &old, Some(&new));
    let _ = baseline::benchmark("bench::group::function".into(), &profile);
});
