//! The KLV ("key:length:value\n") input of runner programs, byte for byte as rebar writes it.
//!
//! Order of items: name, model, case-insensitive, unicode, max-iters, max-warmup-iters,
//! max-time, max-warmup-time (times in nanoseconds), one `pattern` per pattern, haystack.

use std::time::Duration;

use super::format::definitions::Definition;

/// How long and how often a runner should repeat the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum number of measured iterations.
    pub max_iters: u64,
    /// Maximum number of warm-up iterations.
    pub max_warmup_iters: u64,
    /// Approximate time budget for measured iterations.
    pub max_time: Duration,
    /// Approximate time budget for warm-up.
    pub max_warmup_time: Duration,
}

/// Appends one `key:length:value
/// ` item.
fn item(out: &mut Vec<u8>, key: &str, value: &[u8]) {
    out.extend_from_slice(key.as_bytes());
    out.push(b':');
    out.extend_from_slice(value.len().to_string().as_bytes());
    out.push(b':');
    out.extend_from_slice(value);
    out.push(b'\n');
}

/// Encodes one benchmark execution as KLV.
pub fn encode(def: &Definition, limits: &Limits) -> Vec<u8> {
    let mut out = Vec::with_capacity(def.haystack.len() + 256);
    item(&mut out, "name", def.name.as_bytes());
    item(&mut out, "model", def.model.as_bytes());
    item(
        &mut out,
        "case-insensitive",
        def.case_insensitive.to_string().as_bytes(),
    );
    item(&mut out, "unicode", def.unicode.to_string().as_bytes());
    item(
        &mut out,
        "max-iters",
        limits.max_iters.to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-warmup-iters",
        limits.max_warmup_iters.to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-time",
        limits.max_time.as_nanos().to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-warmup-time",
        limits.max_warmup_time.as_nanos().to_string().as_bytes(),
    );
    for p in &def.patterns {
        item(&mut out, "pattern", p.as_bytes());
    }
    item(&mut out, "haystack", &def.haystack);
    out
}
