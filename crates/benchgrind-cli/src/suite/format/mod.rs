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

/// `path:line` from a byte offset into `text` (lines counted from 1).
pub fn location(path: &Path, text: &str, offset: Option<usize>) -> String {
    match offset {
        None => path.display().to_string(),
        Some(off) => {
            let off = off.min(text.len());
            let line = text.as_bytes()[..off]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            format!("{}:{line}", path.display())
        }
    }
}

/// Parses TOML text into `T`; an error becomes `path:line: invalid TOML: message`.
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, Problem> {
    parse_toml_at(path, text, 0..text.len())
}

/// Like [`parse_toml`] for the part `range` of the file's `text`, with lines counted in the
/// whole file.
pub fn parse_toml_at<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
    range: std::ops::Range<usize>,
) -> Result<T, Problem> {
    toml::from_str(&text[range.clone()]).map_err(|e| {
        let span = e.span().map(|s| range.start + s.start);
        Problem {
            location: location(path, text, span),
            message: format!("invalid TOML: {}", e.message().trim()),
        }
    })
}
