//! A Callgrind profile as `benchgrind explain` reads it (per function, file and line), explained
//! against a committed fixture and against itself, in every output format.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::explain::{self, Options};
use benchgrind_runner::parse::profile::{self, Read};
use libfuzzer_sys::fuzz_target;

const FIXTURE: &[u8] =
    include_bytes!("../../crates/benchgrind-runner/tests/fixtures/fib10.cache-sim.callgrind.out");

fuzz_target!(|data: &[u8]| {
    let path = Path::new("callgrind.out");
    let new = match profile::parse(path, data, Read::Full) {
        Ok(profile) => profile,
        Err(e) => return check_parse_error(&e, path, data),
    };
    let old = profile::parse(Path::new("old.out"), FIXTURE, Read::Full).expect("the fixture reads");
    for (old, new) in [(&old, &new), (&new, &new)] {
        let Ok(explanation) = explain::explain_profiles(old, new, &Options::default()) else {
            continue;
        };
        let _ = explanation.adds_up();
        let _ = explanation.other(5);
        let mut out = Vec::new();
        explanation
            .write_terminal(&mut out, 5, 3)
            .expect("into memory");
        let _ = explanation.to_markdown("f::g::h", None, 5, 3);
        let _ = serde_json::to_string(&explanation.to_wire()).expect("serializes");
    }
});
