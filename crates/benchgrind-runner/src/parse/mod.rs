//! Stage 4 of the pipeline, parse: Valgrind output files to counts.
//!
//! Parsers read bytes and report `path:line` for anything they cannot read.

pub mod dhat;
pub mod errors;
pub mod join;
pub mod massif;
pub mod names;
pub mod profile;

use std::fmt;
use std::path::{Path, PathBuf};

/// A file that could not be read or understood, with where and why.
#[derive(Debug)]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line, when the problem is at a line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path.display(), line, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads a whole file; the error says `what` could not be read (`the DHAT profile`).
pub(crate) fn read(path: &Path, what: &str) -> Result<Vec<u8>, ParseError> {
    std::fs::read(path).map_err(|e| ParseError {
        path: path.to_owned(),
        line: None,
        message: format!("cannot read {what}: {e}"),
    })
}

/// A compressed name, `(id) name` or `(id)`: the id (digits) and what follows it. `None` for a
/// plain name, also one that starts with a parenthesis (`(below main)`).
pub(crate) fn name_id(value: &str) -> Option<(&str, &str)> {
    let (id, name) = value.strip_prefix('(')?.split_once(')')?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some((id, name))
}

/// Whether a (non-empty) Callgrind line is a cost line: it starts with a position.
pub(crate) fn is_cost_line(line: &str) -> bool {
    let first = line.as_bytes()[0];
    first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'*')
}

/// The error for a file without `events:` line.
pub(crate) fn no_events(path: &Path) -> ParseError {
    ParseError {
        path: path.to_owned(),
        line: None,
        message: "no `events:` line: this is not a Callgrind profile, or it is truncated".into(),
    }
}
