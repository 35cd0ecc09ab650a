//! A `--toggle-collect` of the benchmark's own (its Callgrind arguments, or `--callgrind-args`)
//! whose pattern names no function of the measured program changes nothing, and Callgrind does
//! not say so: a pattern mistyped, or several joined by commas into one (Callgrind takes one
//! pattern per `--toggle-collect`), passes unseen. After the run, each pattern is matched
//! against the names of the profile and the function symbols of every object the profile names
//! (the program and its libraries); one that matches none is noted under the benchmark.
//!
//! The profile alone cannot tell: a function that switches collection off while it runs (what
//! a toggle does inside a library benchmark's window) is not in it at all. The symbols are
//! read once per object and run, and only for benchmarks with toggles of their own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::execute::args::collection_args;
use crate::parse::profile::{self, Read};
use crate::plan::Job;
use crate::result::{BenchResult, Outcome};

/// The function names of the objects read so far in the run (`None`: not a readable ELF file
/// with symbols, so nothing can be said of patterns over it).
#[derive(Default)]
pub(super) struct Symbols {
    by_object: HashMap<PathBuf, Option<Vec<String>>>,
}

impl Symbols {
    /// Adds a warning to the result for each of the job's own `--toggle-collect` patterns that
    /// names no function of the measured program.
    pub fn check(&mut self, job: &Job, result: &mut BenchResult) {
        let patterns = patterns(&job.config.raw_callgrind_args);
        if patterns.is_empty() || !job.config.runs_callgrind() {
            return;
        }
        if !matches!(result.outcome, Outcome::Measured { .. }) {
            return;
        }
        let Ok(profile) = profile::parse_file(&result.profile, Read::Functions) else {
            return;
        };
        let mut objects: Vec<&str> = (profile.functions.iter())
            .filter_map(|f| f.object.as_deref())
            .collect();
        objects.sort_unstable();
        objects.dedup();
        for &object in &objects {
            (self.by_object)
                .entry(PathBuf::from(object))
                .or_insert_with(|| function_symbols(Path::new(object)));
        }
        let mut names: Vec<&str> = profile.functions.iter().map(|f| f.name.as_str()).collect();
        for object in objects {
            match &self.by_object[Path::new(object)] {
                Some(symbols) => names.extend(symbols.iter().map(String::as_str)),
                // An object whose functions are unknown could hold a match.
                None => return,
            }
        }
        for pattern in patterns {
            if !names.iter().any(|name| matches(pattern, name)) {
                result.warnings.push(unmatched(pattern));
            }
        }
    }
}

/// The patterns of the `--toggle-collect` arguments among `args`.
fn patterns(args: &[String]) -> Vec<&str> {
    collection_args(args)
        .into_iter()
        .filter_map(|a| a.strip_prefix("toggle-collect="))
        .collect()
}

/// The note of a pattern that matched nothing.
fn unmatched(pattern: &str) -> String {
    let mut text = format!(
        "--toggle-collect={pattern} matches no function of the measured program, so it changed \
         nothing"
    );
    if pattern.contains(',') {
        text.push_str(
            ": Callgrind takes one pattern per --toggle-collect, commas and all; give each \
             pattern its own",
        );
    } else {
        text.push_str(
            " (check the pattern as the profile writes names, `*` as a wildcard; an inlined \
             function has no name of its own)",
        );
    }
    text
}

/// Whether `name` matches `pattern` as Callgrind matches a function name: whole, `*` any run
/// of characters, `?` one character.
fn matches(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// The names of the functions of an ELF file (64-bit, little-endian), from its symbol table and
/// its dynamic one: Rust's demangled with and without their hash, others as they are. `None`
/// for another kind of file or one without symbols.
fn function_symbols(path: &Path) -> Option<Vec<String>> {
    let bytes = std::fs::read(path).ok()?;
    let names = elf_functions(&bytes)?;
    let mut all = Vec::with_capacity(names.len() * 2);
    for name in names {
        match rustc_demangle::try_demangle(name) {
            Ok(demangled) => {
                all.push(format!("{demangled:#}"));
                all.push(demangled.to_string());
            }
            Err(_) => all.push(name.to_owned()),
        }
    }
    (!all.is_empty()).then_some(all)
}

/// The names of the function symbols (`STT_FUNC`, `STT_GNU_IFUNC`) of an ELF64 little-endian
/// file's `.symtab` and `.dynsym`.
fn elf_functions(bytes: &[u8]) -> Option<Vec<&str>> {
    const SHT_SYMTAB: u32 = 2;
    const SHT_DYNSYM: u32 = 11;
    const STT_FUNC: u8 = 2;
    const STT_GNU_IFUNC: u8 = 10;
    if bytes.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let u16_at = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| {
        let v = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?);
        usize::try_from(v).ok()
    };
    let shoff = u64_at(0x28)?;
    let (shentsize, shnum) = (usize::from(u16_at(0x3a)?), usize::from(u16_at(0x3c)?));
    let section = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let mut names = Vec::new();
    for i in 0..shnum {
        let header = section(i)?;
        let kind = u32_at(header + 4)?;
        if kind != SHT_SYMTAB && kind != SHT_DYNSYM {
            continue;
        }
        let (offset, size, entsize) = (u64_at(header + 24)?, u64_at(header + 32)?, 24);
        let strings = section(usize::try_from(u32_at(header + 40)?).ok()?)?;
        let (str_offset, str_size) = (u64_at(strings + 24)?, u64_at(strings + 32)?);
        let table = bytes.get(str_offset..str_offset.checked_add(str_size)?)?;
        for sym in (offset..offset.checked_add(size)?).step_by(entsize) {
            let info = *bytes.get(sym + 4)?;
            if !matches!(info & 0xf, STT_FUNC | STT_GNU_IFUNC) {
                continue;
            }
            let start = usize::try_from(u32_at(sym)?).ok()?;
            let Some(rest) = table.get(start..) else {
                continue;
            };
            let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            if let Ok(name) = std::str::from_utf8(&rest[..end]) {
                if !name.is_empty() {
                    names.push(name);
                }
            }
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_whole_names_with_wildcards() {
        assert!(matches("util::*", "util::build_hasher"));
        assert!(matches("fib?", "fib2"));
        assert!(!matches("util::*,core::mem::drop", "util::build_hasher"));
        assert!(!matches("util", "util::build_hasher"));
        let args = [
            "--toggle-collect=a::*".to_owned(),
            "toggle-collect=b,c".to_owned(),
            "--collect-atstart=no".to_owned(),
        ];
        assert_eq!(patterns(&args), ["a::*", "b,c"]);
        assert!(unmatched("b,c").contains("one pattern per --toggle-collect"));
    }

    #[test]
    fn this_test_binary_has_its_functions_by_name() {
        let exe = std::env::current_exe().unwrap();
        let names = function_symbols(&exe).expect("the test binary's symbols");
        let this = "this_test_binary_has_its_functions_by_name";
        assert!(
            names.iter().any(|n| matches(&format!("*::{this}"), n)),
            "{} names",
            names.len()
        );
        assert_eq!(function_symbols(Path::new("/nonexistent")), None);
    }
}
