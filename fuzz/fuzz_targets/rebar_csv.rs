//! A suite results file: rebar's CSV, benchgrind's full-precision CSV or its JSON. What is read
//! must survive being written in each format and read back.
#![no_main]

use std::path::Path;

use benchgrind_cli::suite::results::{self, Format};
use benchgrind_fuzz::check_lines_in_message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let name = "results.csv";
    let measurements = match results::parse(Path::new(name), text) {
        Ok(m) => m,
        Err(e) => return check_lines_in_message(&format!("{e:#}"), name, data),
    };
    for format in [Format::Rebar, Format::Csv, Format::Json] {
        let mut out = Vec::new();
        results::write_all(&mut out, &measurements, format).expect("into memory");
        let written = String::from_utf8(out).expect("results are written as UTF-8");
        let again = results::parse(Path::new("again.csv"), &written);
        if let Err(e) = again {
            panic!("{format:?}: what was read cannot be read back once written: {e:#}\n{written}");
        }
    }
});
