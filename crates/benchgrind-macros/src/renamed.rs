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
/// identifier (`iai-callgrind` is `iai_callgrind`), if a dependency table names it so.
fn dependency_named(manifest: &str) -> Option<String> {
    let mut section = String::new();
    for line in manifest.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_owned();
            continue;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.trim().trim_matches('"'), v.trim()),
            None => continue,
        };
        let in_dependencies = |s: &str| {
            s.ends_with("dependencies")
                || s.contains("dependencies.")
                || s.contains("dependencies'")
        };
        // `[dev-dependencies.NAME]` then `package = "benchgrind"`.
        if key == "package" && value.trim_matches('"') == "benchgrind" && in_dependencies(&section)
        {
            let name = section.rsplit('.').next()?.trim_matches('"');
            return Some(name.replace('-', "_"));
        }
        // `NAME = { package = "benchgrind", ... }` in a dependencies table.
        if in_dependencies(&section)
            && value.starts_with('{')
            && value.replace(' ', "").contains("package=\"benchgrind\"")
        {
            return Some(key.replace('-', "_"));
        }
    }
    None
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
        assert_eq!(dependency_named(plain), None);
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
