//! A runner program for the memmem suite, following the "bring your own benchmarks" guide:
//! read KLV from stdin, run the `iter` model with the engine named by the first argument,
//! print one `nanoseconds,count` line per iteration.
//!
//! The guide uses the `memchr` crate; to build without network access this runner has no
//! dependencies: `rust/memmem` is a searcher built once (a byte-skip table over the needle),
//! `rust/memmem/restricted` rebuilds it on every search (the constraint libc's API imposes), and
//! `libc/memmem` calls the C library's `memmem` through a hand-written declaration.

use std::{
    io::{Read, Write},
    time::{Duration, Instant},
};

type Result<T> = std::result::Result<T, String>;

#[derive(Default)]
struct Config {
    model: String,
    needle: Vec<u8>,
    haystack: Vec<u8>,
    max_iters: u64,
    max_warmup_iters: u64,
    max_time: Duration,
    max_warmup_time: Duration,
}

/// Splits one `key:len:value\n` item off the front of `raw`.
fn next_item(raw: &[u8]) -> Result<(&str, &[u8], &[u8])> {
    let colon = |s: &[u8]| s.iter().position(|&b| b == b':');
    let k = colon(raw).ok_or("KLV: missing ':' after the key")?;
    let key = std::str::from_utf8(&raw[..k]).map_err(|_| "KLV: key is not UTF-8")?;
    let rest = &raw[k + 1..];
    let l = colon(rest).ok_or_else(|| format!("KLV: missing ':' after the length of '{key}'"))?;
    let len: usize = std::str::from_utf8(&rest[..l])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("KLV: the length of '{key}' is not a number"))?;
    let rest = &rest[l + 1..];
    if rest.len() <= len || rest[len] != b'\n' {
        return Err(format!(
            "KLV: value of '{key}' is not {len} bytes followed by a newline"
        ));
    }
    Ok((key, &rest[..len], &rest[len + 1..]))
}

impl Config {
    fn read(mut raw: &[u8]) -> Result<Config> {
        let mut c = Config::default();
        let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        let num = |v: &[u8]| -> Result<u64> {
            text(v)
                .parse()
                .map_err(|_| format!("KLV: bad number {:?}", text(v)))
        };
        while !raw.is_empty() {
            let (key, value, rest) = next_item(raw)?;
            match key {
                "model" => c.model = text(value),
                "pattern" => c.needle = value.to_vec(),
                "haystack" => c.haystack = value.to_vec(),
                "max-iters" => c.max_iters = num(value)?,
                "max-warmup-iters" => c.max_warmup_iters = num(value)?,
                "max-time" => c.max_time = Duration::from_nanos(num(value)?),
                "max-warmup-time" => c.max_warmup_time = Duration::from_nanos(num(value)?),
                _ => {}
            }
            raw = rest;
        }
        Ok(c)
    }
}

/// Warm up, then time each call of `bench`, stopping at whichever limit comes first.
fn run(c: &Config, mut bench: impl FnMut() -> usize) -> Vec<(Duration, usize)> {
    let start = Instant::now();
    for _ in 0..c.max_warmup_iters {
        bench();
        if start.elapsed() >= c.max_warmup_time {
            break;
        }
    }
    let mut samples = vec![];
    let start = Instant::now();
    for _ in 0..c.max_iters {
        let t = Instant::now();
        let count = bench();
        samples.push((t.elapsed(), count));
        if start.elapsed() >= c.max_time {
            break;
        }
    }
    samples
}

/// A substring searcher built once per needle (Horspool's skip table).
struct Finder {
    needle: Vec<u8>,
    skip: [usize; 256],
}

impl Finder {
    fn new(needle: &[u8]) -> Finder {
        let mut skip = [needle.len().max(1); 256];
        for (i, &b) in needle
            .iter()
            .enumerate()
            .take(needle.len().saturating_sub(1))
        {
            skip[b as usize] = needle.len() - 1 - i;
        }
        Finder {
            needle: needle.to_vec(),
            skip,
        }
    }

    fn find(&self, hay: &[u8]) -> Option<usize> {
        let n = self.needle.len();
        if n == 0 {
            return Some(0);
        }
        let mut i = 0;
        while i + n <= hay.len() {
            if hay[i + n - 1] == self.needle[n - 1] && &hay[i..i + n] == self.needle.as_slice() {
                return Some(i);
            }
            i += self.skip[hay[i + n - 1] as usize];
        }
        None
    }
}

/// Counts non-overlapping matches, moving past each one (at least one byte, so an empty needle
/// terminates too).
fn count_all(needle: &[u8], mut hay: &[u8], mut find: impl FnMut(&[u8]) -> Option<usize>) -> usize {
    let mut count = 0;
    while let Some(i) = find(hay) {
        count += 1;
        match hay.get(i + needle.len().max(1)..) {
            Some(rest) => hay = rest,
            None => break,
        }
    }
    count
}

extern "C" {
    fn memmem(haystack: *const u8, hlen: usize, needle: *const u8, nlen: usize) -> *const u8;
}

fn libc_memmem(hay: &[u8], needle: &[u8]) -> Option<usize> {
    // SAFETY: both pointers come from live slices and the lengths are theirs; memmem only reads.
    let p = unsafe { memmem(hay.as_ptr(), hay.len(), needle.as_ptr(), needle.len()) };
    (!p.is_null()).then(|| p as usize - hay.as_ptr() as usize)
}

fn main() -> Result<()> {
    let engine = std::env::args()
        .nth(1)
        .ok_or("usage: runner (<engine> | --version)")?;
    if engine == "--version" {
        println!("{}", env!("CARGO_PKG_VERSION"));
        return Ok(());
    }
    let mut raw = vec![];
    std::io::stdin()
        .read_to_end(&mut raw)
        .map_err(|e| format!("reading stdin: {e}"))?;
    let c = Config::read(&raw)?;
    let (needle, hay) = (&c.needle[..], &c.haystack[..]);
    let samples = match (engine.as_str(), c.model.as_str()) {
        ("rust/memmem", "iter") => {
            let finder = Finder::new(needle);
            run(&c, || count_all(needle, hay, |h| finder.find(h)))
        }
        ("rust/memmem/restricted", "iter") => run(&c, || {
            count_all(needle, hay, |h| Finder::new(needle).find(h))
        }),
        ("libc/memmem", "iter") => run(&c, || count_all(needle, hay, |h| libc_memmem(h, needle))),
        (e, m) => return Err(format!("unrecognized engine '{e}' and model '{m}'")),
    };
    let mut out = std::io::stdout().lock();
    for (d, count) in samples {
        writeln!(out, "{},{count}", d.as_nanos()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found while fuzzing benchgrind's KLV (fuzz/fuzz_targets/klv.rs): a length of 2^64-1 made
    // the check `len + 1` overflow (a panic in a debug build, a wrong check in a release one).
    #[test]
    fn any_length_is_checked_without_overflow() {
        let e = next_item(b"pattern:18446744073709551615:x\n").unwrap_err();
        assert!(e.contains("is not 18446744073709551615 bytes"), "{e}");
        assert!(next_item(b"pattern:99999999999999999999:x\n").is_err());
        assert!(next_item(b"pattern:2:ab").is_err());
        let (key, value, rest) = next_item(b"pattern:2:ab\nmodel:4:iter\n").unwrap();
        assert_eq!(
            (key, value, rest),
            ("pattern", &b"ab"[..], &b"model:4:iter\n"[..])
        );
    }
}
