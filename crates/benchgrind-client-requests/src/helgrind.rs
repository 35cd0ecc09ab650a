//! Helgrind: tell the race detector about synchronisation it cannot see (lock-free handoffs,
//! custom locks) and about memory whose races you accept.
//!
//! Helgrind understands pthreads, not atomics: a handoff through an atomic flag looks like a
//! race on the data it guards. [`happens_before`] and [`happens_after`] on the same address tell
//! it the truth. Natively, and under other tools, every call does nothing.
//!
//! ```rust
//! use benchgrind_client_requests::helgrind;
//! use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
//!
//! static DATA: AtomicU64 = AtomicU64::new(0);
//! static READY: AtomicBool = AtomicBool::new(false);
//!
//! std::thread::scope(|s| {
//!     s.spawn(|| {
//!         while !READY.load(Ordering::Acquire) {}
//!         helgrind::happens_after(&READY);
//!         assert_eq!(DATA.load(Ordering::Relaxed), 42);
//!     });
//!     DATA.store(42, Ordering::Relaxed);
//!     helgrind::happens_before(&READY);
//!     READY.store(true, Ordering::Release);
//! });
//! ```

use crate::raw::helgrind as code;
use crate::send;

fn addr<T: ?Sized>(object: *const T) -> usize {
    object.cast::<u8>() as usize
}

/// Marks a happens-before edge starting here, named by the address of `object` (the
/// synchronisation variable); paired with [`happens_after`] on the same address.
#[inline(always)]
pub fn happens_before<T: ?Sized>(object: *const T) {
    send(code::USERSO_SEND_PRE, [addr(object), 0, 0, 0, 0]);
}

/// Marks the end of every happens-before edge started on `object` so far.
#[inline(always)]
pub fn happens_after<T: ?Sized>(object: *const T) {
    send(code::USERSO_RECV_POST, [addr(object), 0, 0, 0, 0]);
}

/// Forgets the happens-before edges started on `object` (before reusing its memory).
#[inline(always)]
pub fn happens_before_forget_all<T: ?Sized>(object: *const T) {
    send(code::USERSO_FORGET_ALL, [addr(object), 0, 0, 0, 0]);
}

/// Makes `[start, start + len)` belong to the calling thread, as freshly allocated memory does
/// (for allocators that recycle memory).
#[inline(always)]
pub fn clean_memory<T: ?Sized>(start: *const T, len: usize) {
    send(code::CLEAN_MEMORY, [addr(start), len, 0, 0, 0]);
}

/// Stops race checking on `[start, start + len)` (races there are benign) until
/// [`enable_checking`] or until the memory is allocated again.
#[inline(always)]
pub fn disable_checking<T: ?Sized>(start: *const T, len: usize) {
    send(code::ARANGE_MAKE_UNTRACKED, [addr(start), len, 0, 0, 0]);
}

/// Checks races on `[start, start + len)` again, as memory owned by the calling thread.
#[inline(always)]
pub fn enable_checking<T: ?Sized>(start: *const T, len: usize) {
    send(code::ARANGE_MAKE_TRACKED, [addr(start), len, 0, 0, 0]);
}

/// Announces a custom mutex at `mutex` (after its creation); `recursive` as the name says.
#[inline(always)]
pub fn mutex_init_post<T: ?Sized>(mutex: *const T, recursive: bool) {
    send(
        code::PTHREAD_MUTEX_INIT_POST,
        [addr(mutex), usize::from(recursive), 0, 0, 0],
    );
}

/// Before locking the custom mutex (`try_lock` for a non-blocking attempt).
#[inline(always)]
pub fn mutex_lock_pre<T: ?Sized>(mutex: *const T, try_lock: bool) {
    send(
        code::PTHREAD_MUTEX_ACQUIRE_PRE,
        [addr(mutex), usize::from(try_lock), 0, 0, 0],
    );
}

/// After the custom mutex was locked.
#[inline(always)]
pub fn mutex_lock_post<T: ?Sized>(mutex: *const T) {
    send(code::PTHREAD_MUTEX_ACQUIRE_POST, [addr(mutex), 0, 0, 0, 0]);
}

/// Before unlocking the custom mutex.
#[inline(always)]
pub fn mutex_unlock_pre<T: ?Sized>(mutex: *const T) {
    send(code::PTHREAD_MUTEX_UNLOCK_PRE, [addr(mutex), 0, 0, 0, 0]);
}

/// After the custom mutex was unlocked.
#[inline(always)]
pub fn mutex_unlock_post<T: ?Sized>(mutex: *const T) {
    send(code::PTHREAD_MUTEX_UNLOCK_POST, [addr(mutex), 0, 0, 0, 0]);
}

/// Before the custom mutex is destroyed.
#[inline(always)]
pub fn mutex_destroy_pre<T: ?Sized>(mutex: *const T) {
    send(code::PTHREAD_MUTEX_DESTROY_PRE, [addr(mutex), 0, 0, 0, 0]);
}

/// Announces a custom reader-writer lock at `lock`.
#[inline(always)]
pub fn rwlock_create<T: ?Sized>(lock: *const T) {
    send(code::PTHREAD_RWLOCK_INIT_POST, [addr(lock), 0, 0, 0, 0]);
}

/// Before the custom reader-writer lock is destroyed.
#[inline(always)]
pub fn rwlock_destroy<T: ?Sized>(lock: *const T) {
    send(code::PTHREAD_RWLOCK_DESTROY_PRE, [addr(lock), 0, 0, 0, 0]);
}

/// After the custom reader-writer lock was acquired, for writing if `writer`.
#[inline(always)]
pub fn rwlock_acquired<T: ?Sized>(lock: *const T, writer: bool) {
    send(
        code::PTHREAD_RWLOCK_ACQUIRED,
        [addr(lock), usize::from(writer), 0, 0, 0],
    );
}

/// Before the custom reader-writer lock is released.
#[inline(always)]
pub fn rwlock_released<T: ?Sized>(lock: *const T) {
    send(code::PTHREAD_RWLOCK_RELEASED, [addr(lock), 0, 0, 0, 0]);
}
