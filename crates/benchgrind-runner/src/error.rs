//! What ends a run before or instead of measuring, by kind, rendered once by the harness (as a
//! [`crate::messages`] error, a usage error with the help after it). The functions below the
//! harness say what went wrong as a [`Problem`] naming the thing (a flag, `file:line`, a
//! benchmark id), or a [`FileError`] for a file operation; the harness files it under the kind of
//! its stage, which sets the exit code, or under the benchmark it stopped.

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

/// What went wrong below the harness, said whole: the message names the thing (a flag, a value,
/// `file:line`, a benchmark id) and says what to do. [`Problem::context`] puts what was being done
/// in front (`f::g::bench: `), so every layer says it the same way; [`problem!`](crate::problem)
/// formats one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem(String);

impl Problem {
    /// A problem with this message.
    pub fn new(message: impl Into<String>) -> Problem {
        Problem(message.into())
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }

    /// The problem with what was being done put in front: `WHAT: MESSAGE`.
    pub fn context(self, what: impl fmt::Display) -> Problem {
        Problem(format!("{what}: {}", self.0))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Problem {}

/// The message, for the checks and joins that read it as text.
impl std::ops::Deref for Problem {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<&str> for Problem {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for Problem {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl From<FileError> for Problem {
    fn from(e: FileError) -> Problem {
        Problem(e.to_string())
    }
}

/// For the callers that keep a message as text (a benchmark's failure, a line of the report).
impl From<Problem> for String {
    fn from(p: Problem) -> String {
        p.0
    }
}

/// A problem of a stage, filed under its kind by the harness.
impl From<Problem> for Error {
    fn from(p: Problem) -> Error {
        Error::Run(p.0)
    }
}

/// A [`Problem`] formatted as `format!` formats its message.
#[macro_export]
macro_rules! problem {
    ($($arg:tt)*) => {
        $crate::error::Problem::new(format!($($arg)*))
    };
}

/// A file operation that failed: what was done, to which path, and why. Shown as
/// `cannot OP PATH: CAUSE` (`cannot write target/benchgrind/x/summary.json: No space left on
/// device`), or `cannot OP PATH to TARGET: CAUSE` for a move or a copy; every stage that touches
/// files says it this way ([`FileResult::file_op`], [`FileResult::file_op_to`]).
#[derive(Debug)]
pub struct FileError {
    /// What was done, as a verb with what follows it: `read`, `create`, `write the lock file`.
    pub op: &'static str,
    /// The file or directory.
    pub path: std::path::PathBuf,
    /// Where it was moved or copied to, for an operation with a target.
    pub to: Option<std::path::PathBuf>,
    /// Why it failed.
    pub cause: std::io::Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot {} {}", self.op, self.path.display())?;
        if let Some(to) = &self.to {
            write!(f, " to {}", to.display())?;
        }
        write!(f, ": {}", self.cause)
    }
}

/// No `source`: the cause is already in the message, and a chain that held it as well would
/// show it twice where errors are printed with their causes (anyhow's `{:#}` in the CLI).
impl std::error::Error for FileError {}

/// For the functions that say what went wrong in a `String`.
impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

/// Names the operation and the path of a failed file operation.
pub trait FileResult<T> {
    /// The error, if any, as a [`FileError`] of `op` on `path`.
    fn file_op(self, op: &'static str, path: &std::path::Path) -> Result<T, FileError>;

    /// The error, if any, as a [`FileError`] of `op` (`move`, `copy`) from `path` to `to`.
    fn file_op_to(
        self,
        op: &'static str,
        path: &std::path::Path,
        to: &std::path::Path,
    ) -> Result<T, FileError>;
}

impl<T> FileResult<T> for std::io::Result<T> {
    fn file_op(self, op: &'static str, path: &std::path::Path) -> Result<T, FileError> {
        self.map_err(|cause| FileError {
            op,
            path: path.to_owned(),
            to: None,
            cause,
        })
    }

    fn file_op_to(
        self,
        op: &'static str,
        path: &std::path::Path,
        to: &std::path::Path,
    ) -> Result<T, FileError> {
        self.map_err(|cause| FileError {
            op,
            path: path.to_owned(),
            to: Some(to.to_owned()),
            cause,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_error_names_the_operation_the_path_and_the_cause() {
        let missing = std::path::Path::new("/nonexistent/benchgrind");
        let err = std::fs::read(missing).file_op("read", missing).unwrap_err();
        let text = "cannot read /nonexistent/benchgrind: No such file or directory (os error 2)";
        assert_eq!(err.to_string(), text);
        assert!(
            std::error::Error::source(&err).is_none(),
            "the cause is said once"
        );
        assert_eq!(String::from(err), text);
        let to = std::path::Path::new("/nonexistent/other");
        let err = std::fs::rename(missing, to).file_op_to("move", missing, to);
        let text = "cannot move /nonexistent/benchgrind to /nonexistent/other: No such file or \
                    directory (os error 2)";
        assert_eq!(err.unwrap_err().to_string(), text);
    }
}
