//! Threads that take turns the same way on every run: each measured process runs on one
//! processor under the real-time policy `SCHED_FIFO`.
//!
//! Valgrind runs one thread of a process at a time; which thread runs next is decided when the
//! running one gives up Valgrind's lock, mostly in a system call (a futex wait or wake, a yield),
//! and the next is whichever thread asks first. With threads spread over processors and
//! preempted by the kernel's timer, that is a race, and code that spins or steals work (rayon,
//! tokio, a contended mutex) runs a different number of instructions each time. On one processor
//! under `SCHED_FIFO` a thread runs until it blocks or yields, and a woken thread waits its turn
//! behind the running one: the order of turns, and with it every count, is the same on every run
//! (measured: rayon and tokio benchmarks that moved by up to 2 % repeat exactly, also with the
//! machine's processors all busy). That takes Valgrind's pipe lock, not its ticket lock: a
//! running thread that sleeps where it did not choose to (a page fault reading from disk) lets a
//! woken one ask for the lock early, which only the ticket lock rewards
//! ([`super::args::COUNT_EVERYTHING`]).
//!
//! `SCHED_FIFO` needs `CAP_SYS_NICE` (root, usually) or an `RLIMIT_RTPRIO` of 1 or more. Where
//! it is not permitted, each worker's processes still run on one processor, under
//! `SCHED_BATCH` ([`Policy::Batch`]): measured as a user with an rtprio limit of
//! 0, a thread pool's counts (rayon, tokio) then moved by about 0.1 % (1.5 % with no placement at
//! all), spawned threads repeated in most series but not all (94 instructions once), and no
//! fair-scheduler variant tried did better (`SCHED_IDLE`, a 100 ms slice): the fair scheduler
//! picks among threads that yield by the nanoseconds each ran. Benchmarks that ran threads then say that their counts
//! may move and how to grant the limit ([`NOT_EXACT`]). The lowest real-time priority is
//! taken, and the kernel keeps a share of every processor for other processes
//! (`sched_rt_runtime_us`).

use std::sync::OnceLock;

/// How the measured processes of one worker take turns on their processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `SCHED_FIFO` at the lowest priority: a thread runs until it blocks or yields, and a
    /// yielding one goes behind the others, so the order of turns, and every count, repeats
    /// ([`super::realtime`]). Needs `CAP_SYS_NICE` or an rtprio limit of 1 or more.
    Realtime,
    /// `SCHED_BATCH`, which any user may set: a woken thread does not preempt the running one,
    /// which keeps most turns in order, but the fair scheduler still picks among threads that
    /// yield or spin by the nanoseconds each ran, so a thread pool's counts (rayon, tokio) still
    /// move by about 0.1 % (1.5 % with no placement), spawned threads' now and then.
    Batch,
}

/// Where the measured processes of one worker run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The processor, the only one they may run on.
    pub cpu: usize,
    /// Their scheduling policy.
    pub policy: Policy,
}

impl Placement {
    /// Whether threads take turns the same way on every run here.
    pub fn exact(self) -> bool {
        self.policy == Policy::Realtime
    }
}

/// What a benchmark that ran threads says where real-time scheduling was not available.
pub const NOT_EXACT: &str = "it ran more than one thread without real-time scheduling \
(`--realtime=no`, or not permitted to this user), so the order in which its threads took turns, \
and with it its counts, may move from run to run (a thread pool's by about 0.1 %). To count \
exactly, run `sudo prlimit --pid $$ --rtprio=1:1` in the shell that runs the benchmarks (the \
workflow template does, on GitHub's runners), or run them as root";

/// The processors this process may run on, in order (none known outside Linux).
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// The processors this process may run on, in order.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: `set` is a plain bit set that sched_getaffinity fills; its size is passed.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// Puts the calling process on `cpu` under `policy` (`SCHED_FIFO` at its lowest priority, or
/// `SCHED_BATCH`): the only place a scheduling policy is set. Async-signal safe (for
/// `pre_exec`).
#[cfg(target_os = "linux")]
fn enter(Placement { cpu, policy }: Placement) -> std::io::Result<()> {
    let (policy, priority) = match policy {
        Policy::Realtime => (libc::SCHED_FIFO, libc::SCHED_FIFO),
        Policy::Batch => (libc::SCHED_BATCH, libc::SCHED_BATCH),
    };
    // SAFETY: plain system calls on this process with values on the stack.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // Field by field: musl's `sched_param` has more fields than glibc's (the kernel reads
        // the first). The system call itself, not the C library's function: musl's
        // `sched_setscheduler` does nothing but fail with ENOSYS (measured: threads of a musl
        // build were not placed, as root), glibc's is this call.
        let mut param: libc::sched_param = std::mem::zeroed();
        param.sched_priority = libc::sched_get_priority_min(priority);
        let param: *const libc::sched_param = &param;
        if libc::syscall(libc::SYS_sched_setscheduler, 0, policy, param) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Whether a process started from here may run under `SCHED_FIFO`: tried once, on a thread of
/// this process, which has the same permission (`CAP_SYS_NICE` or `RLIMIT_RTPRIO`, both
/// inherited) and ends right after.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        #[cfg(target_os = "linux")]
        if let Some(&cpu) = allowed_cpus().first() {
            let placement = Placement {
                cpu,
                policy: Policy::Realtime,
            };
            return std::thread::spawn(move || enter(placement).is_ok())
                .join()
                .unwrap_or(false);
        }
        false
    })
}

/// Makes `cmd` start as `placement` says; if that fails the process starts as usual.
#[cfg(target_os = "linux")]
pub fn apply(cmd: &mut std::process::Command, placement: Placement) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `enter` makes system calls only; its failure is not an error.
    unsafe {
        cmd.pre_exec(move || {
            let _ = enter(placement);
            Ok(())
        });
    }
}
