//! Function names for people: demangled, without hashes, with long paths shortened.
//!
//! Valgrind demangles most names itself; what reaches here mangled (`--demangle=no`, or a
//! Rust v0 name an older Valgrind does not know) is demangled with `rustc-demangle`. The full
//! name (hash removed, generics kept) identifies a function across two profiles; the short
//! form is only for display.

/// The function a Callgrind context belongs to: the name without the recursion level
/// (`fib'2` -> `fib`) and the callers that `--separate-callers` appends (`helper'step'work` ->
/// `helper`), so that every context of a function counts for the function. Only a `'` outside
/// brackets and right after a name counts: `&'a` and `for<'a>` in demangled names are
/// lifetimes.
pub fn base_name(name: &str) -> &str {
    let mut depth = 0i32;
    let mut prev = ' ';
    for (i, c) in name.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            '\'' if depth == 0 && i > 0 && !matches!(prev, '&' | ' ' | ',' | '<' | '(') => {
                return &name[..i];
            }
            _ => {}
        }
        prev = c;
    }
    name
}

/// The full readable name: Rust symbols demangled, legacy hashes (`::h0123456789abcdef`)
/// removed, generic arguments kept.
pub fn demangle(name: &str) -> String {
    let name = base_name(name);
    if let Ok(symbol) = rustc_demangle::try_demangle(name) {
        // `{:#}` leaves out the hash of legacy symbols.
        return format!("{symbol:#}");
    }
    strip_hash(name).to_owned()
}

/// Removes a trailing legacy Rust hash, `::h` and 16 hex digits.
fn strip_hash(name: &str) -> &str {
    // Not at a character boundary, the tail cannot be the ASCII hash (and cannot be split off).
    let Some(i) = name
        .len()
        .checked_sub(19)
        .filter(|&i| name.is_char_boundary(i))
    else {
        return name;
    };
    let (base, tail) = name.split_at(i);
    let hex = tail.strip_prefix("::h");
    match hex {
        Some(h) if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) => base,
        _ => name,
    }
}

/// A shorter name for display. Each path in the name (the outer one and those inside generic
/// arguments) keeps one module before its first type (`alloc::vec::Vec<T>::push` ->
/// `vec::Vec<T>::push`) or, without a type, its last three segments
/// (`my_crate::parser::lexer::next_token` -> `parser::lexer::next_token`).
pub fn shorten(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut path: Vec<&str> = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let len = ident_len(rest);
        if len > 0 {
            path.push(&rest[..len]);
            rest = &rest[len..];
            // A path goes on only through `::` directly followed by the next segment.
            match rest.strip_prefix("::") {
                Some(after) if ident_len(after) > 0 => rest = after,
                _ => flush(&mut path, &mut out),
            }
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    flush(&mut path, &mut out);
    out
}

/// Writes a path's kept segments.
fn flush(path: &mut Vec<&str>, out: &mut String) {
    let keep_from = match path.iter().position(|s| is_type(s)) {
        Some(t) => t.saturating_sub(1),
        None => path.len().saturating_sub(3),
    };
    out.push_str(&path[keep_from..].join("::"));
    path.clear();
}

fn is_type(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
}

/// The length of the path segment at the start of `s`: an identifier, or a `{closure#0}`-like
/// braced segment.
fn ident_len(s: &str) -> usize {
    if s.starts_with('{') {
        let mut depth = 0;
        for (i, c) in s.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        return 0;
    }
    s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_rust_symbols_and_drops_hashes() {
        for (raw, full) in [
            // Legacy, as rustc wrote it (hash dropped).
            (
                "_ZN4core3ptr13drop_in_place17h0123456789abcdefE",
                "core::ptr::drop_in_place",
            ),
            // v0, generics kept.
            (
                "_RINvNtC3std3mem8align_ofjEB4_",
                "std::mem::align_of::<usize>",
            ),
            // Already demangled by Valgrind, with the hash it leaves.
            ("e2e::helper::h0123456789abcdef", "e2e::helper"),
            ("fib'2", "fib"),
            ("__memcpy_avx_unaligned_erms", "__memcpy_avx_unaligned_erms"),
            (
                "std::vector<int>::push_back(int const&)",
                "std::vector<int>::push_back(int const&)",
            ),
        ] {
            assert_eq!(demangle(raw), full, "{raw}");
        }
        for (raw, base) in [
            ("fib'2", "fib"),
            ("helper'step'work", "helper"),
            (
                "<&'a str as core::fmt::Display>::fmt'main",
                "<&'a str as core::fmt::Display>::fmt",
            ),
            ("f'", "f"),
        ] {
            assert_eq!(base_name(raw), base, "{raw}");
        }
    }

    #[test]
    fn shortens_paths_and_keeps_generics() {
        for (full, short) in [
            ("alloc::vec::Vec<T,A>::push", "vec::Vec<T,A>::push"),
            ("core::ptr::drop_in_place<alloc::vec::Vec<u8>>", "core::ptr::drop_in_place<vec::Vec<u8>>"),
            ("my_crate::parser::lexer::next_token", "parser::lexer::next_token"),
            (
                "<std::collections::hash::map::HashMap<K,V,S> as core::ops::index::Index<&Q>>::index",
                "<map::HashMap<K,V,S> as index::Index<&Q>>::index",
            ),
            ("e2e::work::{closure#0}", "e2e::work::{closure#0}"),
            ("helper", "helper"),
        ] {
            assert_eq!(shorten(full), short, "{full}");
        }
    }

    // Found by fuzzing (fuzz/fuzz_targets/explain_profile.rs): a name whose 19th byte from the
    // end is inside a character made the split panic.
    #[test]
    fn names_of_any_text_demangle() {
        let name = format!("\u{e9}{}", "x".repeat(18));
        assert_eq!(demangle(&name), name);
        assert_eq!(demangle("\u{fffd}::h0123456789abcdef"), "\u{fffd}");
    }
}
