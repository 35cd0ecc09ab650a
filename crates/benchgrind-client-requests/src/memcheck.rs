//! Memcheck: change and check what it knows about memory, and run its leak checker on demand.
//!
//! Addresses are raw pointers and lengths are in bytes. Changing Memcheck's view of memory is
//! not `unsafe`: it only changes what Memcheck reports. Natively, and under other tools, every
//! call does nothing and returns its default (0).
//!
//! Run with `valgrind --tool=memcheck`: the check reports an error and returns the address of the
//! first undefined byte.
//!
//! ```rust
//! use benchgrind_client_requests::memcheck;
//!
//! let buffer = vec![0u8; 16];
//! memcheck::make_mem_undefined(buffer.as_ptr(), buffer.len());
//! let first_bad = memcheck::check_mem_is_defined(buffer.as_ptr(), buffer.len());
//! # let _ = first_bad;
//! memcheck::make_mem_defined(buffer.as_ptr(), buffer.len());
//! ```

use std::ffi::CStr;

use crate::raw::memcheck as code;
use crate::{request, send};

/// The handle of a description made by [`create_block`], for [`discard`].
pub type BlockHandle = usize;

fn range<T: ?Sized>(addr: *const T, len: usize) -> [usize; 5] {
    [addr.cast::<u8>() as usize, len, 0, 0, 0]
}

/// Marks `[addr, addr + len)` as not addressable: any access is an error. Returns Memcheck's
/// answer, which means nothing (`usize::MAX`, -1 in C; 0 natively and under other tools).
/// The same holds for the other `make_mem_*`.
#[inline(always)]
pub fn make_mem_noaccess<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::MAKE_MEM_NOACCESS, range(addr, len))
}

/// Marks `[addr, addr + len)` as addressable but undefined: using its value is an error.
#[inline(always)]
pub fn make_mem_undefined<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::MAKE_MEM_UNDEFINED, range(addr, len))
}

/// Marks `[addr, addr + len)` as addressable and defined.
#[inline(always)]
pub fn make_mem_defined<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::MAKE_MEM_DEFINED, range(addr, len))
}

/// Marks the addressable bytes of `[addr, addr + len)` defined; leaves the others alone.
#[inline(always)]
pub fn make_mem_defined_if_addressable<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::MAKE_MEM_DEFINED_IF_ADDRESSABLE, range(addr, len))
}

/// Checks that `[addr, addr + len)` is addressable. Reports an error and returns the address
/// of the first bad byte if not; 0 if it is (and natively).
#[inline(always)]
pub fn check_mem_is_addressable<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::CHECK_MEM_IS_ADDRESSABLE, range(addr, len))
}

/// Checks that `[addr, addr + len)` is addressable and defined. Reports an error and returns
/// the address of the first bad byte if not; 0 if it is (and natively).
#[inline(always)]
pub fn check_mem_is_defined<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(0, code::CHECK_MEM_IS_DEFINED, range(addr, len))
}

/// [`check_mem_is_defined`] on the bytes of `value`.
#[inline(always)]
pub fn check_value_is_defined<T: ?Sized>(value: &T) -> usize {
    check_mem_is_defined(value as *const T, std::mem::size_of_val(value))
}

/// Names the range `[addr, addr + len)` in Memcheck's error messages with `description`; returns
/// a handle for [`discard`] (0 natively). `'static` because the description is read whenever an
/// error is reported, not only now (whether Memcheck copies it is its business): a `c"..."`
/// literal is what this is for.
#[inline(always)]
pub fn create_block<T: ?Sized>(
    addr: *const T,
    len: usize,
    description: &'static CStr,
) -> BlockHandle {
    let args = [
        addr.cast::<u8>() as usize,
        len,
        description.as_ptr() as usize,
        0,
        0,
    ];
    request(0, code::CREATE_BLOCK, args)
}

/// Forgets a description made by [`create_block`]; returns whether the handle was unknown.
#[inline(always)]
pub fn discard(handle: BlockHandle) -> bool {
    request(0, code::DISCARD, [0, handle, 0, 0, 0]) != 0
}

/// Runs a full leak check now, like `--leak-check=full` at exit.
#[inline(always)]
pub fn do_leak_check() {
    send(code::DO_LEAK_CHECK, [0; 5]);
}

/// Runs a leak check showing only what grew since the previous one.
#[inline(always)]
pub fn do_added_leak_check() {
    send(code::DO_LEAK_CHECK, [0, 1, 0, 0, 0]);
}

/// Runs a leak check showing what grew or shrank since the previous one.
#[inline(always)]
pub fn do_changed_leak_check() {
    send(code::DO_LEAK_CHECK, [0, 2, 0, 0, 0]);
}

/// Runs a leak check showing only the loss records that are new since the previous one (new in
/// Valgrind 3.21's `memcheck.h`; Valgrind 3.19's Memcheck runs a full check instead).
#[inline(always)]
pub fn do_new_leak_check() {
    send(code::DO_LEAK_CHECK, [0, 3, 0, 0, 0]);
}

/// Runs a leak check that prints only the summary, like `--leak-check=summary`.
#[inline(always)]
pub fn do_quick_leak_check() {
    send(code::DO_LEAK_CHECK, [1, 0, 0, 0, 0]);
}

/// Bytes or blocks found by the previous leak check, by kind (all 0 natively).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LeakCounts {
    /// Definitely lost: no pointer to the block is left.
    pub leaked: usize,
    /// Possibly lost: only pointers into the middle of the block are left.
    pub dubious: usize,
    /// Still reachable.
    pub reachable: usize,
    /// Matched by a suppression.
    pub suppressed: usize,
}

/// Bytes found by the last leak check ([`do_leak_check`] and friends).
#[inline(always)]
pub fn count_leaks() -> LeakCounts {
    counts(code::COUNT_LEAKS)
}

/// Blocks found by the last leak check ([`do_leak_check`] and friends).
#[inline(always)]
pub fn count_leak_blocks() -> LeakCounts {
    counts(code::COUNT_LEAK_BLOCKS)
}

#[inline(always)]
fn counts(request_code: usize) -> LeakCounts {
    // Memcheck writes the four counts through the pointers; zero first, as Memcheck leaves
    // them alone when there was no leak check and natively nothing writes them.
    let mut counts = LeakCounts::default();
    let args = [
        std::ptr::addr_of_mut!(counts.leaked) as usize,
        std::ptr::addr_of_mut!(counts.dubious) as usize,
        std::ptr::addr_of_mut!(counts.reachable) as usize,
        std::ptr::addr_of_mut!(counts.suppressed) as usize,
        0,
    ];
    send(request_code, args);
    counts
}

/// Copies Memcheck's definedness bits of `[addr, addr + vbits.len())` into `vbits` (a 0 bit is
/// defined). Returns 1 on success, 3 if a range is not addressable, 0 natively.
#[inline(always)]
pub fn get_vbits<T: ?Sized>(addr: *const T, vbits: &mut [u8]) -> usize {
    let args = [
        addr.cast::<u8>() as usize,
        vbits.as_mut_ptr() as usize,
        vbits.len(),
        0,
        0,
    ];
    request(0, code::GET_VBITS, args)
}

/// Sets Memcheck's definedness bits of `[addr, addr + vbits.len())` from `vbits`, as read by
/// [`get_vbits`]. Returns 1 on success, 3 if a range is not addressable, 0 natively.
#[inline(always)]
pub fn set_vbits<T: ?Sized>(addr: *const T, vbits: &[u8]) -> usize {
    let args = [
        addr.cast::<u8>() as usize,
        vbits.as_ptr() as usize,
        vbits.len(),
        0,
        0,
    ];
    request(0, code::SET_VBITS, args)
}

/// Stops reporting invalid accesses to `[addr, addr + len)`.
/// Returns Memcheck's answer, 1; 0 natively and under other tools.
#[inline(always)]
pub fn disable_addr_error_reporting_in_range<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(
        0,
        code::DISABLE_ADDR_ERROR_REPORTING_IN_RANGE,
        range(addr, len),
    )
}

/// Reports invalid accesses to `[addr, addr + len)` again.
/// Returns Memcheck's answer, 1 (also for a range that was not disabled); 0 natively and under
/// other tools.
#[inline(always)]
pub fn enable_addr_error_reporting_in_range<T: ?Sized>(addr: *const T, len: usize) -> usize {
    request(
        0,
        code::ENABLE_ADDR_ERROR_REPORTING_IN_RANGE,
        range(addr, len),
    )
}
