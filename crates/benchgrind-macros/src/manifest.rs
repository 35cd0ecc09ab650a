//! Reading a package's manifest as far as the macros need it: its dependency entries, to find
//! the key benchgrind is known by ([`crate_name`]). No TOML crate: the proc macros build with
//! their two dependencies only. Standard library only, so that the fuzz target
//! (`fuzz/fuzz_targets/manifest.rs`) builds this file as it is.

/// One entry of a dependency table: `KEY = "1"`, `KEY = { ... }`, `KEY.FIELD = ...` or a
/// `[...dependencies.KEY]` table.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Dependency {
    /// The entry's key.
    pub key: String,
    /// Its `package`, if it names one.
    pub package: Option<String>,
    /// `workspace = true`: the workspace's entry of the same key says what it is.
    pub workspace: bool,
    /// An entry of `[workspace.dependencies]`, not of the package's own tables.
    pub of_workspace: bool,
}

/// The key under which `own` (a package's dependency entries) depends on the package
/// `benchgrind`, looking an entry with `workspace = true` up in `workspace`'s entries.
pub(crate) fn crate_name(own: &[Dependency], workspace: &[Dependency]) -> Option<String> {
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
pub(crate) struct Manifest {
    /// Its dependency entries, in their order, each key once per table kind (the package's own,
    /// the workspace's).
    pub entries: Vec<Dependency>,
    /// Whether it defines a workspace (a `[workspace]` table or one below it).
    pub workspace: bool,
}

/// Reads a manifest's text as far as [`Manifest`] goes: the TOML that manifests are written in
/// (quotes of both kinds, escapes, dotted keys, comments, inline tables over several lines); no
/// more.
pub(crate) fn manifest(text: &str) -> Manifest {
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
