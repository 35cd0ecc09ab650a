//! DRD: the other race detector. Same idea as [`helgrind`](crate::helgrind) (tell it about
//! synchronisation it cannot see, silence accepted races), its own request codes, plus access
//! tracing and thread names.
//!
//! Natively, and under other tools, every call does nothing and returns its default (0).
//!
//! ```rust
//! use benchgrind_client_requests::drd;
//! use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
//!
//! static DATA: AtomicU64 = AtomicU64::new(0);
//! static READY: AtomicBool = AtomicBool::new(false);
//!
//! std::thread::scope(|s| {
//!     s.spawn(|| {
//!         drd::set_thread_name(c"consumer");
//!         while !READY.load(Ordering::Acquire) {}
//!         drd::happens_after(&READY);
//!         assert_eq!(DATA.load(Ordering::Relaxed), 42);
//!     });
//!     DATA.store(42, Ordering::Relaxed);
//!     drd::happens_before(&READY);
//!     READY.store(true, Ordering::Release);
//! });
//! ```

use std::ffi::CStr;

use crate::raw::drd as code;
use crate::{request, send};

fn addr<T: ?Sized>(object: *const T) -> usize {
    object.cast::<u8>() as usize
}

/// The calling thread's id as Valgrind numbers threads (0 natively).
#[inline(always)]
pub fn valgrind_thread_id() -> usize {
    request(0, code::GET_VALGRIND_THREAD_ID, [0; 5])
}

/// The calling thread's id as DRD numbers threads in its reports (0 natively).
#[inline(always)]
pub fn drd_thread_id() -> usize {
    request(0, code::GET_DRD_THREAD_ID, [0; 5])
}

/// Marks a happens-before edge starting here, named by the address of `object`; paired with
/// [`happens_after`] on the same address.
#[inline(always)]
pub fn happens_before<T: ?Sized>(object: *const T) {
    send(code::ANNOTATE_HAPPENS_BEFORE, [addr(object), 0, 0, 0, 0]);
}

/// Marks the end of every happens-before edge started on `object` so far.
#[inline(always)]
pub fn happens_after<T: ?Sized>(object: *const T) {
    send(code::ANNOTATE_HAPPENS_AFTER, [addr(object), 0, 0, 0, 0]);
}

/// Stops reporting races on `[start, start + len)` (they are benign).
#[inline(always)]
pub fn ignore_range<T: ?Sized>(start: *const T, len: usize) {
    send(code::START_SUPPRESSION, [addr(start), len, 0, 0, 0]);
}

/// Reports races on `[start, start + len)` again.
#[inline(always)]
pub fn stop_ignoring_range<T: ?Sized>(start: *const T, len: usize) {
    send(code::FINISH_SUPPRESSION, [addr(start), len, 0, 0, 0]);
}

/// Reports every access to `[start, start + len)`.
#[inline(always)]
pub fn trace_range<T: ?Sized>(start: *const T, len: usize) {
    send(code::START_TRACE_ADDR, [addr(start), len, 0, 0, 0]);
}

/// Stops reporting accesses to `[start, start + len)`.
#[inline(always)]
pub fn stop_tracing_range<T: ?Sized>(start: *const T, len: usize) {
    send(code::STOP_TRACE_ADDR, [addr(start), len, 0, 0, 0]);
}

/// Whether the calling thread's loads are checked for races (on by default).
#[inline(always)]
pub fn record_loads(on: bool) {
    send(code::RECORD_LOADS, [usize::from(on), 0, 0, 0, 0]);
}

/// Whether the calling thread's stores are checked for races (on by default).
#[inline(always)]
pub fn record_stores(on: bool) {
    send(code::RECORD_STORES, [usize::from(on), 0, 0, 0, 0]);
}

/// Names the calling thread in DRD's reports.
#[inline(always)]
pub fn set_thread_name(name: &CStr) {
    send(code::SET_THREAD_NAME, [name.as_ptr() as usize, 0, 0, 0, 0]);
}

/// Makes `[start, start + len)` look freshly allocated (for allocators that recycle memory).
#[inline(always)]
pub fn new_memory<T: ?Sized>(start: *const T, len: usize) {
    send(code::CLEAN_MEMORY, [addr(start), len, 0, 0, 0]);
}

/// Announces a custom reader-writer lock at `lock`.
#[inline(always)]
pub fn rwlock_create<T: ?Sized>(lock: *const T) {
    send(code::ANNOTATE_RWLOCK_CREATE, [addr(lock), 0, 0, 0, 0]);
}

/// Before the custom reader-writer lock is destroyed.
#[inline(always)]
pub fn rwlock_destroy<T: ?Sized>(lock: *const T) {
    send(code::ANNOTATE_RWLOCK_DESTROY, [addr(lock), 0, 0, 0, 0]);
}

/// After the custom reader-writer lock was acquired, for writing if `writer`.
#[inline(always)]
pub fn rwlock_acquired<T: ?Sized>(lock: *const T, writer: bool) {
    send(
        code::ANNOTATE_RWLOCK_ACQUIRED,
        [addr(lock), usize::from(writer), 0, 0, 0],
    );
}

/// Before the custom reader-writer lock is released, held for writing if `writer`.
#[inline(always)]
pub fn rwlock_released<T: ?Sized>(lock: *const T, writer: bool) {
    send(
        code::ANNOTATE_RWLOCK_RELEASED,
        [addr(lock), usize::from(writer), 0, 0, 0],
    );
}
