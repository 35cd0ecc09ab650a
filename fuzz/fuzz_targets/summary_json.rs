//! benchgrind's JSON summaries (`summary.json`, `--output-format=json` lines): as `merge` reads
//! them (and reports the results they describe) and as `compare` reads them (and compares them
//! with the committed fixture run).
#![no_main]

use std::path::Path;

use benchgrind_cli::cmd::merge;
use benchgrind_cli::compare::input::file;
use benchgrind_fuzz::{check_lines_in_message, compare_and_report, report_summary};
use libfuzzer_sys::fuzz_target;

const FIXTURE: &[u8] =
    include_bytes!("../../crates/benchgrind-cli/tests/compare/fixtures/benchgrind/work1000.jsonl");

fuzz_target!(|data: &[u8]| {
    let name = "summary.json";
    let path = Path::new(name);
    if let Ok(text) = std::str::from_utf8(data) {
        match merge::parse_summaries(path, text) {
            Ok(summaries) => summaries.iter().for_each(report_summary),
            Err(e) => check_lines_in_message(&format!("{e:#}"), name, data),
        }
    }
    match file::parse(path, data.to_vec(), "new".into()) {
        Ok(set) => {
            let fixture = file::parse(Path::new("work1000.jsonl"), FIXTURE.to_vec(), "old".into())
                .expect("the fixture reads");
            compare_and_report(&fixture, &set);
            compare_and_report(&set, &set);
        }
        Err(e) => check_lines_in_message(&format!("{e:#}"), name, data),
    }
});
