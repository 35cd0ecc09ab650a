//! The `benchgrind` command as a library: every command and what the commands share, so that
//! the binary (`main.rs`) stays the short pipeline (parse the command line, run the command,
//! decide the exit code) and the readers of result and suite files can be driven on their own
//! (the fuzz targets in `fuzz/` call them on arbitrary bytes).
//!
//! `cmd` holds the commands, one file each; `compare`, `report` and `suite` what they are made of;
//! `exit` the outcomes a command returns and the exit codes; `messages` what a command says on
//! stderr; `usage` the command-line errors.
//! Only `main.rs` turns an outcome or an error into an exit code.

#![warn(missing_docs)]

pub mod cmd;
pub mod compare;
pub mod exit;
pub mod messages;
pub mod report;
pub mod suite;
pub mod usage;
