//! Google Benchmark JSON (`--benchmark_out_format=json`), as `compare` reads any result file,
//! then compared with the committed fixture run and with itself, and reported.
#![no_main]

use std::path::Path;

use benchgrind_cli::compare::input::file;
use benchgrind_fuzz::{check_lines_in_message, compare_and_report};
use libfuzzer_sys::fuzz_target;

const FIXTURE: &[u8] =
    include_bytes!("../../crates/benchgrind-cli/tests/compare/fixtures/gb_reps5_old.json");

fuzz_target!(|data: &[u8]| {
    let name = "gbench.json";
    match file::parse(Path::new(name), data.to_vec(), "new".into()) {
        Ok(set) => {
            let fixture = file::parse(Path::new("old.json"), FIXTURE.to_vec(), "old".into())
                .expect("the fixture reads");
            compare_and_report(&fixture, &set);
            compare_and_report(&set, &set);
        }
        Err(e) => check_lines_in_message(&format!("{e:#}"), name, data),
    }
});
