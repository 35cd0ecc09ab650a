//! Stage 4 of the pipeline, parse: Valgrind output files to counts.
//!
//! Parsers read bytes and report `path:line` for anything they cannot read.

pub mod callgraph;
pub mod callgrind;
pub mod dhat;
pub mod errors;
pub mod massif;

use std::fmt;
use std::path::PathBuf;

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
