//! Real crates' hot paths, as a benchmark file of the iai-callgrind/gungraun API: the same file
//! runs under benchgrind and, with only the crate path changed, under gungraun 0.20
//! (`scripts/parity.py` builds both and prints their counts side by side). Every input is built
//! in setup; the bodies take them by value, as real benchmarks do, so the drop of an argument the
//! body does not move is part of what is counted, inside the function, where Rust drops it.

use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};
use regex::Regex;

/// Deterministic English-like text: `lines` lines of names, verbs and places.
fn text(lines: usize) -> String {
    let names = ["Sherlock Holmes", "Dr. Watson", "Mrs. Hudson", "Inspector Lestrade"];
    let verbs = ["looked at", "wrote to", "waited for", "followed", "questioned"];
    let places = ["in Baker Street", "by the river", "at the station", "in the fog"];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = String::new();
    for _ in 0..lines {
        let (a, b) = (names[next(names.len())], names[next(names.len())]);
        let verb = verbs[next(verbs.len())];
        let place = places[next(places.len())];
        out.push_str(&format!("{a} {verb} {b} {place} on day {}.\n", next(1000)));
    }
    out
}

fn haystack() -> Vec<u8> {
    text(8_000).into_bytes()
}

/// A JSON document of about 60 KB: an array of small records.
fn document() -> String {
    let mut out = String::from("[");
    for i in 0..600 {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            r#"{{"id":{i},"name":"record {i}","tags":["a","b{}"],"score":{}.{},"ok":{}}}"#,
            i % 7,
            i * 3,
            i % 10,
            i % 2 == 0
        ));
    }
    out.push(']');
    out
}

fn regex_and_text() -> (Regex, String) {
    (Regex::new(r"[A-Z][a-z]+ [A-Z][a-z]+").unwrap(), text(1_000))
}

#[library_benchmark]
#[bench::sherlock(setup = haystack)]
fn memmem_count(haystack: Vec<u8>) -> usize {
    memchr::memmem::find_iter(&haystack, b"Sherlock Holmes").count()
}

#[library_benchmark]
#[bench::records(setup = document)]
fn json_parse(document: String) -> serde_json::Value {
    serde_json::from_str(&document).unwrap()
}

#[library_benchmark]
#[bench::names(setup = regex_and_text)]
fn regex_search((regex, text): (Regex, String)) -> usize {
    regex.find_iter(&text).count()
}

#[library_benchmark]
#[bench::email(r"(?i)[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}")]
fn regex_compile(pattern: &str) -> Regex {
    Regex::new(black_box(pattern)).unwrap()
}

library_benchmark_group!(
    name = hot_paths;
    benchmarks = memmem_count, json_parse, regex_search, regex_compile
);

main!(library_benchmark_groups = hot_paths);
