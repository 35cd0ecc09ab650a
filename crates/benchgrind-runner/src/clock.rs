//! The wall clock of the measured process: a fixed instant that advances by a fixed step per
//! reading, so that code seeded or decided by the time of day runs the same instructions on
//! every run.
//!
//! foldhash (the default hasher of hashbrown 0.15 and later) mixes `SystemTime::now()` into its
//! seed: with the real time, a `foldhash::HashMap` of 64 keys collected and sorted counted 6,221,
//! 6,433 and 6,423 instructions on three runs. As [`crate::random`] does for `getrandom`, the
//! bench binary defines the C symbol `clock_gettime` itself (std reads both of its clocks
//! through it; the executable's definition wins over the C library's), and until [`fix`] every
//! reading passes through to the C library's own (glibc's, found with `dlsym`, which keeps its
//! fast path) or to the kernel.
//!
//! After [`fix`] (the measured process, before each benchmark's setup):
//! - the wall clocks (`CLOCK_REALTIME`, its coarse variant and `CLOCK_TAI`: `SystemTime`) read
//!   2020-09-13T12:26:40Z at first and one microsecond more at every reading, the clock of
//!   `benchgrind suite --metric instructions` too;
//! - the other clocks (`CLOCK_MONOTONIC` and the like: `Instant`) stay real. Timeouts, sleeps
//!   and waits compare them with the kernel's own clock (a condition variable's deadline, a
//!   runtime's timer against `epoll_wait`'s), which a clock that is not the time would break:
//!   one behind the time makes every deadline already past, one that advances by a step per
//!   reading turns a sleep until a deadline into millions of sleeps. Their readings go through
//!   `__benchgrind_real_clock` ([`REAL_CLOCK_SYMBOL`]), whose name in the profile tells the harness that the window
//!   read a clock that differs on every run (the benchmark says so).

/// The wall clock's first reading, in seconds since the epoch: 2020-09-13T12:26:40Z.
pub const WALL_START: u64 = 1_600_000_000;

/// What a reading of the wall clock advances it by, in nanoseconds.
pub const STEP_NS: u64 = 1_000;

#[cfg(target_os = "linux")]
mod symbol {
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};

    use libc::{c_int, timespec};

    /// [`super::WALL_START`] in nanoseconds (the module's own copy: it reads nothing of its
    /// parent, a test checks they agree).
    pub(super) const WALL_START_NS: u64 = 1_600_000_000 * 1_000_000_000;
    /// [`super::STEP_NS`] (see above).
    pub(super) const STEP_NS: u64 = 1_000;

    static FIXED: AtomicBool = AtomicBool::new(false);
    /// Readings of the wall clock since [`super::fix`].
    static READINGS: AtomicU64 = AtomicU64::new(0);

    type ClockGettime = unsafe extern "C" fn(c_int, *mut timespec) -> c_int;

    /// The C library's `clock_gettime`, where it can be found (glibc's, through the dynamic
    /// loader); null where it cannot (a static program), which then asks the kernel.
    static NEXT: AtomicPtr<libc::c_void> = AtomicPtr::new(std::ptr::null_mut());

    /// Looks the C library's `clock_gettime` up before `main`, so that no reading looks for it
    /// (a lookup inside a measured window would count, and allocate).
    #[cfg(target_env = "gnu")]
    extern "C" fn find_next() {
        // SAFETY: a NUL-terminated name; RTLD_NEXT finds the definition after the executable's.
        let next = unsafe { libc::dlsym(libc::RTLD_NEXT, c"clock_gettime".as_ptr()) };
        NEXT.store(next, Ordering::Relaxed);
    }

    #[cfg(target_env = "gnu")]
    #[used]
    #[link_section = ".init_array"]
    static FIND_NEXT: extern "C" fn() = find_next;

    pub(super) fn fix() {
        READINGS.store(0, Ordering::SeqCst);
        FIXED.store(true, Ordering::SeqCst);
    }

    pub(super) fn is_fixed() -> bool {
        FIXED.load(Ordering::Relaxed)
    }

    /// A reading of the real clock `clock`: the C library's, or the kernel's.
    ///
    /// # Safety
    ///
    /// `tp` must be valid for a write, as for `clock_gettime`.
    unsafe fn real(clock: c_int, tp: *mut timespec) -> c_int {
        let next = NEXT.load(Ordering::Relaxed);
        if !next.is_null() {
            // SAFETY: `next` is the C library's `clock_gettime`, with this signature.
            let next: ClockGettime = unsafe { std::mem::transmute(next) };
            // SAFETY: the caller's contract.
            return unsafe { next(clock, tp) };
        }
        // SAFETY: the system call's contract is the caller's; errno is set by `syscall`.
        let r = unsafe { libc::syscall(libc::SYS_clock_gettime, clock, tp) };
        if r < 0 {
            -1
        } else {
            0
        }
    }

    /// A real clock's reading inside the measured process, under its own name, so that a
    /// profile shows the window read a clock that differs on every run.
    ///
    /// # Safety
    ///
    /// `tp` must be valid for a write, as for `clock_gettime`.
    #[no_mangle]
    #[inline(never)]
    pub unsafe extern "C" fn __benchgrind_real_clock(clock: c_int, tp: *mut timespec) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { real(clock, tp) }
    }

    /// `clock_gettime(2)` for the whole executable: see the module's documentation.
    ///
    /// # Safety
    ///
    /// `tp` must be valid for a write, as for the C library's `clock_gettime`.
    #[no_mangle]
    pub unsafe extern "C" fn clock_gettime(clock: c_int, tp: *mut timespec) -> c_int {
        if !FIXED.load(Ordering::Relaxed) {
            // SAFETY: the caller's contract.
            return unsafe { real(clock, tp) };
        }
        let wall = matches!(
            clock,
            libc::CLOCK_REALTIME | libc::CLOCK_REALTIME_COARSE | libc::CLOCK_TAI
        );
        if !wall {
            // SAFETY: the caller's contract.
            return unsafe { __benchgrind_real_clock(clock, tp) };
        }
        if tp.is_null() {
            // SAFETY: errno is this thread's own variable.
            unsafe { *libc::__errno_location() = libc::EFAULT };
            return -1;
        }
        let ns = WALL_START_NS + READINGS.fetch_add(1, Ordering::Relaxed) * STEP_NS;
        // SAFETY: `tp` is valid for a write (the caller's contract) and not null.
        unsafe {
            (*tp).tv_sec = (ns / 1_000_000_000) as _;
            (*tp).tv_nsec = (ns % 1_000_000_000) as _;
        }
        0
    }
}

/// From now on this process's wall clock is the fixed one (see the module's documentation),
/// starting at [`WALL_START`].
pub fn fix() {
    #[cfg(target_os = "linux")]
    symbol::fix();
}

/// Whether the wall clock is the fixed one.
pub fn is_fixed() -> bool {
    #[cfg(target_os = "linux")]
    return symbol::is_fixed();
    #[cfg(not(target_os = "linux"))]
    false
}

/// The name under which the measured process reads a real clock ([`fix`]'s module).
pub const REAL_CLOCK_SYMBOL: &str = "__benchgrind_real_clock";

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

    #[test]
    fn the_fixed_clock_starts_and_steps_as_documented() {
        assert_eq!(
            super::symbol::WALL_START_NS,
            super::WALL_START * 1_000_000_000
        );
        assert_eq!(super::symbol::STEP_NS, super::STEP_NS);
    }

    #[test]
    fn until_fixed_both_clocks_are_real() {
        let wall = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        // Written after 2026: the real time, not the fixed instant of 2020.
        assert!(wall > Duration::from_secs(super::WALL_START + 86_400 * 365 * 5));
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(2));
        assert!(start.elapsed() >= Duration::from_millis(2));
    }
}
