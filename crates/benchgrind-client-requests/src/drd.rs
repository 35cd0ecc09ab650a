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
//!
//! The valgrind-requests names (`get_drd_threadid`, `trace_var`, `annotate_*`, ...) are here
//! too, beside the shorter ones.

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

/// [`valgrind_thread_id`] under the valgrind-requests name.
#[inline(always)]
pub fn get_valgrind_threadid() -> usize {
    valgrind_thread_id()
}

/// [`drd_thread_id`] under the valgrind-requests name.
#[inline(always)]
pub fn get_drd_threadid() -> usize {
    drd_thread_id()
}

/// Stops reporting races on the variable `var` (`DRD_IGNORE_VAR`).
#[inline(always)]
pub fn ignore_var<T: ?Sized>(var: &T) {
    ignore_range(var as *const T, std::mem::size_of_val(var));
}

/// Reports races on `var` again (`DRD_STOP_IGNORING_VAR`).
#[inline(always)]
pub fn stop_ignoring_var<T: ?Sized>(var: &T) {
    stop_ignoring_range(var as *const T, std::mem::size_of_val(var));
}

/// Reports every access to `var` (`DRD_TRACE_VAR`).
#[inline(always)]
pub fn trace_var<T: ?Sized>(var: &T) {
    trace_range(var as *const T, std::mem::size_of_val(var));
}

/// Stops reporting accesses to `var` (`DRD_STOP_TRACING_VAR`).
#[inline(always)]
pub fn stop_tracing_var<T: ?Sized>(var: &T) {
    stop_tracing_range(var as *const T, std::mem::size_of_val(var));
}

/// [`happens_before`] under the name of `ANNOTATE_HAPPENS_BEFORE`.
#[inline(always)]
pub fn annotate_happens_before<T: ?Sized>(obj: *const T) {
    happens_before(obj);
}

/// [`happens_after`] under the name of `ANNOTATE_HAPPENS_AFTER`.
#[inline(always)]
pub fn annotate_happens_after<T: ?Sized>(obj: *const T) {
    happens_after(obj);
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

/// [`rwlock_released`] under the name of `ANNOTATE_RWLOCK_RELEASED`.
#[inline(always)]
pub fn annotate_rwlock_released<T: ?Sized>(lock: *const T, is_writer_lock: bool) {
    rwlock_released(lock, is_writer_lock);
}

/// Before a custom semaphore at `sem` is initialised with `value`.
#[inline(always)]
pub fn annotate_sem_init_pre<T: ?Sized>(sem: *const T, value: usize) {
    send(code::ANNOTATE_SEM_INIT_PRE, [addr(sem), value, 0, 0, 0]);
}

/// After the custom semaphore was destroyed.
#[inline(always)]
pub fn annotate_sem_destroy_post<T: ?Sized>(sem: *const T) {
    send(code::ANNOTATE_SEM_DESTROY_POST, [addr(sem), 0, 0, 0, 0]);
}

/// Before the calling thread waits on the custom semaphore.
#[inline(always)]
pub fn annotate_sem_wait_pre<T: ?Sized>(sem: *const T) {
    send(code::ANNOTATE_SEM_WAIT_PRE, [addr(sem), 0, 0, 0, 0]);
}

/// After the wait on the custom semaphore succeeded.
#[inline(always)]
pub fn annotate_sem_wait_post<T: ?Sized>(sem: *const T) {
    send(code::ANNOTATE_SEM_WAIT_POST, [addr(sem), 0, 0, 0, 0]);
}

/// Before the custom semaphore is posted.
#[inline(always)]
pub fn annotate_sem_post_pre<T: ?Sized>(sem: *const T) {
    send(code::ANNOTATE_SEM_POST_PRE, [addr(sem), 0, 0, 0, 0]);
}

/// Stops reporting races on `*addr`, a race accepted as benign (`ANNOTATE_BENIGN_RACE`).
#[inline(always)]
pub fn annotate_benign_race<T: ?Sized>(addr: &T) {
    ignore_var(addr);
}

/// Stops reporting races on the `size` bytes at `addr` (`ANNOTATE_BENIGN_RACE_SIZED`).
#[inline(always)]
pub fn annotate_benign_race_sized<T: ?Sized>(addr: &T, size: usize) {
    ignore_range(addr as *const T, size);
}

/// Stops checking the calling thread's loads (`ANNOTATE_IGNORE_READS_BEGIN`).
#[inline(always)]
pub fn annotate_ignore_reads_begin() {
    record_loads(false);
}

/// Checks the calling thread's loads again.
#[inline(always)]
pub fn annotate_ignore_reads_end() {
    record_loads(true);
}

/// Stops checking the calling thread's stores (`ANNOTATE_IGNORE_WRITES_BEGIN`).
#[inline(always)]
pub fn annotate_ignore_writes_begin() {
    record_stores(false);
}

/// Checks the calling thread's stores again.
#[inline(always)]
pub fn annotate_ignore_writes_end() {
    record_stores(true);
}

/// [`annotate_ignore_reads_begin`] and [`annotate_ignore_writes_begin`].
#[inline(always)]
pub fn annotate_ignore_reads_and_writes_begin() {
    annotate_ignore_reads_begin();
    annotate_ignore_writes_begin();
}

/// [`annotate_ignore_reads_end`] and [`annotate_ignore_writes_end`].
#[inline(always)]
pub fn annotate_ignore_reads_and_writes_end() {
    annotate_ignore_reads_end();
    annotate_ignore_writes_end();
}

/// [`new_memory`] under the name of `ANNOTATE_NEW_MEMORY`.
#[inline(always)]
pub fn annotate_new_memory<T: ?Sized>(addr: *const T, size: usize) {
    new_memory(addr, size);
}

/// Reports every access to the byte at `addr` (`ANNOTATE_TRACE_MEMORY`).
#[inline(always)]
pub fn annotate_trace_memory<T: ?Sized>(addr: *const T) {
    trace_range(addr, 1);
}

/// [`set_thread_name`] under the name of `ANNOTATE_THREAD_NAME`, for any C string.
#[inline(always)]
pub fn annotate_thread_name<T: AsRef<CStr>>(name: T) {
    set_thread_name(name.as_ref());
}
