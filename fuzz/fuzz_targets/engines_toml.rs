//! A suite's `engines.toml` (rebar's format): every problem names `engines.toml:line`.
#![no_main]

use std::path::Path;

use benchgrind_cli::suite::format::engines::Engines;
use benchgrind_fuzz::check_lines_in_message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let name = "engines.toml";
    match Engines::parse(Path::new(name), text) {
        Ok(engines) => {
            for engine in engines.order.iter().map(|n| &engines.by_name[n]) {
                let _ = engine.run.display();
            }
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            for p in problems {
                assert!(p.location.starts_with(name), "{p}");
                check_lines_in_message(&p.to_string(), name, data);
            }
        }
    }
});
