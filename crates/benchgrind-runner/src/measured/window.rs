//! The measured window: what the generated code calls around a benchmark's body.
//!
//! On x86_64 and aarch64 the window is bracketed with client requests: instrumentation starts
//! after setup (which also empties the simulated caches, so every body starts cold) and events
//! are collected only between the two toggles. Elsewhere the body runs inside
//! [`__benchgrind_measured`], the symbol ([`crate::protocol::FALLBACK_SYMBOL`]) that the runner
//! passes to `--toggle-collect`.

use crate::client_request::{callgrind, request_static, SUPPORTED};

static START_INSTRUMENTATION: [usize; 6] = [callgrind::START_INSTRUMENTATION, 0, 0, 0, 0, 0];
static TOGGLE_COLLECT: [usize; 6] = [callgrind::TOGGLE_COLLECT, 0, 0, 0, 0, 0];
static STOP_INSTRUMENTATION: [usize; 6] = [callgrind::STOP_INSTRUMENTATION, 0, 0, 0, 0, 0];

/// Runs `body` inside the measured window and returns its result.
#[inline(always)]
pub fn measure<R>(body: impl FnOnce() -> R) -> R {
    if SUPPORTED {
        request_static(0, &START_INSTRUMENTATION);
        request_static(0, &TOGGLE_COLLECT);
        let out = body();
        request_static(0, &TOGGLE_COLLECT);
        request_static(0, &STOP_INSTRUMENTATION);
        out
    } else {
        let mut body = Some(body);
        let mut out = None;
        __benchgrind_measured(&mut || out = body.take().map(|b| b()));
        out.expect("the measured body runs exactly once")
    }
}

/// The measured window on targets without client requests; its name is
/// [`FALLBACK_SYMBOL`](crate::protocol::FALLBACK_SYMBOL).
#[doc(hidden)]
#[inline(never)]
#[no_mangle]
pub fn __benchgrind_measured(body: &mut dyn FnMut()) {
    body();
}
