//! The parameters of each benchmark, as rebar's report lists them under a group's table: full
//! name, model, regex or its file, options, haystack (its first bytes) or its file, the counts
//! each engine must find, and the analysis text.

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use super::cells::{link, local_name, md};
use crate::suite::format::definitions::{Definition, Definitions};

/// How much of an inline haystack the parameters show, in bytes, as rebar.
const HAYSTACK_SHOWN: usize = 60;

/// Each benchmark's parameters, as rebar's report lists them, in a `<details>` block.
/// `dir` is the suite directory and `root` where the repository root is from the report.
pub(super) fn parameters(
    out: &mut String,
    dir: &Path,
    root: &str,
    defs: &Definitions,
    names: &[&str],
) -> std::fmt::Result {
    let by_name: BTreeMap<&str, &Definition> =
        defs.defs.iter().map(|d| (d.name.as_str(), d)).collect();
    let dir = dir.to_string_lossy().replace('\\', "/");
    let dir = dir.trim_end_matches('/');
    writeln!(
        out,
        "\n<details>\n<summary>Parameters of each benchmark</summary>\n"
    )?;
    for &name in names {
        writeln!(out, "**{}**\n", md(local_name(name)))?;
        let Some(def) = by_name.get(name) else {
            writeln!(
                out,
                "No definition of `{name}` was loaded from `{dir}/definitions`.\n"
            )?;
            continue;
        };
        writeln!(out, "| Parameter | Value |\n| --------- | ----- |")?;
        writeln!(out, "| full name | `{name}` |")?;
        writeln!(
            out,
            "| model | {} |",
            link(
                root,
                &format!("`{}`", def.model),
                &format!("MODELS.md#{}", def.model)
            )
        )?;
        match (&def.regex_path, def.patterns.as_slice()) {
            (Some(path), _) => writeln!(
                out,
                "| regex-path | {} |",
                link(root, &format!("`{path}`"), &format!("{dir}/regexes/{path}"))
            )?,
            (None, []) => writeln!(out, "| regex | NONE |")?,
            (None, [one]) => writeln!(out, "| regex | {} |", code(one))?,
            (None, many) => {
                for (i, p) in many.iter().enumerate() {
                    writeln!(out, "| regex({i}) | {} |", code(p))?;
                }
            }
        }
        writeln!(out, "| case-insensitive | `{}` |", def.case_insensitive)?;
        writeln!(out, "| unicode | `{}` |", def.unicode)?;
        match &def.haystack_path {
            Some(path) => writeln!(
                out,
                "| haystack-path | {} |",
                link(
                    root,
                    &format!("`{path}`"),
                    &format!("{dir}/haystacks/{path}")
                )
            )?,
            None => {
                let shown = &def.haystack[..def.haystack.len().min(HAYSTACK_SHOWN)];
                let snip = if def.haystack.len() > HAYSTACK_SHOWN {
                    " [.. snip ..]"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "| haystack | `{}{snip}` |",
                    md(&String::from_utf8_lossy(shown)).replace('\r', " ")
                )?;
            }
        }
        for c in &def.counts {
            writeln!(out, "| count(`{}`) | {} |", md(&c.engine), c.count)?;
        }
        writeln!(out)?;
        if let Some(text) = &def.analysis {
            writeln!(out, "{}", text.trim())?;
        }
        writeln!(out)?;
    }
    writeln!(out, "</details>")
}

/// A pattern as rebar shows it in a table: in a code span of five backticks, `|` escaped.
fn code(pattern: &str) -> String {
    format!("`````{}`````", md(pattern))
}
