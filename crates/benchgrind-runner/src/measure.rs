//! The measured window: what the generated code calls around a benchmark's body.
//!
//! On x86_64 and aarch64 the window is bracketed with client requests: instrumentation starts
//! after setup (which also empties the simulated caches, so every body starts cold) and events
//! are collected only between the two toggles. Elsewhere the body runs inside
//! [`__benchgrind_measured`], a symbol the runner passes to `--toggle-collect`.

use crate::client_request::{callgrind, request, SUPPORTED};

/// The symbol that `--toggle-collect` names on targets without client requests.
pub const FALLBACK_SYMBOL: &str = "__benchgrind_measured";

/// Runs `body` inside the measured window and returns its result.
#[inline(always)]
pub fn measure<R>(body: impl FnOnce() -> R) -> R {
    if SUPPORTED {
        request(0, callgrind::START_INSTRUMENTATION, [0; 5]);
        request(0, callgrind::TOGGLE_COLLECT, [0; 5]);
        let out = body();
        request(0, callgrind::TOGGLE_COLLECT, [0; 5]);
        request(0, callgrind::STOP_INSTRUMENTATION, [0; 5]);
        out
    } else {
        let mut body = Some(body);
        let mut out = None;
        __benchgrind_measured(&mut || out = body.take().map(|b| b()));
        out.expect("the measured body runs exactly once")
    }
}

/// The measured window on targets without client requests; see [`FALLBACK_SYMBOL`].
#[doc(hidden)]
#[inline(never)]
#[no_mangle]
pub fn __benchgrind_measured(body: &mut dyn FnMut()) {
    body();
}
