//! Massif's output (`massif.out`): the parser and the peak benchgrind reports.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::parse::massif;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("massif.out");
    match massif::parse(path, data) {
        Ok(profile) => {
            let _ = profile.peak();
        }
        Err(e) => check_parse_error(&e, path, data),
    }
});
