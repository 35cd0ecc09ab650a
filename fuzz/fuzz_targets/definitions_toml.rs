//! A suite's benchmark definition file (`definitions/*.toml`, rebar's format), in the example
//! suite's directory so that `path`s can name its haystack; each definition is then encoded as
//! the KLV a runner gets. Every problem names `file:line`.
#![no_main]

use std::path::Path;

use benchgrind_cli::suite::format::definitions;
use benchgrind_cli::suite::klv::{self, Limits};
use benchgrind_fuzz::check_lines_in_message;
use libfuzzer_sys::fuzz_target;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/suite/benchmarks");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let dir = Path::new(SUITE);
    let path = dir.join("definitions/fuzz.toml");
    let name = path.display().to_string();
    let defs = definitions::load_text(dir, &path, text);
    for p in &defs.problems {
        assert!(p.location.starts_with(&name), "{p}");
        check_lines_in_message(&p.to_string(), &name, data);
    }
    for def in &defs.defs {
        let _ = def.count_for("rust/memmem");
        let _ = def.haystack_len();
        let _ = klv::encode(def, &Limits::default());
    }
});
