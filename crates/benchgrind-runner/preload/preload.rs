//! `libbenchgrind_preload.so`: deterministic random bytes for any dynamically linked program
//! that benchgrind measures without linking it (a binary benchmark's command and the processes
//! it starts, a suite's runner program), loaded with `LD_PRELOAD`.
//!
//! It defines glibc's `getrandom` and `getentropy`, which a program's (or its interpreter's)
//! calls then reach before glibc's: every request is served from the fixed stream of the seed in
//! `BENCHGRIND_RANDOM_SEED` (SplitMix64, as in the runner's `random` module; one position per
//! process, shared by its threads), so hash seeds and everything else drawn through them are the
//! same on every run. Without the variable, requests pass through to the kernel.
//!
//! With `BENCHGRIND_FIXED_CLOCK` set (`benchgrind suite measure --metric instructions`, where a
//! runner's time readings only decide how many instructions its own arithmetic and formatting
//! take), `clock_gettime`, `gettimeofday` and `time` read a clock of the process's own that
//! starts at a fixed time and advances by one microsecond per reading, so that the values, and
//! the instructions spent on them, are the same on every run.
//!
//! Built by the runner's build script with `rustc` alone (no_std, no dependencies), embedded in
//! the runner and written next to the benchmarks' files when a run needs it.

#![no_std]

use core::sync::atomic::{AtomicU64, Ordering};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

#[link(name = "c")]
extern "C" {
    fn getenv(name: *const u8) -> *const u8;
    fn syscall(number: i64, ...) -> i64;
    fn __errno_location() -> *mut i32;
}

const SYS_GETRANDOM: i64 = 318;
const SYS_CLOCK_GETTIME: i64 = 228;
const EIO: i32 = 5;

/// The position in the stream of the next byte handed out.
static POSITION: AtomicU64 = AtomicU64::new(0);

/// The seed from `BENCHGRIND_RANDOM_SEED`, or `None` to pass requests through.
fn seed() -> Option<u64> {
    // SAFETY: a NUL-terminated name; getenv returns null or a NUL-terminated string.
    let value = unsafe { getenv(b"BENCHGRIND_RANDOM_SEED\0".as_ptr()) };
    if value.is_null() {
        return None;
    }
    let mut seed = 0u64;
    let mut i = 0;
    loop {
        // SAFETY: within the NUL-terminated string.
        let b = unsafe { *value.add(i) };
        match b {
            0 if i > 0 => return Some(seed),
            b'0'..=b'9' => seed = seed.checked_mul(10)?.checked_add(u64::from(b - b'0'))?,
            _ => return None,
        }
        i += 1;
    }
}

/// Block `index` of the stream of `seed` (the runner's `random::block`).
fn block(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Fills `len` bytes at `buf` from the stream, or returns `false` to pass through.
///
/// # Safety
/// `buf` must be valid for `len` bytes of writes.
unsafe fn fill(buf: *mut u8, len: usize) -> bool {
    let Some(seed) = seed() else {
        return false;
    };
    let start = POSITION.fetch_add(len as u64, Ordering::SeqCst);
    for i in 0..len {
        let position = start + i as u64;
        *buf.add(i) = block(seed, position / 8).to_le_bytes()[(position % 8) as usize];
    }
    true
}

/// glibc's `getrandom(3)`.
///
/// # Safety
/// As glibc's: `buf` is valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn getrandom(buf: *mut u8, len: usize, flags: u32) -> isize {
    if fill(buf, len) {
        return len as isize;
    }
    let n = syscall(SYS_GETRANDOM, buf, len, flags);
    if n < 0 {
        *__errno_location() = -n as i32;
        return -1;
    }
    n as isize
}

/// Readings of the fixed clock so far.
static READINGS: AtomicU64 = AtomicU64::new(0);

/// Whether the clock is the fixed one (checked once).
fn fixed_clock() -> bool {
    static STATE: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            // SAFETY: a NUL-terminated name.
            let set = unsafe { !getenv(b"BENCHGRIND_FIXED_CLOCK\0".as_ptr()).is_null() };
            STATE.store(if set { 2 } else { 1 }, Ordering::Relaxed);
            set
        }
    }
}

/// The next reading of the fixed clock, in nanoseconds since the epoch (of 2020-09-13 for wall
/// clocks, 1000 s for the others).
fn next_reading(wall: bool) -> u64 {
    let base: u64 = if wall { 1_600_000_000 } else { 1_000 };
    base * 1_000_000_000 + READINGS.fetch_add(1, Ordering::SeqCst) * 1_000
}

#[repr(C)]
pub struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

#[repr(C)]
pub struct Timeval {
    tv_sec: i64,
    tv_usec: i64,
}

const CLOCK_REALTIME: i32 = 0;
const CLOCK_REALTIME_COARSE: i32 = 5;
const CLOCK_TAI: i32 = 11;

/// glibc's `clock_gettime(3)`.
///
/// # Safety
/// As glibc's: `tp` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32 {
    if fixed_clock() {
        let wall = matches!(clock, CLOCK_REALTIME | CLOCK_REALTIME_COARSE | CLOCK_TAI);
        let ns = next_reading(wall);
        (*tp).tv_sec = (ns / 1_000_000_000) as i64;
        (*tp).tv_nsec = (ns % 1_000_000_000) as i64;
        return 0;
    }
    let r = syscall(SYS_CLOCK_GETTIME, clock, tp);
    if r < 0 {
        *__errno_location() = -r as i32;
        return -1;
    }
    0
}

/// glibc's `gettimeofday(2)`.
///
/// # Safety
/// As glibc's: `tv`, if not null, is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn gettimeofday(tv: *mut Timeval, _tz: *mut u8) -> i32 {
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if clock_gettime(CLOCK_REALTIME, &mut ts) != 0 {
        return -1;
    }
    if !tv.is_null() {
        (*tv).tv_sec = ts.tv_sec;
        (*tv).tv_usec = ts.tv_nsec / 1000;
    }
    0
}

/// glibc's `time(2)`.
///
/// # Safety
/// As glibc's: `out`, if not null, is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn time(out: *mut i64) -> i64 {
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if clock_gettime(CLOCK_REALTIME, &mut ts) != 0 {
        return -1;
    }
    if !out.is_null() {
        *out = ts.tv_sec;
    }
    ts.tv_sec
}

/// glibc's `getentropy(3)`: at most 256 bytes.
///
/// # Safety
/// As glibc's: `buf` is valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn getentropy(buf: *mut u8, len: usize) -> i32 {
    if len > 256 {
        *__errno_location() = EIO;
        return -1;
    }
    let mut done = 0;
    while done < len {
        let n = getrandom(buf.add(done), len - done, 0);
        if n < 0 {
            return -1;
        }
        done += n as usize;
    }
    0
}
