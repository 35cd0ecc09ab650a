//! The measured window: what the generated code calls around a benchmark's body.
//!
//! On x86_64 and aarch64 the window is bracketed with client requests: instrumentation starts
//! after setup (which also empties the simulated caches, so every body starts cold) and events
//! are collected only between the two toggles. Elsewhere the body runs inside
//! [`__benchgrind_measured`], the symbol ([`crate::protocol::FALLBACK_SYMBOL`]) that the runner
//! passes to `--toggle-collect`.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::client_request::{callgrind, request_static, valgrind, SUPPORTED};

/// A request block in writable memory: its code can be switched before any request is sent.
struct Block(UnsafeCell<[usize; 6]>);

// SAFETY: written only by `not_callgrind`, which the measured process calls once, before any
// benchmark (and so any reader) runs, while it is single-threaded.
unsafe impl Sync for Block {}

impl Block {
    const fn new(code: usize) -> Block {
        Block(UnsafeCell::new([code, 0, 0, 0, 0, 0]))
    }

    #[inline(always)]
    fn get(&'static self) -> &'static [usize; 6] {
        // SAFETY: no write happens once benchmarks run (see `not_callgrind`).
        unsafe { &*self.0.get() }
    }
}

static START_INSTRUMENTATION: Block = Block::new(callgrind::START_INSTRUMENTATION);
static TOGGLE_COLLECT: Block = Block::new(callgrind::TOGGLE_COLLECT);
static STOP_INSTRUMENTATION: Block = Block::new(callgrind::STOP_INSTRUMENTATION);

/// Under another tool than Callgrind the window's requests become Valgrind's own "running on
/// Valgrind?" request, which the core answers and every tool ignores: no "unknown client
/// request" in the tool's log, and not one instruction more in the window, since only the code
/// in the request block changes. Call before any benchmark runs.
pub fn not_callgrind() {
    for block in [
        &START_INSTRUMENTATION,
        &TOGGLE_COLLECT,
        &STOP_INSTRUMENTATION,
    ] {
        // SAFETY: see `Block`: the process is single-threaded and no request was sent yet.
        unsafe { (*block.0.get())[0] = valgrind::RUNNING_ON_VALGRIND };
    }
}

/// The ballast's size in bytes, 0 (the default, and always under Callgrind) for none.
static BALLAST: AtomicU64 = AtomicU64::new(0);

/// Under DHAT: hold a block of `bytes` across every window (see
/// [`crate::protocol::DHAT_BALLAST_ENV`]). Call before any benchmark runs.
pub fn set_ballast(bytes: u64) {
    BALLAST.store(bytes, Ordering::Relaxed);
}

/// Allocates the ballast, if any, with the C allocator (which DHAT replaces, whatever the
/// program's global allocator). Outside the window, so Callgrind never counts it.
#[inline(never)]
fn ballast_open() -> *mut libc::c_void {
    match BALLAST.load(Ordering::Relaxed) {
        0 => std::ptr::null_mut(),
        bytes => __benchgrind_ballast(bytes as usize),
    }
}

/// The ballast's own frame, [`crate::protocol::BALLAST_SYMBOL`], by which DHAT's stacks tell
/// it from the benchmark's allocations.
#[doc(hidden)]
#[inline(never)]
#[no_mangle]
pub extern "C" fn __benchgrind_ballast(bytes: usize) -> *mut libc::c_void {
    // SAFETY: malloc with any size is sound; a null result only means no ballast.
    std::hint::black_box(unsafe { libc::malloc(std::hint::black_box(bytes)) })
}

/// Frees what [`ballast_open`] allocated, after the window closed.
#[inline(never)]
fn ballast_close(block: *mut libc::c_void) {
    if !block.is_null() {
        // SAFETY: `block` came from malloc in `ballast_open` and is freed once.
        unsafe { libc::free(std::hint::black_box(block)) };
    }
}

/// Runs `body` inside the measured window and returns its result.
#[inline(always)]
pub fn measure<R>(body: impl FnOnce() -> R) -> R {
    if SUPPORTED {
        let ballast = ballast_open();
        request_static(0, START_INSTRUMENTATION.get());
        request_static(0, TOGGLE_COLLECT.get());
        let out = body();
        request_static(0, TOGGLE_COLLECT.get());
        request_static(0, STOP_INSTRUMENTATION.get());
        ballast_close(ballast);
        out
    } else {
        let mut body = Some(body);
        let mut out = None;
        let ballast = ballast_open();
        __benchgrind_measured(&mut || out = body.take().map(|b| b()));
        ballast_close(ballast);
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
