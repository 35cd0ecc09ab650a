//! Linux perf as a tool beside Valgrind's (gungraun 0.20's `Perf`): hardware and software
//! counters of the benchmark's window, counted natively, sampled for a time budget, summed up
//! per metric (mean, spread, samples) and compared with the previous run or a baseline by
//! Welch's t-test, so that a soft limit fires only on a significant change.
//!
//! The counting is `perf_event_open` inside the bench process ([`counters`]), not the `perf`
//! program: the window's edges are two ioctls per counter, in the same place as Callgrind's
//! start and stop (outside Callgrind's window, so its counts do not move), where starting `perf
//! stat` and steering it over a control pipe costs a process and a round trip per window. Under
//! `--benchgrind-perf` the bench process samples ([`sampler`]); the harness reads the samples,
//! compares and reports ([`crate::harness`]'s perf step).

pub mod access;
pub mod samples;
pub mod stats;

#[cfg(perf_counters)]
pub mod counters;
#[cfg(perf_counters)]
pub mod sampler;

use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not sampling; 1: sampling, counters on in the benchmark function's window; 2: sampling,
/// counters on between `perf_enable!` and `perf_disable!` only.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether this platform counts with perf.
pub const SUPPORTED: bool = cfg!(perf_counters);

#[allow(dead_code)]
fn set_active(default_entry: bool) {
    STATE.store(if default_entry { 1 } else { 2 }, Ordering::Relaxed);
}

/// The window's edge (`true`: opens), called where Callgrind's window opens and closes: turns
/// the counters on and off when sampling with the default entry point.
#[inline]
pub fn window_edge(open: bool) {
    if STATE.load(Ordering::Relaxed) == 1 {
        switch(open);
    }
}

#[inline]
fn switch(on: bool) {
    #[cfg(perf_counters)]
    counters::switch(on);
    #[cfg(not(perf_counters))]
    let _ = on;
}

/// What [`enable`] returns and [`disable`] takes: the section it opened.
#[derive(Debug)]
#[must_use = "pass it to perf_disable!"]
pub struct PerfToken(());

/// `perf_enable!`: turns the counters on when the bench process samples perf (nothing under
/// Valgrind or outside a benchmark).
#[inline]
pub fn enable() -> PerfToken {
    if STATE.load(Ordering::Relaxed) != 0 {
        switch(true);
    }
    PerfToken(())
}

/// `perf_disable!`: turns them off again.
#[inline]
pub fn disable(token: PerfToken) {
    let PerfToken(()) = token;
    if STATE.load(Ordering::Relaxed) != 0 {
        switch(false);
    }
}

/// `perf_log!`: a line on the bench process's standard error (the benchmark's captured output,
/// shown with `--nocapture` or when it fails), prefixed `perf: `.
pub fn log(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "perf: {message}");
}

/// A time in nanoseconds as perf's reader would write it: `812 ns`, `3.412 µs`, `2.500 ms`,
/// `1.204 s`.
pub fn format_nanos(nanos: f64) -> String {
    let abs = nanos.abs();
    if abs < 1e3 {
        format!("{nanos:.0} ns")
    } else if abs < 1e6 {
        format!("{:.3} µs", nanos / 1e3)
    } else if abs < 1e9 {
        format!("{:.3} ms", nanos / 1e6)
    } else {
        format!("{:.3} s", nanos / 1e9)
    }
}
