//! Valgrind client requests for Rust: ask Valgrind and its tools to do something from inside the
//! program they run. Start and stop Callgrind's counting around the code that matters, mark
//! memory undefined for Memcheck, record DHAT events, tell Helgrind and DRD about
//! synchronisation they cannot see, write to the Valgrind log.
//!
//! Users reach this crate as `benchgrind::client_requests`. One module per tool:
//! [`valgrind`] (the core requests, any tool), [`callgrind`], [`memcheck`], [`dhat`],
//! [`helgrind`], [`drd`] and [`cachegrind`]; the macros [`valgrind_printf!`] and
//! [`valgrind_println!`] write to Valgrind's log.
//!
//! # Code written for iai-callgrind 0.15/0.16 and gungraun 0.17-0.20
//!
//! The names of valgrind-requests (which those versions ship) are here too: the [`cachegrind`]
//! module, the `annotate_*` and other names of [`drd`] and [`helgrind`] beside the shorter
//! ones, [`error::ClientRequestError`], the `*_unchecked` macros, [`ThreadId`], [`StackId`],
//! [`RawFd`] and [`VALGRIND_VERSION`]. Known differences: `memcheck::get_vbits`/`set_vbits` take
//! a slice without a separate length; `memcheck::discard` answers a `bool`; the counts of
//! `memcheck::LeakCounts` are `usize`; `valgrind::non_simd_call*`, `valgrind::map_ip_to_srcloc`
//! and `helgrind::get_abits` are `unsafe fn`, because they let Valgrind run code or write
//! memory for the program (safe forms: `valgrind::srcloc`, `helgrind::abits`).
//!
//! A request is a few instructions of inline assembly (x86_64 and aarch64): no C compiler,
//! no Valgrind headers at build time. Natively the sequence does nothing and the call returns its
//! documented default (mostly 0); under a tool that does not know a request, the same.
//!
//! # Features
//!
//! Without the `enabled` feature (benchgrind's `client_requests_defs`), every function here
//! compiles to nothing and returns its default: production code can keep its requests at no
//! cost. With `enabled` (benchgrind's `client_requests`) they reach Valgrind. Cargo unifies
//! features, so a dev-dependency with `client_requests` turns them on in tests and benches only:
//!
//! ```toml
//! [dependencies]
//! benchgrind = { version = "0.1", default-features = false, features = ["client_requests_defs"] }
//!
//! [dev-dependencies]
//! benchgrind = { version = "0.1", features = ["client_requests"] }
//! ```
//!
//! # Example
//!
//! Count only the interesting part of a program, run with
//! `valgrind --tool=callgrind --collect-atstart=no`:
//!
//! ```rust
//! use benchgrind_client_requests::callgrind;
//! # fn setup() -> Vec<u64> { (0..1000).rev().collect() }
//!
//! let mut data = setup(); // not counted
//! callgrind::toggle_collect();
//! data.sort(); // counted
//! callgrind::toggle_collect();
//! # assert_eq!(data[0], 0);
//! ```

#![warn(missing_docs)]

pub mod cachegrind;
pub mod callgrind;
pub mod dhat;
pub mod drd;
pub mod error;
pub mod helgrind;
mod macros;
pub mod memcheck;
pub mod raw;
pub mod valgrind;

/// A thread id as Valgrind numbers threads (1 for the main thread), passed to the functions
/// of [`valgrind::non_simd_call0`] and friends and answered by [`drd::get_valgrind_threadid`].
/// Not `std::thread::ThreadId`.
pub type ThreadId = usize;

/// The id of a stack registered with [`valgrind::stack_register`].
pub type StackId = usize;

/// A file descriptor, as [`valgrind::load_pdb_debuginfo`] takes it.
pub type RawFd = std::os::raw::c_int;

/// The Valgrind (major, minor) whose client requests this crate sends: those of the 3.19
/// headers, plus `cachegrind.h` (3.22), Memcheck's "new" leak check (3.21) and DHAT's
/// `histogram_memory` (after 3.19). Not a run-time check: a Valgrind that lacks a request
/// ignores it and the call returns its default. The requests of 3.27 (`replaces_malloc`,
/// `get_toolname`) are answered without asking Valgrind. An `Option` because headers before
/// Valgrind 3.6 had no version.
pub const VALGRIND_VERSION: Option<(u32, u32)> = Some((3, 22));

/// Whether the typed requests reach Valgrind (the `enabled` feature); when false every call
/// is a no-op returning its default.
pub const ENABLED: bool = cfg!(feature = "enabled");

/// The one switch between real requests and no-ops; every typed request goes through it.
#[cfg(feature = "enabled")]
#[inline(always)]
fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
    raw::request(default, code, args)
}

#[cfg(not(feature = "enabled"))]
#[inline(always)]
fn request(default: usize, _code: usize, _args: [usize; 5]) -> usize {
    default
}

/// A request that has no answer.
#[inline(always)]
fn send(code: usize, args: [usize; 5]) {
    request(0, code, args);
}
