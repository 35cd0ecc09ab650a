//! The report's Markdown pieces that its tables and its parameters both write: a cell's text,
//! a benchmark's name within its group, and a link from the repository root.

/// Text for a Markdown table cell.
pub(super) fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A benchmark's name without its group.
pub(super) fn local_name(name: &str) -> &str {
    name.rsplit_once('/').map_or(name, |(_, l)| l)
}

/// A Markdown link to `path`, a path from the repository root, which is at `root` from the
/// report (empty, or ending in `/`).
pub(super) fn link(root: &str, text: &str, path: &str) -> String {
    format!("[{text}]({root}{path})")
}
