//! What the kernel lets this user count with perf.

/// The value of `/proc/sys/kernel/perf_event_paranoid`, if readable: 2 (most distributions)
/// lets users count their own processes in user space, 1 the kernel too; higher refuses more.
pub fn paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}
