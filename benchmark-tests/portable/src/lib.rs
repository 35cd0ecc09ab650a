//! Hot paths of real crates, the work of a user's benchmarks: substring search (memchr),
//! JSON parsing (serde_json) and regular expressions (regex), with threads and `HashMap`s
//! seeded by the operating system beside them. The inputs are made here, the same on every
//! machine.

use std::collections::HashMap;
use std::fmt::Write;

/// A text of `lines` log lines, some of which hold `needle`-like words.
pub fn log_text(lines: usize) -> String {
    let mut text = String::new();
    for i in 0..lines {
        let level = ["INFO", "WARN", "ERROR", "DEBUG"][i % 4];
        let _ = writeln!(
            text,
            "2026-12-02T00:{:02}:{:02} {level} request {i} took {} ms from 10.0.{}.{}",
            i / 60 % 60,
            i % 60,
            i * 7 % 1000,
            i % 256,
            (i * 13) % 256
        );
    }
    text
}

/// A JSON array of `items` objects, as an API might answer.
pub fn json_text(items: usize) -> String {
    let mut text = String::from("[");
    for i in 0..items {
        if i > 0 {
            text.push(',');
        }
        let _ = write!(
            text,
            r#"{{"id":{i},"name":"item {i}","price":{}.{:02},"tags":["a{}","b{}"],"ok":{}}}"#,
            i * 3,
            i % 100,
            i % 7,
            i % 5,
            i % 2 == 0
        );
    }
    text.push(']');
    text
}

/// How often `needle` occurs in `haystack`.
pub fn count_matches(haystack: &str, needle: &str) -> usize {
    memchr::memmem::find_iter(haystack.as_bytes(), needle.as_bytes()).count()
}

/// The sum of the `id`s of a JSON array of objects.
pub fn sum_ids(json: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
    value
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["id"].as_u64()).sum())
        .unwrap_or(0)
}

/// The pattern of an IPv4 address with its last part captured.
pub const ADDRESS: &str = r"10\.0\.(\d+)\.(\d+)";

/// The sum of the last parts of the addresses in `text`.
pub fn sum_addresses(re: &regex::Regex, text: &str) -> u64 {
    re.captures_iter(text)
        .filter_map(|c| c[2].parse::<u64>().ok())
        .sum()
}

/// The sum of `0..n` computed by `threads` threads, each its share.
pub fn threaded_sum(n: u64, threads: u64) -> u64 {
    let handles: Vec<_> = (0..threads)
        .map(|t| std::thread::spawn(move || (t..n).step_by(threads as usize).sum::<u64>()))
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).sum()
}

/// The keys of a `HashMap` of `n` words in the map's own order, folded into one number: its
/// value and the instructions it takes follow the keys the operating system seeded the map with.
pub fn hash_order(n: usize) -> u64 {
    let map: HashMap<String, usize> = (0..n).map(|i| (format!("word{i}"), i)).collect();
    map.iter().enumerate().fold(0u64, |acc, (pos, (_, &v))| {
        acc.wrapping_mul(31).wrapping_add((pos ^ v) as u64)
    })
}

/// The keys of a `foldhash` map of `n` words, collected and sorted: the map's seed mixes in
/// the time of day (`SystemTime::now`) and addresses of the stack and the heap, so its probe
/// lengths, and the instructions of this function, follow all three.
pub fn foldhash_keys(n: usize) -> usize {
    let mut map: foldhash::HashMap<String, usize> = foldhash::HashMap::default();
    for i in 0..n {
        map.insert(format!("key{i}"), i);
    }
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    keys.len() + keys.first().map_or(0, |k| k.len())
}

/// Milliseconds since the epoch, as a program stamping a record reads them (the wall clock).
pub fn stamp() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// Vectors of growing sizes, for DHAT to count: `n` allocations, the bytes of each kept in a
/// checksum.
pub fn allocations(n: usize) -> usize {
    (1..=n)
        .map(|i| {
            vec![i as u8; i * 16]
                .iter()
                .map(|&b| b as usize)
                .sum::<usize>()
        })
        .sum()
}
