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

/// From now on, every `getrandom` request of this process returns bytes of the fixed stream of
/// `seed`, starting at its beginning.
///
/// Call it before anything draws: std caches its `HashMap` keys per thread after the first
/// `RandomState`, so keys drawn earlier stay random.
pub fn enable(seed: u64) {
    SEED.store(seed, Ordering::SeqCst);
    POSITION.store(0, Ordering::SeqCst);
    ENABLED.store(true, Ordering::SeqCst);
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

/// Fills `out` with the bytes of the stream of `seed` that start at byte `start`.
pub fn fill(seed: u64, start: u64, out: &mut [u8]) {
    for (position, byte) in (start..).zip(out) {
        *byte = block(seed, position / 8).to_le_bytes()[(position % 8) as usize];
    }
}

/// Hands out the next `out.len()` bytes of the stream. Concurrent callers get disjoint parts.
#[cfg(target_os = "linux")]
fn next_bytes(out: &mut [u8]) {
    let start = POSITION.fetch_add(out.len() as u64, Ordering::SeqCst);
    fill(SEED.load(Ordering::SeqCst), start, out);
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
        if len > 0 {
            // SAFETY: the caller guarantees `buf` is valid for `buflen >= len` bytes.
            let out = unsafe { std::slice::from_raw_parts_mut(buf.cast::<u8>(), len) };
            super::next_bytes(out);
        }
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
