//! The KLV exchange of `benchgrind suite` with a runner program. benchgrind writes KLV and reads
//! the runner's `nanoseconds,count` lines back: the input is read both as a runner's reply and,
//! when it is KLV (as `benchgrind suite klv` prints it), as a benchmark to encode again, which
//! must decode to the same items whatever bytes the values hold.
#![no_main]

use std::sync::Arc;
use std::time::Duration;

use benchgrind_cli::suite::format::definitions::Definition;
use benchgrind_cli::suite::klv::{self, Limits};
use benchgrind_cli::suite::runner;
use benchgrind_fuzz::decode_klv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(samples) = runner::parse_samples(data) {
        assert!(samples.len() <= benchgrind_fuzz::line_count(data));
    }
    let Ok(items) = decode_klv(data) else {
        return;
    };
    let text = |key: &str| {
        items
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .unwrap_or_default()
    };
    let number = |key: &str| text(key).parse::<u64>().unwrap_or(0);
    let def = Definition {
        name: text("name"),
        model: text("model"),
        patterns: items
            .iter()
            .filter(|(k, _)| k == "pattern")
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .collect(),
        regex_path: None,
        case_insensitive: text("case-insensitive") == "true",
        unicode: text("unicode") == "true",
        haystack: Arc::from(
            items
                .iter()
                .find(|(k, _)| k == "haystack")
                .map_or(&[][..], |(_, v)| v.as_slice()),
        ),
        haystack_path: None,
        counts: Vec::new(),
        engines: Vec::new(),
        analysis: None,
        location: "fuzz".into(),
    };
    let limits = Limits {
        max_iters: number("max-iters"),
        max_warmup_iters: number("max-warmup-iters"),
        max_time: Duration::from_nanos(number("max-time")),
        max_warmup_time: Duration::from_nanos(number("max-warmup-time")),
    };
    let encoded = klv::encode(&def, &limits);
    let decoded = decode_klv(&encoded).expect("benchgrind's KLV decodes");
    let value = |key: &str| {
        decoded
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no `{key}` item"))
    };
    assert_eq!(value("name"), def.name.as_bytes());
    assert_eq!(value("model"), def.model.as_bytes());
    assert_eq!(value("haystack"), &def.haystack[..]);
    assert_eq!(
        value("max-time"),
        limits.max_time.as_nanos().to_string().as_bytes()
    );
    let patterns: Vec<&[u8]> = decoded
        .iter()
        .filter(|(k, _)| k == "pattern")
        .map(|(_, v)| v.as_slice())
        .collect();
    let want: Vec<&[u8]> = def.patterns.iter().map(|p| p.as_bytes()).collect();
    assert_eq!(patterns, want);
});
