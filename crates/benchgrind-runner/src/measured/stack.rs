//! Where the measured process's benchmarks run on the stack, and how it reads its arguments:
//! neither may depend on where the bench binary is.
//!
//! What a process starts with sits at the top of its stack: the strings of its arguments
//! (the bench binary's path first), its environment and the auxiliary vector's (the path once
//! more, `AT_EXECFN`), with their pointers below them. A checkout at a longer path therefore
//! starts `main` lower on the stack, and every frame of every benchmark with it: the alignment of
//! stack buffers that `memcpy` and vector loops follow, the cache sets of the simulated caches,
//! the addresses that hashers seeded from a stack address (foldhash) mix in all moved, and the
//! counts with them (regex_find of the portable package, built for musl, counted 814,659 to
//! 924,615 instructions from bench-binary paths of 10 to 98 bytes).
//!
//! So the measured process runs its benchmarks at a fixed depth below the top of its stack
//! ([`run_at_fixed_depth`]): the top is a fixed address (with ASLR off, the kernel's and each
//! Valgrind's own), found from the strings that sit just below it, and the frames of the fork
//! server and of every benchmark start [`DEPTH`] bytes below it, whatever the strings above
//! take. And it reads its arguments where the kernel left them ([`capture`]), not through
//! `std::env::args_os`, which copies them to the heap in blocks as long as they are: the
//! allocator's state, and with it every later block's address, would follow the path too.

use std::ffi::{c_char, CStr};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// How far below the top of the stack the fork server's and the benchmarks' frames start. The
/// strings, pointers and `main`'s own frames above take a few KiB (the environment is that of
/// the benchmark's configuration); a process whose start takes more runs where it is
/// ([`run_at_fixed_depth`]).
pub const DEPTH: usize = 256 * 1024;

/// argc and argv as the kernel laid them out, captured before `main` (see [`capture`]).
static ARGC: AtomicUsize = AtomicUsize::new(0);
static ARGV: AtomicPtr<*const c_char> = AtomicPtr::new(std::ptr::null_mut());
/// The top of the stack, found as the arguments are captured (before the environment moves).
static TOP: AtomicUsize = AtomicUsize::new(0);

extern "C" {
    static mut environ: *mut *mut c_char;
}

/// Reads argc and argv from below the environment's pointers: the kernel (and Valgrind, for
/// the programs it runs) lays out `argc`, `argv[0..argc]`, a null pointer, then `envp`, and the
/// C library points `environ` at `envp` before it runs `.init_array`. Walking down from
/// `envp[-2]`, the first word equal to the number of words passed is `argc` (an argument's
/// pointer is never that small). Both C libraries of Linux run this; glibc would also pass
/// argc and argv as arguments, musl passes nothing.
#[cfg(target_os = "linux")]
extern "C" fn capture() {
    #[cfg(target_os = "linux")]
    let _ = auxv();
    // SAFETY: `environ` is the initial `envp` at this point (nothing has set a variable yet), a
    // pointer into the block the kernel laid out; every word read lies between argc's and
    // envp's, inside that block, as long as the walk stops at argc (at most the limit).
    unsafe {
        let envp = *std::ptr::addr_of!(environ) as *const usize;
        if envp.is_null() {
            return;
        }
        // envp[-1] is argv's terminating null.
        if *envp.sub(1) != 0 {
            return;
        }
        for n in 0..65_536usize {
            let word = *envp.sub(n + 2);
            if word == n {
                ARGC.store(n, Ordering::Relaxed);
                ARGV.store(envp.sub(n + 1) as *mut *const c_char, Ordering::Relaxed);
                TOP.store(top().unwrap_or(0), Ordering::Relaxed);
                return;
            }
            if word < 4096 {
                // Not a pointer, and not the count: not the layout expected.
                return;
            }
        }
    }
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static CAPTURE: extern "C" fn() = capture;

/// How many entries of the auxiliary vector [`auxv`] keeps (the kernel gives about 20).
const AUXV_ENTRIES: usize = 64;

/// A copy of the auxiliary vector, made once in the program's data: `(type, value)` pairs up to
/// `AT_NULL`.
struct Auxv(std::cell::UnsafeCell<[(usize, usize); AUXV_ENTRIES]>);

// SAFETY: written once, by the first caller of `auxv` (the start of the process, before it
// runs threads), and only read afterwards.
unsafe impl Sync for Auxv {}

static AUXV: Auxv = Auxv(std::cell::UnsafeCell::new([(0, 0); AUXV_ENTRIES]));
/// 0: not copied yet, 1: copied, 2: not found.
static AUXV_STATE: AtomicUsize = AtomicUsize::new(0);

/// The copy of the auxiliary vector, made on first use from where the kernel put it (after the
/// environment's pointers, which `environ` points at until [`settle_environment`] moves them:
/// [`capture`] makes the copy first).
#[cfg(target_os = "linux")]
fn auxv() -> Option<&'static [(usize, usize); AUXV_ENTRIES]> {
    if AUXV_STATE.load(Ordering::Acquire) == 0 {
        // SAFETY: the start of the process (see `Auxv`); `environ` is the kernel's `envp`, a
        // null-terminated array followed by the auxiliary vector, ended by `AT_NULL`.
        unsafe {
            let mut entry = *std::ptr::addr_of!(environ) as *const usize;
            let copy = &mut *AUXV.0.get();
            let mut state = 2;
            if !entry.is_null() {
                while *entry != 0 {
                    entry = entry.add(1);
                }
                let mut pair = entry.add(1);
                for slot in copy.iter_mut() {
                    *slot = (*pair, *pair.add(1));
                    if *pair == 0 {
                        state = 1;
                        break;
                    }
                    pair = pair.add(2);
                }
            }
            AUXV_STATE.store(state, Ordering::Release);
        }
    }
    // SAFETY: written above, read-only from now on.
    (AUXV_STATE.load(Ordering::Acquire) == 1).then(|| unsafe { &*AUXV.0.get() })
}

/// `getauxval(3)` for the whole executable, from the copy of the auxiliary vector in the
/// program's data ([`auxv`]): the vector itself sits below the environment at the top of the
/// stack, where the length of the bench binary's path moves it, and std reads it as each thread
/// starts (`AT_MINSIGSTKSZ`, for the signal stack), so a benchmark that starts a thread would
/// touch other cache lines from another path.
///
/// # Safety
///
/// Safe to call at any time, as the C library's.
#[cfg(target_os = "linux")]
#[no_mangle]
pub unsafe extern "C" fn getauxval(kind: libc::c_ulong) -> libc::c_ulong {
    if let Some(entries) = auxv() {
        for &(key, value) in entries.iter() {
            if key == 0 {
                break;
            }
            if key == kind as usize {
                return value as libc::c_ulong;
            }
        }
    }
    // SAFETY: errno is this thread's own variable.
    unsafe { *libc::__errno_location() = libc::ENOENT };
    0
}

/// Whether the arguments were captured.
pub fn captured() -> bool {
    !ARGV.load(Ordering::Relaxed).is_null()
}

/// Argument `i` (0 is the program) without allocating, if captured and present.
pub fn arg(i: usize) -> Option<&'static [u8]> {
    let argv = ARGV.load(Ordering::Relaxed);
    if argv.is_null() || i >= ARGC.load(Ordering::Relaxed) {
        return None;
    }
    // SAFETY: argv has argc valid, NUL-terminated entries that live as long as the process.
    unsafe {
        let ptr = *argv.add(i);
        (!ptr.is_null()).then(|| CStr::from_ptr(ptr).to_bytes())
    }
}

/// Room for the environment moved by [`settle_environment`]: its strings, each at the start of
/// a cache line.
const ENV_ROOM: usize = 64 * 1024;
/// Room for the environment's pointers.
const ENV_ENTRIES: usize = 1024;

#[repr(C, align(64))]
struct Environment {
    strings: [u8; ENV_ROOM],
    pointers: [*mut c_char; ENV_ENTRIES],
}

struct Settled(std::cell::UnsafeCell<Environment>);

// SAFETY: written once by `settle_environment`, in the single-threaded start of the measured
// process, before anything reads the environment through it.
unsafe impl Sync for Settled {}

static SETTLED: Settled = Settled(std::cell::UnsafeCell::new(Environment {
    strings: [0; ENV_ROOM],
    pointers: [std::ptr::null_mut(); ENV_ENTRIES],
}));

/// Moves the environment's strings from the top of the stack, where they follow the length of
/// the bench binary's path, to a fixed place in the program's data, each at the start of a cache
/// line: a benchmark that reads a variable (`getenv` compares it with every entry; std reads
/// `RUST_MIN_STACK` as it starts the first thread) then touches the same addresses and cache
/// lines wherever the bench binary is. An environment too large for the room stays where it is.
/// `LD_BIND_NOW`, when the harness added it ([`crate::protocol::BIND_NOW_ADDED_ENV`]), is left
/// out of the copy with its marker: the dynamic loader read it already.
pub fn settle_environment() {
    // SAFETY: single-threaded start of the measured process: nothing else reads or writes the
    // environment meanwhile; `SETTLED` is written only here, and `environ` is pointed at it
    // only once it holds a complete, null-terminated copy.
    unsafe {
        let settled = &mut *SETTLED.0.get();
        let mut entry = *std::ptr::addr_of!(environ);
        if entry.is_null() {
            return;
        }
        let added = bind_now_added(entry);
        let mut at = 0usize;
        let mut n = 0usize;
        while !(*entry).is_null() {
            let bytes = CStr::from_ptr(*entry).to_bytes_with_nul();
            if added && is_bind_now(bytes) {
                entry = entry.add(1);
                continue;
            }
            if n + 1 >= ENV_ENTRIES || at + bytes.len() > ENV_ROOM {
                return;
            }
            settled.strings[at..at + bytes.len()].copy_from_slice(bytes);
            settled.pointers[n] = settled.strings.as_mut_ptr().add(at).cast();
            at = (at + bytes.len() + 63) & !63;
            n += 1;
            entry = entry.add(1);
        }
        settled.pointers[n] = std::ptr::null_mut();
        *std::ptr::addr_of_mut!(environ) = settled.pointers.as_mut_ptr();
    }
}

/// Whether the harness added the dynamic loader's `LD_BIND_NOW` to the environment starting at
/// `entry` (see [`crate::protocol::BIND_NOW_ADDED_ENV`]).
///
/// # Safety
/// `entry` is a null-terminated array of NUL-terminated strings.
unsafe fn bind_now_added(mut entry: *const *mut c_char) -> bool {
    let marker = crate::protocol::BIND_NOW_ADDED_ENV.as_bytes();
    while !(*entry).is_null() {
        let bytes = CStr::from_ptr(*entry).to_bytes();
        if bytes.len() > marker.len() && bytes.starts_with(marker) && bytes[marker.len()] == b'=' {
            return true;
        }
        entry = entry.add(1);
    }
    false
}

/// Whether the environment entry `bytes` (`NAME=value`) is `LD_BIND_NOW` or the harness's
/// marker of having added it: neither is the benchmark's.
fn is_bind_now(bytes: &[u8]) -> bool {
    [
        crate::protocol::BIND_NOW_ENV,
        crate::protocol::BIND_NOW_ADDED_ENV,
    ]
    .iter()
    .any(|name| bytes.starts_with(name.as_bytes()) && bytes.get(name.len()) == Some(&b'='))
}

/// The top of the stack: the page boundary just above the highest of the strings the process
/// started with (its arguments and environment), which sit right below it; `None` where the
/// arguments were not captured.
fn top() -> Option<usize> {
    let mut highest = 0usize;
    let mut note = |s: *const c_char| {
        if !s.is_null() {
            // SAFETY: every pointer given is one of the process's NUL-terminated start strings.
            let len = unsafe { CStr::from_ptr(s) }.to_bytes().len();
            highest = highest.max(s as usize + len + 1);
        }
    };
    let argv = ARGV.load(Ordering::Relaxed);
    if argv.is_null() {
        return None;
    }
    for i in 0..ARGC.load(Ordering::Relaxed) {
        // SAFETY: argv has argc entries.
        note(unsafe { *argv.add(i) });
    }
    // SAFETY: the environment is a null-terminated array; only its strings' ends are read.
    unsafe {
        let mut entry = *std::ptr::addr_of!(environ);
        while !entry.is_null() && !(*entry).is_null() {
            note(*entry);
            entry = entry.add(1);
        }
    }
    #[cfg(target_os = "linux")]
    note(
        // SAFETY: getauxval only reads the auxiliary vector.
        unsafe { libc::getauxval(libc::AT_EXECFN) } as *const c_char,
    );
    Some((highest + 4095) & !4095)
}

/// Runs `f(data)` with its frames [`DEPTH`] bytes below the top of the stack, never to return
/// (the fork server and a single run both end the process). Where the top is not known, the
/// architecture has no switch here or the process's start took more than the depth, `f` runs
/// where it is.
pub fn run_at_fixed_depth(f: extern "C" fn(*mut u8) -> !, data: *mut u8) -> ! {
    let here = {
        let marker = 0u8;
        std::hint::black_box(&marker) as *const u8 as usize
    };
    // 64 KiB of margin below this frame for what runs between here and the switch.
    let top = Some(TOP.load(Ordering::Relaxed)).filter(|&top| top > DEPTH);
    if let Some(sp) = top
        .map(|top| top - DEPTH)
        .filter(|&sp| sp + 64 * 1024 < here)
    {
        // SAFETY: `sp` lies inside the main thread's stack (below every live frame, above its
        // limit: the stack is 8 MiB unless lowered, the depth 256 KiB) and is 16-byte aligned;
        // `f` never returns, so nothing runs on the abandoned frames again.
        unsafe { switch(sp, f, data) }
    }
    f(data)
}

/// Jumps to `f(data)` with the stack pointer at `sp` and a null return address (where an
/// unwinder or a backtrace stops, as at the process's first frame).
///
/// # Safety
///
/// `sp` must be 16-byte aligned, inside the current thread's stack and below every live frame.
#[cfg(target_arch = "x86_64")]
unsafe fn switch(sp: usize, f: extern "C" fn(*mut u8) -> !, data: *mut u8) -> ! {
    // SAFETY: as the caller guarantees; `f` follows the C ABI and sees an aligned stack with a
    // (null) return address pushed, as after a call.
    unsafe {
        std::arch::asm!(
            "mov rsp, {sp}",
            "xor ebp, ebp",
            "push rbp",
            "jmp {f}",
            sp = in(reg) sp,
            f = in(reg) f,
            in("rdi") data,
            options(noreturn),
        )
    }
}

/// See the other `switch`.
#[cfg(target_arch = "aarch64")]
unsafe fn switch(sp: usize, f: extern "C" fn(*mut u8) -> !, data: *mut u8) -> ! {
    // SAFETY: as the caller guarantees; a null link register and frame pointer end the chain.
    unsafe {
        std::arch::asm!(
            "mov sp, x10",
            "mov x29, xzr",
            "mov x30, xzr",
            "br x9",
            in("x10") sp,
            in("x9") f,
            in("x0") data,
            options(noreturn),
        )
    }
}

/// Elsewhere the frames stay where they are.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
unsafe fn switch(_sp: usize, f: extern "C" fn(*mut u8) -> !, data: *mut u8) -> ! {
    f(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_are_found_below_the_environment() {
        assert!(captured());
        let ours: Vec<Vec<u8>> = std::env::args_os()
            .map(|a| a.into_encoded_bytes())
            .collect();
        let found: Vec<Vec<u8>> = (0..ours.len()).map(|i| arg(i).unwrap().to_vec()).collect();
        assert_eq!(found, ours);
        assert_eq!(arg(ours.len()), None);
    }

    #[test]
    fn the_top_is_a_page_above_this_frame() {
        let top = TOP.load(Ordering::Relaxed);
        assert_eq!(Some(top), super::top());
        let here = &top as *const usize as usize;
        assert_eq!(top % 4096, 0);
        assert!(top > here);
    }
}
