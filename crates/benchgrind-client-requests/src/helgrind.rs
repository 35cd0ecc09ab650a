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
//!
//! The valgrind-requests names (`annotate_happens_before`, `sem_init_post`, `get_abits`, ...)
//! are here too, beside the shorter ones.

use crate::raw::helgrind as code;
use crate::{request, send};

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

/// [`happens_before`] under the name of `helgrind.h`'s `ANNOTATE_HAPPENS_BEFORE`.
#[inline(always)]
pub fn annotate_happens_before<T: ?Sized>(obj: *const T) {
    happens_before(obj);
}

/// [`happens_after`] under the name of `ANNOTATE_HAPPENS_AFTER`.
#[inline(always)]
pub fn annotate_happens_after<T: ?Sized>(obj: *const T) {
    happens_after(obj);
}

/// [`happens_before_forget_all`] under the name of `ANNOTATE_HAPPENS_BEFORE_FORGET_ALL`.
#[inline(always)]
pub fn annotate_happens_before_forget_all<T: ?Sized>(obj: *const T) {
    happens_before_forget_all(obj);
}

/// [`clean_memory`] under the name of `ANNOTATE_NEW_MEMORY`: `[addr, addr + size)` was just
/// allocated by a custom allocator.
#[inline(always)]
pub fn annotate_new_memory<T: ?Sized>(addr: *const T, size: usize) {
    clean_memory(addr, size);
}

/// [`rwlock_create`] under the name of `ANNOTATE_RWLOCK_CREATE`.
#[inline(always)]
pub fn annotate_rwlock_create<T: ?Sized>(lock: *const T) {
    rwlock_create(lock);
}

/// [`rwlock_destroy`] under the name of `ANNOTATE_RWLOCK_DESTROY`.
#[inline(always)]
pub fn annotate_rwlock_destroy<T: ?Sized>(lock: *const T) {
    rwlock_destroy(lock);
}

/// [`rwlock_acquired`] under the name of `ANNOTATE_RWLOCK_ACQUIRED`.
#[inline(always)]
pub fn annotate_rwlock_acquired<T: ?Sized>(lock: *const T, is_writer_lock: bool) {
    rwlock_acquired(lock, is_writer_lock);
}

/// [`rwlock_released`] under the name of `ANNOTATE_RWLOCK_RELEASED`; Helgrind ignores
/// `is_writer_lock`.
#[inline(always)]
pub fn annotate_rwlock_released<T: ?Sized>(lock: *const T, is_writer_lock: bool) {
    let _ = is_writer_lock;
    rwlock_released(lock);
}

/// After a custom semaphore at `sem` was initialised with `value`.
#[inline(always)]
pub fn sem_init_post<T: ?Sized>(sem: *const T, value: usize) {
    send(code::POSIX_SEM_INIT_POST, [addr(sem), value, 0, 0, 0]);
}

/// After a wait on the custom semaphore succeeded.
#[inline(always)]
pub fn sem_wait_post<T: ?Sized>(sem: *const T) {
    send(code::POSIX_SEM_ACQUIRED, [addr(sem), 0, 0, 0, 0]);
}

/// Before the custom semaphore is posted.
#[inline(always)]
pub fn sem_post_pre<T: ?Sized>(sem: *const T) {
    send(code::POSIX_SEM_RELEASED, [addr(sem), 0, 0, 0, 0]);
}

/// Before the custom semaphore is destroyed.
#[inline(always)]
pub fn sem_destroy_pre<T: ?Sized>(sem: *const T) {
    send(code::POSIX_SEM_DESTROY_PRE, [addr(sem), 0, 0, 0, 0]);
}

/// Before a custom barrier at `bar` is initialised for `count` threads; `resizable` if
/// [`barrier_resize_pre`] will change the count.
#[inline(always)]
pub fn barrier_init_pre<T: ?Sized>(bar: *const T, count: usize, resizable: bool) {
    let args = [addr(bar), count, usize::from(resizable), 0, 0];
    send(code::PTHREAD_BARRIER_INIT_PRE, args);
}

/// Before the calling thread waits at the custom barrier.
#[inline(always)]
pub fn barrier_wait_pre<T: ?Sized>(bar: *const T) {
    send(code::PTHREAD_BARRIER_WAIT_PRE, [addr(bar), 0, 0, 0, 0]);
}

/// Before the resizable custom barrier's count changes to `new_count`.
#[inline(always)]
pub fn barrier_resize_pre<T: ?Sized>(bar: *const T, new_count: usize) {
    send(
        code::PTHREAD_BARRIER_RESIZE_PRE,
        [addr(bar), new_count, 0, 0, 0],
    );
}

/// Before the custom barrier is destroyed.
#[inline(always)]
pub fn barrier_destroy_pre<T: ?Sized>(bar: *const T) {
    send(code::PTHREAD_BARRIER_DESTROY_PRE, [addr(bar), 0, 0, 0, 0]);
}

/// [`clean_memory`] for the whole heap block that starts at `blockstart`, when its size is not
/// known. Returns the number of bytes cleaned, -1 if no heap block starts there, -2 when not
/// running under Helgrind (and natively).
#[inline(always)]
pub fn clean_memory_heapblock<T: ?Sized>(blockstart: *const T) -> isize {
    let answer = request(
        -2isize as usize,
        code::CLEAN_MEMORY_HEAPBLOCK,
        [addr(blockstart), 0, 0, 0, 0],
    );
    answer as isize
}

/// How many bytes of `[addr, addr + len)` are addressable for Helgrind, copying one byte per
/// address into `abits` (0xff addressable, 0 not) unless it is null. Returns -1 if part of
/// `abits` itself is not addressable, -2 when not running under Helgrind (and natively).
/// [`abits`] is the safe form.
///
/// # Safety
///
/// Unless `abits` is null, Helgrind writes `len` bytes there: it must be valid for them.
#[inline(always)]
pub unsafe fn get_abits<T: ?Sized>(addr: *const T, abits: *mut u8, len: usize) -> isize {
    let args = [addr.cast::<u8>() as usize, abits as usize, len, 0, 0];
    request(-2isize as usize, code::GET_ABITS, args) as isize
}

/// [`get_abits`] for `abits.len()` bytes from `addr`, into `abits`.
#[inline(always)]
// `addr` is only named to Valgrind, never dereferenced.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn abits<T: ?Sized>(addr: *const T, abits: &mut [u8]) -> isize {
    // SAFETY: the slice is valid for writes of its length.
    unsafe { get_abits(addr, abits.as_mut_ptr(), abits.len()) }
}

/// For GNAT (Ada) tasks: the dependent task `dep` is joined by its master `master`.
#[inline(always)]
pub fn gnat_dependent_master_join<A: ?Sized, B: ?Sized>(dep: *const A, master: *const B) {
    let args = [addr(dep), addr(master), 0, 0, 0];
    send(code::GNAT_DEPENDENT_MASTER_JOIN, args);
}
