//! The `suite` commands, one file each and all of one shape: `USAGE`, a `Config` with
//! `Config::parse` (flags only, nothing read or run) and `run`, which returns the
//! [`Outcome`](crate::exit::Outcome). `cmd::suite` picks the command.

pub mod build;
pub mod clean;
pub mod cmp;
pub mod diff;
pub mod haystack;
pub mod klv;
pub mod list;
pub mod measure;
pub mod rank;
pub mod report;
pub mod version;
