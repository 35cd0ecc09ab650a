//! What ends a run before or instead of measuring, by kind, rendered once by the harness (as a
//! [`crate::messages`] error, a usage error with the help after it). The functions below the
//! harness say what went wrong in a `String` naming the thing (a flag, a file, a benchmark id);
//! the harness files it under the kind of its stage, which sets the exit code.

use std::fmt;

/// An error that ends the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The command line or the environment (exit code 2, the help follows).
    Usage(String),
    /// The benchmarks as the code defines them: found when the run is planned, before anything
    /// runs.
    Config(String),
    /// Valgrind cannot be found or used.
    Valgrind(String),
    /// The output directory, its lock or a file the run writes.
    Files(String),
    /// Anything else that stopped the run.
    Run(String),
}

impl Error {
    /// The message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Config(m) | Error::Valgrind(m) | Error::Files(m) => m,
            Error::Run(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// A message from below the harness, where no stage claimed it.
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Run(message)
    }
}
