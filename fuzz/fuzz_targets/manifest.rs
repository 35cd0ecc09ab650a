//! A package's `Cargo.toml` as the proc macros read it, to find the key benchgrind is known by
//! (`iai-callgrind = { package = "benchgrind", ... }`): the macros' own small TOML reader, built
//! from its file as it is (it has no dependencies).
#![no_main]

#[path = "../../crates/benchgrind-macros/src/manifest.rs"]
#[allow(dead_code)]
mod manifest;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = manifest::manifest(&text);
    // As its own workspace and with an empty one: the key found is one of its entries'.
    for workspace in [&read.entries[..], &[]] {
        if let Some(key) = manifest::crate_name(&read.entries, workspace) {
            assert!(
                read.entries.iter().any(|e| e.key == key),
                "`{key}` is no entry of the manifest"
            );
        }
    }
});
