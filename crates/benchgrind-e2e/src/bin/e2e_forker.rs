//! `e2e_forker N`: forks a child that sums 0..N and exits, waits for it, and sums 0..N itself:
//! a process whose child does not exec, for the end-to-end tests of child processes.

use std::hint::black_box;

fn work(n: u64) -> u64 {
    (0..black_box(n)).fold(0u64, |s, i| black_box(s.wrapping_add(i)))
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    // SAFETY: the process is single-threaded; the child only computes and exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        black_box(work(n));
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(0) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    black_box(work(n));
}
