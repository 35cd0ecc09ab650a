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
        let dir = Path::new(&dir);
        let read = |d: &Path| {
            Some(manifest(
                &std::fs::read_to_string(d.join("Cargo.toml")).ok()?,
            ))
        };
        let own = read(dir)?;
        // The workspace's table, for `workspace = true`: the nearest manifest with a
        // `[workspace]`, this one included.
        let root = (!own.workspace)
            .then(|| (dir.ancestors().skip(1)).find_map(|d| read(d).filter(|m| m.workspace)))
            .flatten();
        let name = crate_name(&own.entries, &root.as_ref().unwrap_or(&own).entries)?;
        (name != "benchgrind").then(|| name.replace('-', "_"))
    })
    .as_deref()
}

/// One entry of a dependency table: `KEY = "1"`, `KEY = { ... }`, `KEY.FIELD = ...` or a
/// `[...dependencies.KEY]` table.
#[derive(Debug, Default, PartialEq)]
struct Dependency {
    key: String,
    /// Its `package`, if it names one.
    package: Option<String>,
    /// `workspace = true`: the workspace's entry of the same key says what it is.
    workspace: bool,
    /// An entry of `[workspace.dependencies]`, not of the package's own tables.
    of_workspace: bool,
}

/// The key under which `own` (a package's dependency entries) depends on the package
/// `benchgrind`, looking an entry with `workspace = true` up in `workspace`'s entries.
fn crate_name(own: &[Dependency], workspace: &[Dependency]) -> Option<String> {
    let is_benchgrind = |entry: &Dependency| match &entry.package {
        Some(package) => package == "benchgrind",
        None => entry.key == "benchgrind",
    };
    own.iter()
        .filter(|entry| !entry.of_workspace)
        .find(|entry| match (&entry.package, entry.workspace) {
            (None, true) => workspace
                .iter()
                .any(|w| w.of_workspace && w.key == entry.key && is_benchgrind(w)),
            _ => is_benchgrind(entry),
        })
        .map(|entry| entry.key.clone())
}

/// The dotted path of a table header's text after its first `[`.
fn header_path(header: &str) -> Vec<String> {
    let header = header.trim_start_matches('[');
    let header = header.trim_end().trim_end_matches(']');
    split_outside_quotes(header, '.').map(unquote).collect()
}

/// What a manifest says of dependencies.
#[derive(Debug, Default)]
struct Manifest {
    /// Its dependency entries, in their order, each key once per table kind (the package's own,
    /// the workspace's).
    entries: Vec<Dependency>,
    /// Whether it defines a workspace (a `[workspace]` table or one below it).
    workspace: bool,
}

/// Reads a manifest's text as far as [`Manifest`] goes: the TOML that manifests are written in
/// (quotes of both kinds, escapes, dotted keys, comments, inline tables over several lines); no
/// more.
fn manifest(text: &str) -> Manifest {
    const TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut read = Manifest::default();
    let entries = &mut read.entries;
    let mut section: Vec<String> = Vec::new();
    for line in logical_lines(text) {
        if let Some(header) = line.strip_prefix('[') {
            section = header_path(header);
            read.workspace |= section.first().is_some_and(|s| s == "workspace");
            continue;
        }
        let Some((key, value)) = split_once_outside_quotes(&line, '=') else {
            continue;
        };
        let mut path = section.clone();
        path.extend(split_outside_quotes(key, '.').map(unquote));
        read.workspace |= path[0] == "workspace";
        // `...dependencies, KEY, FIELD = scalar` or `...dependencies, KEY = value`.
        let n = path.len();
        let at = [3, 2]
            .into_iter()
            .find(|&back| n >= back && TABLES.contains(&path[n - back].as_str()))
            .map(|back| n - back);
        let Some(at) = at else { continue };
        // Below the package, a target or the workspace only (not `[package.metadata...]`).
        let of_workspace = match &path[..at] {
            [] => false,
            [target, _] if target == "target" => false,
            [workspace] if workspace == "workspace" => true,
            _ => continue,
        };
        let key = path[at + 1].clone();
        let position = entries
            .iter()
            .position(|e| e.key == key && e.of_workspace == of_workspace);
        let entry = match position {
            Some(i) => &mut entries[i],
            None => {
                entries.push(Dependency {
                    key,
                    of_workspace,
                    ..Dependency::default()
                });
                entries.last_mut().expect("just pushed")
            }
        };
        let value = value.trim();
        let fields = match path.get(at + 2) {
            Some(field) => vec![(field.clone(), unquote(value))],
            None => inline_table(value).unwrap_or_default(),
        };
        for (field, value) in fields {
            match field.as_str() {
                "package" => entry.package = Some(value),
                "workspace" => entry.workspace = value == "true",
                _ => {}
            }
        }
    }
    read
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
        for (_, c) in outside_strings(line) {
            match c {
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
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
/// made an empty one, and the escapes of `"` strings decoded ([`decode_escapes`]), so that every
/// quote left opens or closes a string on its own line.
fn clean(manifest: &str) -> String {
    let mut out = String::with_capacity(manifest.len());
    // Cargo takes a manifest that starts with a byte order mark.
    let mut rest = manifest.strip_prefix('\u{feff}').unwrap_or(manifest);
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
            if c == '"' {
                decode_escapes(&body[..end], &mut out);
            } else {
                out.push_str(&body[..end]);
            }
            rest = &body[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A quote and a backslash that a `"` string holds (escaped), kept apart from the ones that
/// delimit strings until [`unquote`] gives them back.
const QUOTE: char = '\u{e000}';
const BACKSLASH: char = '\u{e001}';
/// Any other character a key cannot hold, escaped (a line break, a tab).
const OTHER: char = '\u{e002}';

/// The text of a `"` string with its escapes decoded (`\u0067` is `g`), pushed to `out`; a quote,
/// a backslash or a line break that an escape makes is held as [`QUOTE`], [`BACKSLASH`] or
/// [`OTHER`].
fn decode_escapes(text: &str, out: &mut String) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let decoded = match chars.next() {
            Some('u') => hex_char(&mut chars, 4),
            Some('U') => hex_char(&mut chars, 8),
            Some('"') => Some('"'),
            Some('\\') => Some('\\'),
            _ => None,
        };
        out.push(match decoded {
            Some('"') => QUOTE,
            Some('\\') => BACKSLASH,
            Some(c) if !c.is_control() => c,
            _ => OTHER,
        });
    }
}

/// The character of the next `digits` hexadecimal digits of `chars`.
fn hex_char(chars: &mut std::str::Chars<'_>, digits: usize) -> Option<char> {
    let hex: String = chars.by_ref().take(digits).collect();
    char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
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
    let (mut depth, mut from) = (0, 0);
    for (i, c) in outside_strings(text) {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
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
    let (i, c) = outside_strings(text).find(|&(_, c)| c == sep)?;
    Some((&text[..i], &text[i + c.len_utf8()..]))
}

/// The characters of a line of [`clean`]'s text (where every string closes on its line) that are
/// outside strings, with their positions; the quotes themselves are inside.
fn outside_strings(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote = None;
    text.char_indices().filter(move |&(_, c)| match quote {
        Some(q) => {
            if c == q {
                quote = None;
            }
            false
        }
        None if c == '"' || c == '\'' => {
            quote = Some(c);
            false
        }
        None => true,
    })
}

/// A key or string value without its quotes (`"a"` and `'a'` are `a`).
fn unquote(text: &str) -> String {
    let text = text.trim();
    let inner = ['"', '\'']
        .into_iter()
        .find_map(|q| text.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
        .unwrap_or(text);
    inner.replace(QUOTE, "\"").replace(BACKSLASH, "\\")
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

    /// The name a package with manifest `own` knows benchgrind by, its workspace's manifest
    /// being `workspace` (or `own` itself).
    fn named(own: &str, workspace: Option<&str>) -> Option<String> {
        let root = manifest(workspace.unwrap_or(own)).entries;
        crate_name(&manifest(own).entries, &root).map(|n| n.replace('-', "_"))
    }

    #[test]
    fn the_dependencys_key_is_found_in_every_form() {
        let inline =
            "[dev-dependencies]\niai-callgrind = { package = \"benchgrind\", path = \"x\" }\n";
        assert_eq!(named(inline, None).as_deref(), Some("iai_callgrind"));
        let table = "[target.'cfg(target_os = \"linux\")'.dev-dependencies.gungraun]\n\
                     package = \"benchgrind\"\npath = \"/b\"\n";
        assert_eq!(named(table, None).as_deref(), Some("gungraun"));
        let plain =
            "[dev-dependencies]\nbenchgrind = { path = \"x\" }\n[package]\nname = \"benchgrind\"\n";
        assert_eq!(named(plain, None).as_deref(), Some("benchgrind"));
        let none =
            "[package]\nname = \"x\" # package = \"benchgrind\"\n[dependencies]\nserde = \"1\"\n";
        assert_eq!(named(none, None), None);
        // A dependency of the package's own; `[package.metadata]` is not one.
        let metadata =
            "[package.metadata.x.dependencies]\ngungraun = { package = \"benchgrind\" }\n";
        assert_eq!(named(metadata, None), None);
        let odd_name = "[dependencies.my-dependencies]\npackage = \"benchgrind\"\n";
        assert_eq!(named(odd_name, None).as_deref(), Some("my_dependencies"));
    }

    #[test]
    fn workspace_true_takes_the_workspaces_entry_of_the_same_key() {
        let root = "[workspace]\nmembers = [\"m\"]\n[dev-dependencies]\nbenchgrind = { path = \"b\" }\n\
                    [workspace.dependencies]\ngungraun = { package = \"benchgrind\", path = \"b\" }\n\
                    benchgrind = { path = \"b\" }\n";
        for (member, name) in [
            (
                "[dev-dependencies]\ngungraun = { workspace = true }\n",
                "gungraun",
            ),
            (
                "[dev-dependencies]\ngungraun.workspace = true\n",
                "gungraun",
            ),
            (
                "[dev-dependencies.gungraun]\nworkspace = true\n",
                "gungraun",
            ),
            (
                "[dev-dependencies]\nbenchgrind.workspace = true\n",
                "benchgrind",
            ),
            (
                "[dev-dependencies.benchgrind]\nworkspace = true\n",
                "benchgrind",
            ),
            (
                "[dev-dependencies]\nbenchgrind.path = \"../b\"\n",
                "benchgrind",
            ),
        ] {
            assert_eq!(named(member, Some(root)).as_deref(), Some(name), "{member}");
        }
        // The root package's own table, not the workspace's.
        assert_eq!(named(root, None).as_deref(), Some("benchgrind"));
        // A member that does not depend on it through the workspace.
        let serde = "[dependencies]\nserde = { workspace = true }\n";
        assert_eq!(named(serde, Some(root)), None);
    }

    #[test]
    fn single_quotes_dotted_keys_escapes_comments_and_tables_over_lines_are_read() {
        let single = "[dev-dependencies]\n'iai-callgrind' = { package = 'benchgrind' } # renamed\n";
        assert_eq!(named(single, None).as_deref(), Some("iai_callgrind"));
        let dotted =
            "[dev-dependencies]\ngungraun.package = \"benchgrind\"\ngungraun.path = \"x\"\n";
        assert_eq!(named(dotted, None).as_deref(), Some("gungraun"));
        let from_top = "dev-dependencies.gungraun.package = \"benchgrind\"\n";
        assert_eq!(named(from_top, None).as_deref(), Some("gungraun"));
        let from_target =
            "[target.'cfg(unix)']\ndev-dependencies.gungraun = { package = \"benchgrind\" }\n";
        assert_eq!(named(from_target, None).as_deref(), Some("gungraun"));
        let escapes =
            "[dev-dependencies]\n\"gun\\u0067raun\" = { package = \"bench\\U00000067rind\" }\n";
        assert_eq!(named(escapes, None).as_deref(), Some("gungraun"));
        let bom = "\u{feff}[dev-dependencies]\ngungraun = { package = 'benchgrind' }\r\n";
        assert_eq!(named(bom, None).as_deref(), Some("gungraun"));
        let over_lines =
            "[dev-dependencies]\niai-callgrind = {\n    package = \"benchgrind\", # ours\n    \
                          features = [\"a\",\n \"b\"],\n}\n[features]\nx = []\n";
        assert_eq!(named(over_lines, None).as_deref(), Some("iai_callgrind"));
        let quoted_header = "[target.'cfg(unix)'.dev-dependencies.\"iai-callgrind\"]\n\
                             package='benchgrind'\n";
        assert_eq!(named(quoted_header, None).as_deref(), Some("iai_callgrind"));
        // Another package renamed, and `#` inside a string.
        let other =
            "[dev-dependencies]\ncriterion = { package = \"criterion2\", version = \"#1\" }\n";
        assert_eq!(named(other, None), None);
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
        assert_eq!(named(strings, None).as_deref(), Some("gungraun"));
        assert!(manifest("[workspace.dependencies]\n").workspace && !manifest(strings).workspace);
        assert!(manifest("workspace.members = []\n").workspace);
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
