//! The measured window: what the generated code calls around a benchmark's body.
//!
//! On x86_64 and aarch64 the window is bracketed with client requests that start and stop
//! Callgrind's instrumentation: it starts after setup (which also empties the simulated caches,
//! so every body starts cold) and stops after the body. Instrumentation is the process's, not a
//! thread's (collection is each thread's own, and on from each thread's start), so every thread
//! that runs while the window is open is counted: threads the body spawns and threads that
//! already existed (a pool built in setup). Elsewhere the body runs inside
//! [`__benchgrind_measured`], the symbol ([`crate::protocol::FALLBACK_SYMBOL`]) that the runner
//! passes to `--toggle-collect`.
//!
//! Under DHAT only, a ballast block is allocated right before the window opens and freed right
//! after it closes (`set_ballast`), so that DHAT's global peak falls inside the window; under
//! Callgrind there is none, and the window's instructions are the same as without it.

use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use crate::client_request::{cachegrind, callgrind, request_static, valgrind, SUPPORTED};

/// A request block in writable memory: its code can be switched before any request is sent.
struct Block(UnsafeCell<[usize; 6]>);

// SAFETY: written only by `not_callgrind` or `cachegrind`, one of which the measured process
// calls once, before any
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
static STOP_INSTRUMENTATION: Block = Block::new(callgrind::STOP_INSTRUMENTATION);

/// Under another tool than Callgrind the window's requests become Valgrind's own "running on
/// Valgrind?" request, which the core answers and every tool ignores: no "unknown client
/// request" in the tool's log, and not one instruction more in the window, since only the code
/// in the request block changes. Call before any benchmark runs.
pub(crate) fn not_callgrind() {
    for block in [&START_INSTRUMENTATION, &STOP_INSTRUMENTATION] {
        // SAFETY: see `Block`: the process is single-threaded and no request was sent yet.
        unsafe { (*block.0.get())[0] = valgrind::RUNNING_ON_VALGRIND };
    }
}

/// Under Cachegrind of Valgrind 3.22 or newer, started uninstrumented: the window's requests
/// become Cachegrind's own start and stop, so that it counts the benchmark as Callgrind does.
/// Call before any benchmark runs.
pub(crate) fn cachegrind() {
    let codes = [
        (&START_INSTRUMENTATION, cachegrind::START_INSTRUMENTATION),
        (&STOP_INSTRUMENTATION, cachegrind::STOP_INSTRUMENTATION),
    ];
    for (block, code) in codes {
        // SAFETY: see `Block`: the process is single-threaded and no request was sent yet.
        unsafe { (*block.0.get())[0] = code };
    }
}

/// The ballast's size in bytes, 0 (the default, and always under Callgrind) for none.
static BALLAST: AtomicU64 = AtomicU64::new(0);

/// Under DHAT: hold a block of `bytes` across every window (see
/// [`crate::protocol::DHAT_BALLAST_ENV`]). Call before any benchmark runs.
pub(crate) fn set_ballast(bytes: u64) {
    BALLAST.store(bytes, Ordering::Relaxed);
}

/// The ballast block while a window is open (null when there is none).
static BALLAST_BLOCK: AtomicPtr<libc::c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Allocates the ballast, if any, with the C allocator (which DHAT replaces, whatever the
/// program's global allocator). Outside the window, so Callgrind never counts it; it takes and
/// returns nothing, so that no value lives across the window because of it.
extern "C" fn ballast_open() {
    let bytes = BALLAST.load(Ordering::Relaxed);
    if bytes != 0 {
        BALLAST_BLOCK.store(__benchgrind_ballast(bytes as usize), Ordering::Relaxed);
    }
    // perf's counters open last, right before the window (outside Callgrind's).
    crate::perf::window_edge(true);
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
extern "C" fn ballast_close() {
    crate::perf::window_edge(false);
    let block = BALLAST_BLOCK.swap(std::ptr::null_mut(), Ordering::Relaxed);
    if !block.is_null() {
        // SAFETY: `block` came from malloc in `ballast_open` and is freed once.
        unsafe { libc::free(block) };
    }
}

// On x86_64 Linux the window calls the ballast functions through trampolines that keep every
// general-purpose and SSE register: to the compiler the call is an `asm!` block that changes
// nothing but the flags and memory, so the code it generates inside the window is the same as
// without a ballast (a plain call would clobber registers, and a value such as the benchmark's
// argument could then be moved into place inside the window: one instruction more).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
std::arch::global_asm!(
    ".pushsection .text.__benchgrind_keep_registers,\"ax\",@progbits",
    ".globl __benchgrind_ballast_open_kept",
    ".hidden __benchgrind_ballast_open_kept",
    ".globl __benchgrind_ballast_close_kept",
    ".hidden __benchgrind_ballast_close_kept",
    ".p2align 4",
    "__benchgrind_ballast_open_kept:",
    "lea r11, [rip + {open}]",
    "jmp 2f",
    ".p2align 4",
    "__benchgrind_ballast_close_kept:",
    "lea r11, [rip + {close}]",
    "jmp 2f",
    // Entered with rsp = 8 mod 16 and r11 saved by the caller's `asm!` (declared clobbered);
    // 8 pushes and 256 bytes keep rsp = 8 mod 16, and the return address' 8 more align the call.
    "2:",
    "push rax", "push rcx", "push rdx", "push rsi", "push rdi", "push r8", "push r9", "push r10",
    "sub rsp, 264",
    "movdqu [rsp], xmm0", "movdqu [rsp + 16], xmm1", "movdqu [rsp + 32], xmm2",
    "movdqu [rsp + 48], xmm3", "movdqu [rsp + 64], xmm4", "movdqu [rsp + 80], xmm5",
    "movdqu [rsp + 96], xmm6", "movdqu [rsp + 112], xmm7", "movdqu [rsp + 128], xmm8",
    "movdqu [rsp + 144], xmm9", "movdqu [rsp + 160], xmm10", "movdqu [rsp + 176], xmm11",
    "movdqu [rsp + 192], xmm12", "movdqu [rsp + 208], xmm13", "movdqu [rsp + 224], xmm14",
    "movdqu [rsp + 240], xmm15",
    "call r11",
    "movdqu xmm0, [rsp]", "movdqu xmm1, [rsp + 16]", "movdqu xmm2, [rsp + 32]",
    "movdqu xmm3, [rsp + 48]", "movdqu xmm4, [rsp + 64]", "movdqu xmm5, [rsp + 80]",
    "movdqu xmm6, [rsp + 96]", "movdqu xmm7, [rsp + 112]", "movdqu xmm8, [rsp + 128]",
    "movdqu xmm9, [rsp + 144]", "movdqu xmm10, [rsp + 160]", "movdqu xmm11, [rsp + 176]",
    "movdqu xmm12, [rsp + 192]", "movdqu xmm13, [rsp + 208]", "movdqu xmm14, [rsp + 224]",
    "movdqu xmm15, [rsp + 240]",
    "add rsp, 264",
    "pop r10", "pop r9", "pop r8", "pop rdi", "pop rsi", "pop rdx", "pop rcx", "pop rax",
    "ret",
    ".popsection",
    open = sym ballast_open,
    close = sym ballast_close,
);

/// Opens (`true`) or closes the ballast without disturbing the registers the window uses.
#[inline(always)]
fn ballast(open: bool) {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    // SAFETY: the trampolines keep every register but r11 (declared) and the flags, run on the
    // stack, which `asm!` without `nostack` leaves aligned for a call and free of a red zone.
    unsafe {
        if open {
            std::arch::asm!("call __benchgrind_ballast_open_kept", out("r11") _);
        } else {
            std::arch::asm!("call __benchgrind_ballast_close_kept", out("r11") _);
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    if open {
        ballast_open()
    } else {
        ballast_close()
    }
}

thread_local! {
    /// Set by [`armed`] right before a bench calls its benchmark function, taken by the
    /// [`window`] that the function's body runs in: so only that call opens the window, not a
    /// call of the same function from elsewhere (a test, another benchmark, itself when it
    /// recurses, another thread that setup started).
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

/// Calls `call` (a bench's call of its `#[library_benchmark]` function) with the window armed:
/// the function opens the window around its own body, after its arguments are in place.
#[inline(always)]
pub fn armed<R>(call: impl FnOnce() -> R) -> R {
    ARMED.set(true);
    let out = call();
    ARMED.set(false);
    out
}

/// The body of every `#[library_benchmark]` function: measured (see [`measure`]) when a bench
/// armed the window for this call, else run as written. The body is inlined here (the macro
/// marks its closure `#[inline(always)]`), so the measured code is the function's own, with its
/// arguments where the caller put them.
#[inline(always)]
pub fn window<R>(body: impl FnOnce() -> R) -> R {
    if ARMED.replace(false) {
        bracket(body, true)
    } else {
        unarmed(body)
    }
}

/// The body when no bench armed the window: out of line, so that the optimizer has no second
/// copy of the body to merge with the measured one across the window's edges.
#[inline(never)]
fn unarmed<R>(body: impl FnOnce() -> R) -> R {
    body()
}

/// Ends the window's last basic block before the closing request, with `out` in memory when
/// `pin` (a body inlined into the window; not needed after an opaque call, whose result exists
/// when it returns).
///
/// With the cache simulation on, Callgrind does not count the instructions of the basic block
/// that ends with the request that stops collecting (measured: a body inlined into the window
/// counted 0 instructions), so the body's last block has to end here, with a jump to the next
/// instruction (Callgrind keeps Valgrind from following jumps within a block). And an inlined
/// body's result has to be computed before it: without `out`'s address in the `asm!`, the
/// optimizer computed `a ^ b` after the window. Costs the jump, and a store and its address for
/// a result held in registers.
#[inline(always)]
fn seal<T>(out: &T, pin: bool) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a jump to the next instruction; `out` is only named, never read or written.
    unsafe {
        if pin {
            std::arch::asm!("jmp 2f", "2:", "/* {0} */", in(reg) out, options(nostack));
        } else {
            std::arch::asm!("jmp 2f", "2:", options(nostack));
        }
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as on x86_64.
    unsafe {
        if pin {
            std::arch::asm!("b 2f", "2:", "/* {0} */", in(reg) out, options(nostack));
        } else {
            std::arch::asm!("b 2f", "2:", options(nostack));
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    if pin {
        std::hint::black_box(out);
    }
}

/// Runs `body`, a call of a function that is never inlined (through a `black_box`ed pointer
/// where its type can be written), inside the measured window and returns its result: for
/// `const fn` benchmarks and iai's plain functions, which cannot open the window themselves.
#[inline(always)]
pub fn measure<R>(body: impl FnOnce() -> R) -> R {
    bracket(body, false)
}

/// The window around `body`; `pin`: see [`seal`].
#[inline(always)]
fn bracket<R>(body: impl FnOnce() -> R, pin: bool) -> R {
    if SUPPORTED {
        ballast(true);
        request_static(0, START_INSTRUMENTATION.get());
        let out = body();
        seal(&out, pin);
        request_static(0, STOP_INSTRUMENTATION.get());
        ballast(false);
        out
    } else {
        let mut body = Some(body);
        let mut out = None;
        ballast_open();
        __benchgrind_measured(&mut || out = body.take().map(|b| b()));
        ballast_close();
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
