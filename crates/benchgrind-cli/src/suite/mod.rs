//! `benchgrind suite`: not built yet.

use std::ffi::OsString;

/// Runs `benchgrind suite` with the arguments after the command name; returns the exit code.
pub fn run(_args: Vec<OsString>) -> u8 {
    eprintln!("error: `benchgrind suite` is not built yet");
    1
}
