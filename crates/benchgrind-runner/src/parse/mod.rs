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

use crate::error::{FileError, FileResult};

/// A file that could not be read or understood, with where and why.
#[derive(Debug)]
pub enum ParseError {
    /// The file could not be read.
    File(FileError),
    /// What it holds is not understood.
    At {
        /// The file.
        path: PathBuf,
        /// The 1-based line, when the problem is at a line.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
}

impl ParseError {
    /// The 1-based line of a problem at a line.
    pub fn line(&self) -> Option<usize> {
        match self {
            ParseError::File(_) => None,
            ParseError::At { line, .. } => *line,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::File(e) => e.fmt(f),
            ParseError::At {
                path,
                line: Some(line),
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            ParseError::At {
                path,
                line: None,
                message,
            } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for ParseError {}

impl From<FileError> for ParseError {
    fn from(e: FileError) -> ParseError {
        ParseError::File(e)
    }
}

/// Reads a whole file; the error says what could not be read (`op`: `read the DHAT profile`).
pub(crate) fn read(path: &Path, op: &'static str) -> Result<Vec<u8>, ParseError> {
    Ok(std::fs::read(path).file_op(op, path)?)
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
    ParseError::At {
        path: path.to_owned(),
        line: None,
        message: "no `events:` line: this is not a Callgrind profile, or it is truncated".into(),
    }
}
