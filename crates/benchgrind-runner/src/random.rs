//! Deterministic random bytes for the measured process, so that code seeded by the operating
//! system (`HashMap`'s `RandomState`, the `getrandom` crate, and everything built on them) runs
//! the same instructions on every run.
//!
//! The bench binary defines the C symbol `getrandom` itself. On Linux, std reaches its seeds
//! through a weak reference to that symbol and the `getrandom` crate (0.3, 0.4) looks it up with
//! `dlsym`; in both cases the definition in the executable wins over glibc's. Until [`enable`] is
//! called, the definition passes every request through to the kernel (`syscall(SYS_getrandom)`),
//! so the harness, test builds and ordinary runs draw real randomness. The measured process
//! calls [`enable`] with the seed from its command line before it runs any benchmark code; from
//! then on every request is served from a fixed stream derived from the seed.
//!
//! What this does not reach: reads of `/dev/urandom` or `/dev/random`, the `rdrand`/`rdseed`
//! instructions, raw `syscall(SYS_getrandom, ...)` (what the `getrandom` crate 0.2 does), glibc's
//! own internal calls (`arc4random`), and processes whose executable does not link this crate.
//! std itself draws nothing before `main` (measured: 0 calls), and then 16 bytes per thread for
//! the `RandomState` keys.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The environment variable that [`enable_from_env`] reads: a program under a binary benchmark
/// is started with it when its random bytes are to be deterministic.
pub const ENV: &str = crate::protocol::RANDOM_SEED_ENV;

pub use crate::config::DEFAULT_SEED;

static ENABLED: AtomicBool = AtomicBool::new(false);
static SEED: AtomicU64 = AtomicU64::new(DEFAULT_SEED);
/// The position in the stream of the next byte handed out.
static POSITION: AtomicU64 = AtomicU64::new(0);

/// How many bytes of the stream [`enable`] computes ahead: requests within them are a copy
/// (std draws 16 bytes per thread; a benchmark's own draws are rarely more than a few KiB).
const AHEAD: usize = 16 * 1024;

/// The first [`AHEAD`] bytes of the stream, written by [`enable`] before anything draws and
/// only read after it.
struct Ahead(std::cell::UnsafeCell<[u64; AHEAD / 8]>);

// SAFETY: written only by `enable`, which runs before the process draws (and before the
// benchmark starts threads); read-only afterwards.
unsafe impl Sync for Ahead {}

static STREAM_AHEAD: Ahead = Ahead(std::cell::UnsafeCell::new([0; AHEAD / 8]));

/// From now on, every `getrandom` request of this process returns bytes of the fixed stream of
/// `seed`, starting at its beginning.
///
/// Call it before anything draws: std caches its `HashMap` keys per thread after the first
/// `RandomState`, so keys drawn earlier stay random.
pub fn enable(seed: u64) {
    compute_ahead(seed);
    SEED.store(seed, Ordering::SeqCst);
    POSITION.store(0, Ordering::SeqCst);
    ENABLED.store(true, Ordering::SeqCst);
}

/// The seed whose stream [`STREAM_AHEAD`] holds, plus one (0: none yet).
static AHEAD_OF: AtomicU64 = AtomicU64::new(0);

/// Computes the first `AHEAD` bytes of the stream of `seed`, unless they are computed already:
/// the fork server computes the default seed's once before its first request, and every child
/// it forks finds them there (2,048 blocks that would otherwise run before each benchmark).
///
/// Call it, as [`enable`], before anything draws.
pub fn compute_ahead(seed: u64) {
    if AHEAD_OF.load(Ordering::SeqCst) == seed.wrapping_add(1) && seed != u64::MAX {
        return;
    }
    // SAFETY: nothing draws while the stream is computed (see above).
    let ahead = unsafe { &mut *STREAM_AHEAD.0.get() };
    for (index, word) in ahead.iter_mut().enumerate() {
        *word = block(seed, index as u64).to_le();
    }
    AHEAD_OF.store(seed.wrapping_add(1), Ordering::SeqCst);
}

/// Calls [`enable`] when the environment variable [`ENV`] holds a seed (a decimal `u64`), and
/// returns the seed; otherwise random bytes stay random.
///
/// For programs measured as binary benchmarks: make it the first statement of `main`.
///
/// ```rust
/// # extern crate benchgrind_runner as benchgrind;
/// fn main() {
///     benchgrind::random::enable_from_env();
///     // ... HashMap seeds are now fixed when BENCHGRIND_RANDOM_SEED is set
/// }
/// ```
pub fn enable_from_env() -> Option<u64> {
    let seed = std::env::var(ENV).ok()?.trim().parse().ok()?;
    enable(seed);
    Some(seed)
}

/// Whether requests are served from the fixed stream.
pub fn is_enabled() -> bool {
    ENABLED.load(Ordering::SeqCst)
}

/// The 64-bit block `index` of the stream of `seed`: SplitMix64's output function applied to the
/// `index + 1`-th step of its Weyl sequence, so any block can be computed without the ones before
/// it and threads can share the stream through one atomic position.
pub fn block(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Fills `out` with the bytes of the stream of `seed` that start at byte `start`, a block of 8
/// bytes at a time.
pub fn fill(seed: u64, start: u64, out: &mut [u8]) {
    let mut position = start;
    let mut rest = out;
    while !rest.is_empty() {
        let bytes = block(seed, position / 8).to_le_bytes();
        let from = (position % 8) as usize;
        let n = (8 - from).min(rest.len());
        rest[..n].copy_from_slice(&bytes[from..from + n]);
        rest = &mut rest[n..];
        position += n as u64;
    }
}

/// Hands out the next `len` bytes of the stream to `out`. Concurrent callers get disjoint
/// parts. Within the bytes computed ahead a request is one copy: 32 bytes (two `HashMap`s'
/// keys) cost about as many instructions as glibc's `getrandom` wrapper around the system call.
///
/// # Safety
///
/// `out` must be valid for writes of `len` bytes.
#[cfg(target_os = "linux")]
unsafe fn next_bytes(out: *mut u8, len: usize) {
    let start = POSITION.fetch_add(len as u64, Ordering::Relaxed);
    // SAFETY: the caller's contract.
    unsafe { bytes_at(out, len, start) }
}

/// Writes the `len` bytes of the stream that start at `start` to `out`.
///
/// # Safety
///
/// `out` must be valid for writes of `len` bytes.
#[cfg(target_os = "linux")]
#[inline(always)]
unsafe fn bytes_at(out: *mut u8, len: usize, start: u64) {
    if start.saturating_add(len as u64) <= AHEAD as u64 {
        // SAFETY: the source lies within the stream computed ahead (read-only now), the
        // destination is the caller's; the C library's `memcpy`, which costs the same whatever
        // the build's debug assertions (std's copy checks its arguments in a debug build).
        unsafe {
            let ahead = STREAM_AHEAD.0.get().cast::<u8>().add(start as usize);
            libc::memcpy(out.cast(), ahead.cast(), len);
        }
    } else {
        // SAFETY: the caller's contract.
        unsafe { beyond(out, len, start) }
    }
}

/// The bytes of a request that reaches past the stream computed ahead, a block at a time.
///
/// # Safety
///
/// `out` must be valid for writes of `len` bytes.
#[cfg(target_os = "linux")]
#[cold]
#[inline(never)]
unsafe fn beyond(out: *mut u8, len: usize, start: u64) {
    // SAFETY: the caller's contract.
    let out = unsafe { std::slice::from_raw_parts_mut(out, len) };
    fill(SEED.load(Ordering::Relaxed), start, out);
}

#[cfg(target_os = "linux")]
mod symbol {
    use std::sync::atomic::Ordering;

    use libc::{c_uint, c_void, size_t, ssize_t};

    const KNOWN_FLAGS: c_uint = libc::GRND_NONBLOCK | libc::GRND_RANDOM | libc::GRND_INSECURE;

    /// `getrandom(2)` for the whole executable (glibc's prototype). Passes through to the kernel
    /// until [`super::enable`]; then serves the fixed stream and never blocks or fails for a
    /// valid request.
    ///
    /// # Safety
    ///
    /// `buf` must be valid for writes of `buflen` bytes, as for glibc's `getrandom`.
    #[no_mangle]
    pub unsafe extern "C" fn getrandom(buf: *mut c_void, buflen: size_t, flags: c_uint) -> ssize_t {
        // The path of every draw in a benchmark, kept short: a request without flags within the
        // stream computed ahead is a position taken and one copy.
        if super::ENABLED.load(Ordering::Relaxed) && flags == 0 && buflen <= super::AHEAD {
            let start = super::POSITION.fetch_add(buflen as u64, Ordering::Relaxed);
            // SAFETY: the caller guarantees `buf` is valid for `buflen` bytes.
            unsafe { super::bytes_at(buf.cast::<u8>(), buflen, start) };
            return buflen as ssize_t;
        }
        // SAFETY: the caller's contract.
        unsafe { other(buf, buflen, flags) }
    }

    /// Every other request: before [`super::enable`] the kernel's, with flags checked, or
    /// longer than the stream computed ahead.
    ///
    /// # Safety
    ///
    /// As for [`getrandom`].
    #[cold]
    #[inline(never)]
    unsafe fn other(buf: *mut c_void, buflen: size_t, flags: c_uint) -> ssize_t {
        if !super::ENABLED.load(Ordering::SeqCst) {
            // SAFETY: the caller's contract is the system call's; errno is set by `syscall`.
            return unsafe { libc::syscall(libc::SYS_getrandom, buf, buflen, flags) as ssize_t };
        }
        let both = libc::GRND_RANDOM | libc::GRND_INSECURE;
        if flags & !KNOWN_FLAGS != 0 || flags & both == both {
            // SAFETY: errno is this thread's own variable.
            unsafe { *libc::__errno_location() = libc::EINVAL };
            return -1;
        }
        let len = buflen.min(isize::MAX as usize);
        // SAFETY: the caller guarantees `buf` is valid for `buflen >= len` bytes.
        unsafe { super::next_bytes(buf.cast::<u8>(), len) };
        len as ssize_t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_splitmix64() {
        // SplitMix64 seeded with 0: the published first outputs of the reference generator.
        assert_eq!(block(0, 0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(block(0, 1), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(block(0, 2), 0x06c4_5d18_8009_454f);
        assert_ne!(block(1, 0), block(0, 0));
    }

    #[test]
    fn the_stream_does_not_depend_on_how_it_is_cut() {
        let mut whole = [0u8; 37];
        fill(42, 0, &mut whole);
        for cut in [1, 7, 8, 9, 16, 30] {
            let (mut a, mut b) = (vec![0u8; cut], vec![0u8; 37 - cut]);
            fill(42, 0, &mut a);
            fill(42, cut as u64, &mut b);
            a.extend(b);
            assert_eq!(a, whole, "cut at {cut}");
        }
        let mut other = [0u8; 37];
        fill(43, 0, &mut other);
        assert_ne!(other, whole);
    }
}
