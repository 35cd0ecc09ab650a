//! `benchgrind compare`: not built yet.

use std::ffi::OsString;

/// Runs `benchgrind compare` with the arguments after the command name; returns the exit code.
pub fn run(_args: Vec<OsString>) -> u8 {
    eprintln!("error: `benchgrind compare` is not built yet");
    1
}
