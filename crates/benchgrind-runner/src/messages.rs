//! What the harness says on stderr besides the report, in one voice: every line starts with
//! `benchgrind: `, warnings and errors say so next (`benchgrind: warning: `), and each kind of
//! message checks the level (`BENCHGRIND_LOG`) itself, so that a call site only says what
//! happened. The level is set once, when the command line is read ([`set_level`]).
//!
//! Processes started to run one benchmark (hooks, the fork server's children) write their own
//! few lines with the same prefix; the measured process writes without allocating
//! ([`crate::measured`]).

use std::fmt::Arguments;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::cli::LogLevel;

/// The level in force: `BENCHGRIND_LOG`, warnings by default.
static LEVEL: AtomicU8 = AtomicU8::new(LogLevel::Warn as u8);

/// The prefix of every line.
pub const PREFIX: &str = "benchgrind: ";

/// Sets the level for the rest of the process.
pub fn set_level(level: LogLevel) {
    LEVEL.store(level as u8, Ordering::Relaxed);
}

/// The level in force.
pub fn level() -> LogLevel {
    from_u8(LEVEL.load(Ordering::Relaxed))
}

/// The level stored as `level as u8`.
fn from_u8(stored: u8) -> LogLevel {
    match stored {
        l if l == LogLevel::Error as u8 => LogLevel::Error,
        l if l == LogLevel::Info as u8 => LogLevel::Info,
        l if l == LogLevel::Debug as u8 => LogLevel::Debug,
        l if l == LogLevel::Trace as u8 => LogLevel::Trace,
        _ => LogLevel::Warn,
    }
}

/// Whether messages of `level` are shown.
pub fn enabled(level: LogLevel) -> bool {
    level <= self::level()
}

/// The kinds of message, each with its own rule for when it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Something the user should know about the run as it goes (a wait, a clean-up): always
    /// shown.
    Note,
    /// Something went wrong that does not stop the run: shown unless `BENCHGRIND_LOG=error`.
    Warning,
    /// What stopped the run (or a benchmark's process): always shown.
    Error,
    /// What the run does, step by step (command lines, files written): `BENCHGRIND_LOG=debug`.
    Debug,
}

/// Writes a message of `kind` on stderr, if its level is shown.
pub fn say(kind: Kind, args: Arguments) {
    match kind {
        Kind::Note => eprintln!("{PREFIX}{args}"),
        Kind::Warning if enabled(LogLevel::Warn) => eprintln!("{PREFIX}warning: {args}"),
        Kind::Error => eprintln!("{PREFIX}error: {args}"),
        Kind::Debug if enabled(LogLevel::Debug) => eprintln!("{PREFIX}{args}"),
        Kind::Warning | Kind::Debug => {}
    }
}

/// Replaces the status line at the bottom of a terminal (the progress of a run, `report::progress`)
/// with `text`, no newline after it; an empty `text` erases it.
pub fn status_line(text: &str) {
    use std::io::Write;
    eprint!("\r\x1b[K{text}");
    let _ = std::io::stderr().flush();
}

/// A [`Kind::Note`] message, with `format!` arguments.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Note, format_args!($($arg)*))
    };
}

/// A [`Kind::Warning`] message, with `format!` arguments.
macro_rules! warning {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Warning, format_args!($($arg)*))
    };
}

/// A [`Kind::Error`] message, with `format!` arguments.
macro_rules! error {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Error, format_args!($($arg)*))
    };
}

/// A [`Kind::Debug`] message, with `format!` arguments.
macro_rules! debug {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Debug, format_args!($($arg)*))
    };
}

pub(crate) use {debug, error, note, warning};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_stored_and_read_back() {
        // (The level in force is the process's: tests running beside this one read it.)
        for l in [
            LogLevel::Error,
            LogLevel::Warn,
            LogLevel::Info,
            LogLevel::Debug,
            LogLevel::Trace,
        ] {
            assert_eq!(from_u8(l as u8), l);
        }
    }
}
