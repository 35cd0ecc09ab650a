//! A Valgrind log (Memcheck, Helgrind, DRD): the `ERROR SUMMARY` parser.
#![no_main]

use std::path::Path;

use benchgrind_fuzz::check_parse_error;
use benchgrind_runner::parse::errors;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("memcheck.log");
    if let Err(e) = errors::parse(path, data) {
        check_parse_error(&e, path, data);
    }
});
