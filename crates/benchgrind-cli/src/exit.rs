//! The process exit codes, named, and how a command that ran to its end went.
//!
//! Commands return an [`Outcome`] (or an error); `main` alone turns either into an [`Exit`].

use std::process::ExitCode;

/// The exit codes of every `benchgrind` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Done; nothing failed.
    Ok = 0,
    /// An input could not be read or run, or a benchmark or engine failed.
    Error = 1,
    /// The command line is wrong.
    Usage = 2,
    /// A result is past a limit: `--fail-above`, or a benchmark's regression limit.
    Threshold = 3,
    /// A benchmark had no baseline of its own machine and revision (`--uncompared=fail`).
    Uncompared = 4,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// How a command that ran to its end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything it was asked to do is done.
    Done,
    /// Something failed along the way and was reported (a benchmark, an engine's build, a
    /// problem in the suite); the rest was still done.
    Failed,
    /// Done, and a result is past a limit the user set.
    PastLimit,
    /// Done, and a benchmark had no baseline of its own machine and revision, with
    /// `--uncompared=fail`.
    Uncompared,
}
