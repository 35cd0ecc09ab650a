//! A project may depend on benchgrind under another name, to keep its benchmark sources as they
//! were: `iai-callgrind = { package = "benchgrind", ... }` or `gungraun = { package =
//! "benchgrind", ... }`. The expansions name the crate `::benchgrind`; [`rename`] points them at
//! the name the package's manifest gives it (or its workspace's, for `workspace = true`).

use std::path::Path;
use std::sync::OnceLock;

use proc_macro2::{Group, Ident, TokenStream, TokenTree};

/// The name the crate being compiled knows benchgrind by: `None` for `benchgrind` itself.
fn renamed() -> Option<&'static str> {
    static NAME: OnceLock<Option<String>> = OnceLock::new();
    NAME.get_or_init(|| {
        let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
        let mut dir = Path::new(&dir).to_owned();
        loop {
            if let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) {
                if let Some(name) = dependency_named(&text) {
                    return (name != "benchgrind").then_some(name);
                }
            }
            if !dir.pop() {
                return None;
            }
        }
    })
    .as_deref()
}

/// The key of the dependency on the package `benchgrind` in a manifest's text, as a Rust
/// identifier (`iai-callgrind` is `iai_callgrind`), if a dependency table names it: renamed
/// (`package = "benchgrind"`, inline or in a table of its own) or under its own name. Reads the
/// TOML that manifests are written in (quotes of both kinds, dotted keys, comments, inline
/// tables over several lines); no more.
fn dependency_named(manifest: &str) -> Option<String> {
    let mut section: Vec<String> = Vec::new();
    for line in logical_lines(manifest) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[');
            let header = header.trim_end().trim_end_matches(']');
            section = split_outside_quotes(header, '.').map(unquote).collect();
            continue;
        }
        let Some((key, value)) = split_once_outside_quotes(&line, '=') else {
            continue;
        };
        let key: Vec<String> = split_outside_quotes(key, '.').map(unquote).collect();
        let value = value.trim();
        // `[dev-dependencies]` then `NAME = ...` or `NAME.package = ...`.
        let in_table = section.last().is_some_and(|s| s.ends_with("dependencies"));
        // `[dev-dependencies.NAME]` then `package = ...`.
        let of_one = section.len() >= 2 && section[section.len() - 2].ends_with("dependencies");
        let found = match key.as_slice() {
            [name] if in_table => {
                let package = inline_table(value)
                    .and_then(|t| (t.into_iter().find(|(k, _)| k == "package")).map(|(_, v)| v));
                match package {
                    Some(package) => (package == "benchgrind").then_some(name.as_str()),
                    None => (name == "benchgrind").then_some(name.as_str()),
                }
            }
            [name, field] if in_table && field == "package" => {
                (unquote(value) == "benchgrind").then_some(name.as_str())
            }
            [field] if of_one && field == "package" => (unquote(value) == "benchgrind")
                .then(|| section.last().map(String::as_str))
                .flatten(),
            _ => None,
        };
        if let Some(name) = found {
            return Some(name.replace('-', "_"));
        }
    }
    None
}

/// The manifest's lines without comments or multi-line strings (which no key read here has),
/// a value that spans lines (an inline table or an array) joined into one.
fn logical_lines(manifest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    for line in clean(manifest).lines() {
        if depth == 0 && line.trim_start().starts_with('[') {
            lines.push(line.trim().to_owned());
            continue;
        }
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '{' | '[') => depth += 1,
                (None, '}' | ']') => depth -= 1,
                _ => {}
            }
        }
        current.push_str(line.trim());
        current.push(' ');
        if depth <= 0 {
            depth = 0;
            lines.push(std::mem::take(&mut current).trim().to_owned());
        }
    }
    lines.push(current.trim().to_owned());
    lines.retain(|l| !l.is_empty());
    lines
}

/// The manifest with its comments removed, each multi-line string (`"""..."""`, `'''...'''`)
/// made an empty one, and each escaped character in a string (`\"`) made two `x`s, so that
/// every quote left opens or closes a string on its own line.
fn clean(manifest: &str) -> String {
    let mut out = String::with_capacity(manifest.len());
    let mut rest = manifest;
    while let Some(c) = rest.chars().next() {
        if c == '#' {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            let (fence, after) = rest.split_at(3);
            out.push_str("\"\"");
            rest = match find_closing(after, fence) {
                // A closing fence may have up to two more quotes before it, inside the string.
                Some(i) => after[i + 3..].trim_start_matches(&fence[..1]),
                None => "",
            };
        } else if c == '"' || c == '\'' {
            let body = &rest[1..];
            let line_end = body.find('\n').unwrap_or(body.len());
            let end = find_closing(&body[..line_end], &rest[..1]).map_or(line_end, |i| i + 1);
            out.push(c);
            let mut escaped = false;
            for ch in body[..end].chars() {
                let escape = c == '"' && !escaped && ch == '\\';
                out.push(if escape || escaped { 'x' } else { ch });
                escaped = escape;
            }
            rest = &body[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Where the string opened by `quote` (`"`, `'`, or three of either) closes in `text`: the first
/// `quote` not escaped by a backslash (escapes are only in `"` strings).
fn find_closing(text: &str, quote: &str) -> Option<usize> {
    let escapes = quote.starts_with('"');
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if !escaped && text[i..].starts_with(quote) {
            return Some(i);
        }
        escaped = escapes && !escaped && c == '\\';
    }
    None
}

/// The parts of `text` between the `sep`s that are outside strings and braces, trimmed.
fn split_outside_quotes(text: &str, sep: char) -> impl Iterator<Item = &str> {
    let mut parts = Vec::new();
    let (mut quote, mut depth, mut from) = (None, 0, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth -= 1,
            (None, c) if c == sep && depth == 0 => {
                parts.push(text[from..i].trim());
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(text[from..].trim());
    parts.into_iter()
}

/// `text` split at its first `sep` outside strings.
fn split_once_outside_quotes(text: &str, sep: char) -> Option<(&str, &str)> {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c == sep => return Some((&text[..i], &text[i + c.len_utf8()..])),
            _ => {}
        }
    }
    None
}

/// A key or string value without its quotes (`"a"` and `'a'` are `a`).
fn unquote(text: &str) -> String {
    let text = text.trim();
    for q in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    text.to_owned()
}

/// The keys and values of an inline table (`{ package = "benchgrind", path = "x" }`), values
/// unquoted; `None` if `value` is not one.
fn inline_table(value: &str) -> Option<Vec<(String, String)>> {
    let body = value.trim().strip_prefix('{')?.strip_suffix('}')?;
    Some(
        split_outside_quotes(body, ',')
            .filter_map(|entry| split_once_outside_quotes(entry, '='))
            .map(|(k, v)| (unquote(k), unquote(v)))
            .collect(),
    )
}

/// `tokens` with every `::benchgrind` path start naming the crate as the manifest does.
pub fn rename(tokens: TokenStream) -> TokenStream {
    match renamed() {
        Some(name) => replace(tokens, name),
        None => tokens,
    }
}

fn replace(tokens: TokenStream, name: &str) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    for tree in tokens {
        let tree = match tree {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), replace(g.stream(), name));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Ident(ident) if ident == "benchgrind" && after_path_sep(&out) => {
                TokenTree::Ident(Ident::new(name, ident.span()))
            }
            other => other,
        };
        out.push(tree);
    }
    out.into_iter().collect()
}

/// Whether the tokens so far end in `::`.
fn after_path_sep(out: &[TokenTree]) -> bool {
    matches!(
        out,
        [.., TokenTree::Punct(a), TokenTree::Punct(b)] if a.as_char() == ':' && b.as_char() == ':'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dependencys_key_is_found_in_every_form() {
        let inline =
            "[dev-dependencies]\niai-callgrind = { package = \"benchgrind\", path = \"x\" }\n";
        assert_eq!(dependency_named(inline).as_deref(), Some("iai_callgrind"));
        let table = "[target.'cfg(target_os = \"linux\")'.dev-dependencies.gungraun]\n\
                     package = \"benchgrind\"\npath = \"/b\"\n";
        assert_eq!(dependency_named(table).as_deref(), Some("gungraun"));
        let workspace =
            "[workspace.dependencies]\ngungraun = { package=\"benchgrind\", version = \"0.1\" }\n";
        assert_eq!(dependency_named(workspace).as_deref(), Some("gungraun"));
        let plain =
            "[dev-dependencies]\nbenchgrind = { path = \"x\" }\n[package]\nname = \"benchgrind\"\n";
        assert_eq!(dependency_named(plain).as_deref(), Some("benchgrind"));
        let none =
            "[package]\nname = \"x\" # package = \"benchgrind\"\n[dependencies]\nserde = \"1\"\n";
        assert_eq!(dependency_named(none), None);
    }

    #[test]
    fn single_quotes_dotted_keys_comments_and_tables_over_lines_are_read() {
        let single = "[dev-dependencies]\n'iai-callgrind' = { package = 'benchgrind' } # renamed\n";
        assert_eq!(dependency_named(single).as_deref(), Some("iai_callgrind"));
        let dotted =
            "[dev-dependencies]\ngungraun.package = \"benchgrind\"\ngungraun.path = \"x\"\n";
        assert_eq!(dependency_named(dotted).as_deref(), Some("gungraun"));
        let over_lines =
            "[dev-dependencies]\niai-callgrind = {\n    package = \"benchgrind\", # ours\n    \
                          features = [\"a\",\n \"b\"],\n}\n[features]\nx = []\n";
        assert_eq!(
            dependency_named(over_lines).as_deref(),
            Some("iai_callgrind")
        );
        let quoted_header = "[target.'cfg(unix)'.dev-dependencies.\"iai-callgrind\"]\n\
                             package='benchgrind'\n";
        assert_eq!(
            dependency_named(quoted_header).as_deref(),
            Some("iai_callgrind")
        );
        // Another package renamed, and `#` inside a string.
        let other =
            "[dev-dependencies]\ncriterion = { package = \"criterion2\", version = \"#1\" }\n";
        assert_eq!(dependency_named(other), None);
        // Brackets, quotes and a table-like line inside strings, before the real table.
        let strings = r#"[package]
description = """uses [brackets
[dev-dependencies]
x = { package = "benchgrind" }
"""""
name = "a \" [ # not a comment"
keywords = ['''[''', "\\"]
[dev-dependencies]
gungraun = { package = "benchgrind" }
"#;
        assert_eq!(dependency_named(strings).as_deref(), Some("gungraun"));
    }

    #[test]
    fn only_absolute_paths_are_renamed() {
        let tokens: TokenStream = "::benchgrind::f(benchgrind, x::benchgrind, { ::benchgrind::g })"
            .parse()
            .unwrap();
        let renamed = replace(tokens, "gungraun").to_string();
        assert_eq!(
            renamed,
            ":: gungraun :: f (benchgrind , x :: gungraun , { :: gungraun :: g })"
        );
    }
}
