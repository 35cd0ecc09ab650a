//! What the machine does besides the run, as the harness and `suite` find it: whether the
//! kernel's memory monitor DAMON runs, and how much the machine read from its disks. Read from
//! `/sys` and `/proc`; a machine that does not say answers "no" and "unknown".

use std::path::PathBuf;

/// What a benchmark of several processes says where the kernel's memory monitor (DAMON) runs.
pub const DAMON_ON: &str = "it ran several processes while the kernel's memory monitor DAMON \
was on, whose page checks now and then make one of them wait, so that the others take their \
turns at another point; it was measured until two runs in a row counted the same, but its \
counts may still move (a bash wrapper of Python counted 120 instructions more in 5 of 22 such \
results, in none of 15 with DAMON off). To count exactly, turn it off: \
`echo off | sudo tee /sys/kernel/mm/damon/admin/kdamonds/*/state`";

/// Whether a DAMON monitor runs (`/sys/kernel/mm/damon/admin/kdamonds/N/state` is `on`); read
/// once.
pub fn damon_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !running_damons().is_empty())
}

/// The `state` files of the DAMON monitors that run now (`kdamonds/N/state` reads `on`), read
/// afresh on every call ([`damon_on`] keeps its first answer).
pub fn running_damons() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir("/sys/kernel/mm/damon/admin/kdamonds") else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path().join("state"))
        .filter(|state| std::fs::read_to_string(state).is_ok_and(|s| s.trim() == "on"))
        .collect()
}

/// The blocks the machine has read from its disks since it started (`pgpgin` of `/proc/vmstat`,
/// in KiB), where it says.
pub fn machine_reads() -> Option<u64> {
    let vmstat = std::fs::read_to_string("/proc/vmstat").ok()?;
    let line = vmstat.lines().find_map(|l| l.strip_prefix("pgpgin "))?;
    line.trim().parse().ok()
}
