//! The core requests, understood by every Valgrind tool: am I running on Valgrind, how many
//! errors so far, write to the log, discard translations, describe custom allocators, memory
//! pools and stacks, switch error reporting off and on.
//!
//! Natively every function returns its default (0, `false`) and does nothing.
//!
//! ```rust
//! use benchgrind_client_requests::{valgrind, valgrind_println};
//!
//! if valgrind::running_on_valgrind() > 0 {
//!     valgrind_println!("checkpoint {} reached, {} errors so far", 3, valgrind::count_errors())
//!         .unwrap();
//! }
//! ```

use std::ffi::CStr;
use std::fmt;

use crate::raw::valgrind as code;
use crate::{request, send, StackId};

mod more;
pub use more::*;

/// How many Valgrinds this program runs under: 0 natively, 1 under Valgrind, 2 under Valgrind
/// running under Valgrind.
#[inline(always)]
pub fn running_on_valgrind() -> usize {
    request(0, code::RUNNING_ON_VALGRIND, [0; 5])
}

/// Makes Valgrind forget its translations of the code in `[addr, addr + len)`, so that code
/// written at run time (a JIT) is translated afresh.
#[inline(always)]
pub fn discard_translations<T: ?Sized>(addr: *const T, len: usize) {
    send(
        code::DISCARD_TRANSLATIONS,
        [addr.cast::<u8>() as usize, len, 0, 0, 0],
    );
}

/// The number of errors the tool has recorded so far (Memcheck, Helgrind, DRD; 0 for tools
/// that report no errors, such as Callgrind).
#[inline(always)]
pub fn count_errors() -> usize {
    request(0, code::COUNT_ERRORS, [0; 5])
}

/// Runs a gdbserver monitor command, for example `c"v.info n_errs_found"`; its output goes to
/// the log unless GDB is connected. Returns whether Valgrind recognised the command (`false`
/// natively).
#[inline(always)]
pub fn monitor_command<T: AsRef<CStr>>(command: T) -> bool {
    let command = command.as_ref();
    // The request answers 1 for an unknown command, 0 otherwise; natively the default 1 makes
    // the answer `false` too.
    request(
        1,
        code::GDB_MONITOR_COMMAND,
        [command.as_ptr() as usize, 0, 0, 0, 0],
    ) == 0
}

/// Changes a dynamic command-line option, for example `c"--vgdb-error=0"`
/// (`valgrind --help-dyn-options` lists them).
#[inline(always)]
pub fn clo_change<T: AsRef<CStr>>(option: T) {
    let option = option.as_ref();
    send(code::CLO_CHANGE, [option.as_ptr() as usize, 0, 0, 0, 0]);
}

/// Writes `message` to the Valgrind log, after the `**<pid>**` prefix, and returns the number
/// of characters written. Natively nothing is formatted or written. See [`valgrind_printf!`]
/// and [`valgrind_println!`] for formatting.
///
/// [`valgrind_printf!`]: crate::valgrind_printf
/// [`valgrind_println!`]: crate::valgrind_println
#[inline]
pub fn printf(message: &str) -> usize {
    printf_args(format_args!("{message}"))
}

/// Like [`printf`], followed by a backtrace of the calling thread.
#[inline]
pub fn printf_backtrace(message: &str) -> usize {
    printf_backtrace_args(format_args!("{message}"))
}

/// [`printf`] for preformatted arguments; what the macros call.
#[inline]
pub fn printf_args(args: fmt::Arguments<'_>) -> usize {
    print(code::PRINTF_VALIST_BY_REF, args)
}

/// [`printf_backtrace`] for preformatted arguments.
#[inline]
pub fn printf_backtrace_args(args: fmt::Arguments<'_>) -> usize {
    print(code::PRINTF_BACKTRACE_VALIST_BY_REF, args)
}

/// What the `*_unchecked` macros call: [`printf_args`], or [`printf_backtrace_args`] if
/// `backtrace`, without the answer.
///
/// # Safety
///
/// None to uphold: `unsafe` only so that the macros need an `unsafe` context, as the
/// valgrind-requests macros of the same names do.
#[doc(hidden)]
#[inline]
pub unsafe fn __print_unchecked(backtrace: bool, args: fmt::Arguments<'_>) {
    if backtrace {
        printf_backtrace_args(args);
    } else {
        printf_args(args);
    }
}

/// What the checked macros (`valgrind_printf!`, `valgrind_println!` and their backtrace forms)
/// call: the text written as [`printf_args`] writes it, or, under Valgrind, an error when the
/// formatted text holds a NUL byte (which would end Valgrind's C string early; the
/// `*_unchecked` macros drop it instead). Natively nothing is formatted and the answer is
/// `Ok(())`.
#[doc(hidden)]
#[inline]
pub fn __print_checked(
    backtrace: bool,
    args: fmt::Arguments<'_>,
) -> Result<(), crate::error::ClientRequestError> {
    if !crate::ENABLED || running_on_valgrind() == 0 {
        return Ok(());
    }
    let text = FormatString::of(args);
    if text.had_nul {
        // Formatted again only to say where: the error path.
        let nul = std::ffi::CString::new(fmt::format(args)).expect_err("the text holds a NUL");
        return Err(nul.into());
    }
    let code = if backtrace {
        code::PRINTF_BACKTRACE_VALIST_BY_REF
    } else {
        code::PRINTF_VALIST_BY_REF
    };
    send_text(code, text);
    Ok(())
}

fn print(request_code: usize, args: fmt::Arguments<'_>) -> usize {
    // Format only when someone will read it: natively this is one no-op request.
    if !crate::ENABLED || running_on_valgrind() == 0 {
        return 0;
    }
    send_text(request_code, FormatString::of(args))
}

/// Sends a formatted message with one of the printf requests; Valgrind's answer.
fn send_text(request_code: usize, mut text: FormatString) -> usize {
    text.bytes.push(0);
    // Valgrind's printf wants a C format string and a `va_list` by reference. Every `%` of the
    // message is doubled, so no conversion ever reads the `va_list`: a zeroed block the size of
    // the largest one (aarch64: 32 bytes) stands in for it.
    let va_list = [0usize; 4];
    request(
        0,
        request_code,
        [
            text.bytes.as_ptr() as usize,
            va_list.as_ptr() as usize,
            0,
            0,
            0,
        ],
    )
}

/// The message as a C format string without conversions: `%` doubled, NUL bytes dropped (and
/// noted).
struct FormatString {
    bytes: Vec<u8>,
    had_nul: bool,
}

impl FormatString {
    fn of(args: fmt::Arguments<'_>) -> FormatString {
        let mut text = FormatString {
            bytes: Vec::with_capacity(128),
            had_nul: false,
        };
        // A failing `Display` impl truncates the message; the log gets what was written until
        // then.
        let _ = fmt::write(&mut text, args);
        text
    }
}

impl fmt::Write for FormatString {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &byte in s.as_bytes() {
            match byte {
                b'%' => self.bytes.extend_from_slice(b"%%"),
                0 => self.had_nul = true,
                _ => self.bytes.push(byte),
            }
        }
        Ok(())
    }
}

/// Tells tools that track the heap (Memcheck, DHAT, Massif, Helgrind) that a custom allocator
/// handed out `size` bytes at `addr`, with `redzone` bytes of padding on each side; `is_zeroed`
/// marks the bytes defined.
#[inline(always)]
pub fn malloclike_block<T: ?Sized>(addr: *const T, size: usize, redzone: usize, is_zeroed: bool) {
    let args = [
        addr.cast::<u8>() as usize,
        size,
        redzone,
        usize::from(is_zeroed),
        0,
    ];
    send(code::MALLOCLIKE_BLOCK, args);
}

/// Tells the tools that a block announced with [`malloclike_block`] changed size in place.
#[inline(always)]
pub fn resizeinplace_block<T: ?Sized>(
    addr: *const T,
    old_size: usize,
    new_size: usize,
    redzone: usize,
) {
    let args = [addr.cast::<u8>() as usize, old_size, new_size, redzone, 0];
    send(code::RESIZEINPLACE_BLOCK, args);
}

/// Tells the tools that a block announced with [`malloclike_block`] was freed.
#[inline(always)]
pub fn freelike_block<T: ?Sized>(addr: *const T, redzone: usize) {
    send(
        code::FREELIKE_BLOCK,
        [addr.cast::<u8>() as usize, redzone, 0, 0, 0],
    );
}

/// Announces a memory pool anchored at `pool`, whose chunks have `redzone` bytes of padding.
#[inline(always)]
pub fn create_mempool<T: ?Sized>(pool: *const T, redzone: usize, is_zeroed: bool) {
    let args = [
        pool.cast::<u8>() as usize,
        redzone,
        usize::from(is_zeroed),
        0,
        0,
    ];
    send(code::CREATE_MEMPOOL, args);
}

/// Forgets the pool anchored at `pool` and all its chunks.
#[inline(always)]
pub fn destroy_mempool<T: ?Sized>(pool: *const T) {
    send(
        code::DESTROY_MEMPOOL,
        [pool.cast::<u8>() as usize, 0, 0, 0, 0],
    );
}

/// Records that the pool handed out `size` bytes at `addr`.
#[inline(always)]
pub fn mempool_alloc<P: ?Sized, T: ?Sized>(pool: *const P, addr: *const T, size: usize) {
    let args = [
        pool.cast::<u8>() as usize,
        addr.cast::<u8>() as usize,
        size,
        0,
        0,
    ];
    send(code::MEMPOOL_ALLOC, args);
}

/// Records that the chunk at `addr` went back to the pool.
#[inline(always)]
pub fn mempool_free<P: ?Sized, T: ?Sized>(pool: *const P, addr: *const T) {
    let args = [
        pool.cast::<u8>() as usize,
        addr.cast::<u8>() as usize,
        0,
        0,
        0,
    ];
    send(code::MEMPOOL_FREE, args);
}

/// Frees every chunk of the pool outside `[addr, addr + size)`.
#[inline(always)]
pub fn mempool_trim<P: ?Sized, T: ?Sized>(pool: *const P, addr: *const T, size: usize) {
    let args = [
        pool.cast::<u8>() as usize,
        addr.cast::<u8>() as usize,
        size,
        0,
        0,
    ];
    send(code::MEMPOOL_TRIM, args);
}

/// Records that the pool anchored at `from` is now anchored at `to`.
#[inline(always)]
pub fn move_mempool<A: ?Sized, B: ?Sized>(from: *const A, to: *const B) {
    let args = [
        from.cast::<u8>() as usize,
        to.cast::<u8>() as usize,
        0,
        0,
        0,
    ];
    send(code::MOVE_MEMPOOL, args);
}

/// Records that the chunk at `from` moved to `to` and now has `size` bytes.
#[inline(always)]
pub fn mempool_change<P: ?Sized, A: ?Sized, B: ?Sized>(
    pool: *const P,
    from: *const A,
    to: *const B,
    size: usize,
) {
    let args = [
        pool.cast::<u8>() as usize,
        from.cast::<u8>() as usize,
        to.cast::<u8>() as usize,
        size,
        0,
    ];
    send(code::MEMPOOL_CHANGE, args);
}

/// Whether a pool is anchored at `pool` (`false` natively).
#[inline(always)]
pub fn mempool_exists<T: ?Sized>(pool: *const T) -> bool {
    request(
        0,
        code::MEMPOOL_EXISTS,
        [pool.cast::<u8>() as usize, 0, 0, 0, 0],
    ) != 0
}

/// An address as the stack requests take it: a pointer (as benchgrind's own code passes it) or
/// a `usize` (as valgrind-requests code does).
pub trait Address {
    /// The address as a number.
    fn address(self) -> usize;
}

impl<T: ?Sized> Address for *const T {
    fn address(self) -> usize {
        self.cast::<u8>() as usize
    }
}

impl<T: ?Sized> Address for *mut T {
    fn address(self) -> usize {
        self.cast::<u8>() as usize
    }
}

impl Address for usize {
    fn address(self) -> usize {
        self
    }
}

/// Registers `[start, end)` as a stack (for programs that switch stacks: coroutines, green
/// threads) and returns its id for [`stack_change`] and [`stack_deregister`]; 0 natively.
#[inline(always)]
pub fn stack_register<A: Address, B: Address>(start: A, end: B) -> StackId {
    let args = [start.address(), end.address(), 0, 0, 0];
    request(0, code::STACK_REGISTER, args)
}

/// Forgets the stack `id` returned by [`stack_register`].
#[inline(always)]
pub fn stack_deregister(id: StackId) {
    send(code::STACK_DEREGISTER, [id, 0, 0, 0, 0]);
}

/// Moves the stack `id` to `[start, end)`.
#[inline(always)]
pub fn stack_change<A: Address, B: Address>(id: StackId, start: A, end: B) {
    send(
        code::STACK_CHANGE,
        [id, start.address(), end.address(), 0, 0],
    );
}

/// Stops this thread from reporting errors until the matching [`enable_error_reporting`];
/// calls nest.
#[inline(always)]
pub fn disable_error_reporting() {
    send(code::CHANGE_ERR_DISABLEMENT, [1, 0, 0, 0, 0]);
}

/// Undoes one [`disable_error_reporting`].
#[inline(always)]
pub fn enable_error_reporting() {
    send(code::CHANGE_ERR_DISABLEMENT, [usize::MAX, 0, 0, 0, 0]);
}
