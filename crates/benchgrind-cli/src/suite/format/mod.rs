//! The suite's input formats, exactly as rebar defines them: `engines.toml` and
//! `definitions/**/*.toml` (with `haystacks/` and `regexes/` beside them).
//!
//! Wire types (serde) stay private to each file; the rest of `suite` sees only the resolved
//! domain types. Every problem carries the file and, where TOML gives one, the line.

pub mod definitions;
pub mod engines;
pub mod inputs;

use std::{fmt, path::Path};

/// A problem found while loading the suite: which file (and line), which benchmark or engine,
/// and what is wrong. Problems in one definition file do not stop the others from loading.
#[derive(Clone, Debug)]
pub struct Problem {
    /// `path` or `path:line`.
    pub location: String,
    /// The message, saying what to do where possible.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// A file's text with where its lines start, so that every `path:line` of a file with many
/// benchmarks is a lookup, not a count from the start (which made loading quadratic).
pub struct Lines<'a> {
    /// The text.
    pub text: &'a str,
    /// The byte offset of each line's start.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Lines { text, starts }
    }

    /// `path:line` from a byte offset into the text (lines counted from 1).
    pub fn location(&self, path: &Path, offset: Option<usize>) -> String {
        match offset {
            None => path.display().to_string(),
            Some(off) => {
                let line = self.starts.partition_point(|&start| start <= off);
                format!("{}:{line}", path.display())
            }
        }
    }
}

/// Parses TOML text into `T`; an error becomes `path:line: invalid TOML: message`.
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, Problem> {
    parse_toml_at(path, &Lines::new(text), 0..text.len())
}

/// Like [`parse_toml`] for the part `range` of the file's text, with lines counted in the
/// whole file.
pub fn parse_toml_at<T: serde::de::DeserializeOwned>(
    path: &Path,
    lines: &Lines,
    range: std::ops::Range<usize>,
) -> Result<T, Problem> {
    toml::from_str(&lines.text[range.clone()]).map_err(|e| {
        let span = e.span().map(|s| range.start + s.start);
        Problem {
            location: lines.location(path, span),
            message: format!("invalid TOML: {}", e.message().trim()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_the_lines_counted_from_the_start() {
        let text = "a\nbc\n\nd";
        let lines = Lines::new(text);
        let path = Path::new("f.toml");
        for off in 0..=text.len() + 2 {
            let counted = text.as_bytes()[..off.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            assert_eq!(
                lines.location(path, Some(off)),
                format!("f.toml:{counted}"),
                "{off}"
            );
        }
        assert_eq!(lines.location(path, None), "f.toml");
    }
}
