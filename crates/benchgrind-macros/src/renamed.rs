//! A project may depend on benchgrind under another name, to keep its benchmark sources as they
//! were: `iai-callgrind = { package = "benchgrind", ... }` or `gungraun = { package =
//! "benchgrind", ... }`. The expansions name the crate `::benchgrind`; [`rename`] points them at
//! the name the package's manifest gives it (or its workspace's, for `workspace = true`).

use std::path::Path;
use std::sync::OnceLock;

use proc_macro2::{Group, Ident, TokenStream, TokenTree};

use crate::manifest::{crate_name, manifest};

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
