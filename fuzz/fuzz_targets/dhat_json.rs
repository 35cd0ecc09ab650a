//! DHAT's JSON output (`dhat.out`): the parser and the totals restricted to a benchmark's frames.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::parse::dhat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("dhat.out");
    match dhat::parse(path, data) {
        Ok(profile) => {
            let _ = profile.restricted_to("");
            for frame in profile.ftbl.iter().take(4) {
                let _ = profile.restricted_to(dhat::frame_function(frame));
            }
        }
        Err(e) => check_parse_error(&e, path, data),
    }
});
