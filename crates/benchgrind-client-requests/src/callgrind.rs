//! Callgrind: choose what is counted, and when the counts are written.
//!
//! Two switches decide whether an instruction is counted. *Instrumentation* (off from the start
//! with `--instr-atstart=no`) is the expensive one: while it is off the program runs at the
//! speed of `--tool=none` and nothing is counted; switching it on empties the simulated caches.
//! *Collection* (off from the start with `--collect-atstart=no`) is cheap and toggles counting
//! while instrumentation is on.
//!
//! Run with `valgrind --tool=callgrind --collect-atstart=no`: only the sort is counted.
//!
//! ```rust
//! use benchgrind_client_requests::callgrind;
//!
//! let mut data: Vec<u64> = (0..1000).rev().collect();
//! callgrind::toggle_collect();
//! data.sort();
//! callgrind::toggle_collect();
//! # assert!(data.windows(2).all(|w| w[0] <= w[1]));
//! ```
//!
//! Natively, and under other tools, these calls do nothing.

use std::ffi::CStr;

use crate::raw::callgrind as code;
use crate::send;

/// Writes the counts so far to a new profile part (`<out file>.<n>`) and zeroes them.
#[inline(always)]
pub fn dump_stats() {
    send(code::DUMP_STATS, [0; 5]);
}

/// Like [`dump_stats`]; `reason` (a `&CStr`, `CString`, ...) lands in the part's
/// `desc: Trigger:` line.
///
/// ```rust
/// benchgrind_client_requests::callgrind::dump_stats_at(c"after parsing");
/// ```
#[inline(always)]
pub fn dump_stats_at<T: AsRef<CStr>>(reason: T) {
    let reason = reason.as_ref();
    send(code::DUMP_STATS_AT, [reason.as_ptr() as usize, 0, 0, 0, 0]);
}

/// Zeroes the counts collected so far.
#[inline(always)]
pub fn zero_stats() {
    send(code::ZERO_STATS, [0; 5]);
}

/// Switches collection off if it is on, on if it is off.
#[inline(always)]
pub fn toggle_collect() {
    send(code::TOGGLE_COLLECT, [0; 5]);
}

/// Switches instrumentation on (if it is off), which empties the simulated caches.
#[inline(always)]
pub fn start_instrumentation() {
    send(code::START_INSTRUMENTATION, [0; 5]);
}

/// Switches instrumentation off (if it is on): nothing is counted until it is started again.
#[inline(always)]
pub fn stop_instrumentation() {
    send(code::STOP_INSTRUMENTATION, [0; 5]);
}
