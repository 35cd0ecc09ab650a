//! Cachegrind: count only part of a program.
//!
//! Run with `valgrind --tool=cachegrind --instr-at-start=no`: nothing is counted until
//! [`start_instrumentation`], and nothing after [`stop_instrumentation`]. The requests and the
//! option came with Valgrind 3.22 (`cachegrind.h`); an older Cachegrind ignores both and counts
//! the whole program. Natively, and under other tools, the calls do nothing.
//!
//! ```rust
//! use benchgrind_client_requests::cachegrind;
//!
//! let mut data: Vec<u64> = (0..1000).rev().collect(); // not counted
//! cachegrind::start_instrumentation();
//! data.sort(); // counted
//! cachegrind::stop_instrumentation();
//! # assert!(data.windows(2).all(|w| w[0] <= w[1]));
//! ```

use crate::raw::cachegrind as code;
use crate::send;

/// Starts counting, if Cachegrind is not counting already.
#[inline(always)]
pub fn start_instrumentation() {
    send(code::START_INSTRUMENTATION, [0; 5]);
}

/// Stops counting, if Cachegrind is counting.
#[inline(always)]
pub fn stop_instrumentation() {
    send(code::STOP_INSTRUMENTATION, [0; 5]);
}
