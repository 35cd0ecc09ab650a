//! The `benchgrind` commands, one file each and all of one shape: `USAGE`, a `Config` with
//! `Config::parse` (the command line only; nothing read or run) and `run`, which returns the
//! [`Outcome`](crate::exit::Outcome) or an error. `main` picks the command and decides the exit
//! code.

pub mod ab;
pub mod compare;
pub mod explain;
pub mod gbench;
pub mod merge;
pub mod report;
pub mod suite;
