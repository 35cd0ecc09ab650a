//! The error of the checked printing macros.

use std::ffi::NulError;
use std::fmt;

/// Why a client request could not be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientRequestError {
    /// The text for the Valgrind log contains a NUL byte at the given position, which would cut
    /// it short in Valgrind's C string.
    ValgrindPrintError(NulError),
}

impl fmt::Display for ClientRequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ValgrindPrintError(error) => write!(
                f,
                "cannot write to the Valgrind log: the text has a NUL byte at position {}; \
                 remove it or use the *_unchecked macros, which drop NUL bytes",
                error.nul_position()
            ),
        }
    }
}

impl std::error::Error for ClientRequestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::ValgrindPrintError(error) => Some(error),
        }
    }
}

impl From<NulError> for ClientRequestError {
    fn from(error: NulError) -> Self {
        Self::ValgrindPrintError(error)
    }
}
