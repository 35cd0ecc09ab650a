//! Ctrl-C and SIGTERM during a run. The handler only records the signal and wakes a thread
//! through a pipe (all a signal handler may do); that thread kills the process group of every
//! child of the harness (Valgrind servers and processes, hooks, binary benchmarks: each is
//! started in a group of its own by `super::process`), and goes on killing those started late
//! until the harness exits. The scheduler ([`super::schedule`]) and the harness check
//! [`signal`] between jobs, keep what finished and exit with `128 + signal`.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;
#[cfg(unix)]
use std::sync::Once;
use std::time::{Duration, Instant};

/// The signal received, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The write end of the pipe that wakes the killing thread, -1 before [`install`].
#[cfg(unix)]
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// The process groups killed so far.
static KILLED: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// The signal that interrupts the run (`SIGINT` or `SIGTERM`), if one came.
pub fn signal() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// The name of a signal of [`signal`].
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only async-signal-safe calls: an atomic store and write(2).
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: writes one byte from a valid buffer; a full pipe only loses a wake-up that
        // is already pending.
        unsafe { libc::write(fd, [1u8].as_ptr().cast(), 1) };
    }
}

/// Outside Unix no handler is installed: Ctrl-C ends the harness and its children alike.
#[cfg(not(unix))]
pub fn install() {}

/// Installs the handlers of SIGINT and SIGTERM and starts the thread that kills the children
/// when one comes. Once per process; later calls do nothing.
#[cfg(unix)]
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let mut fds = [0; 2];
        // SAFETY: pipe fills the two descriptors of a valid array; both are marked
        // close-on-exec before any process is started (this runs before the first).
        unsafe {
            if libc::pipe(fds.as_mut_ptr()) != 0 {
                return;
            }
            for fd in fds {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
        WAKE.store(fds[1], Ordering::SeqCst);
        let reader = fds[0];
        let spawned = std::thread::Builder::new()
            .name("benchgrind-interrupt".into())
            .spawn(move || killer(reader));
        if spawned.is_err() {
            return;
        }
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed sigaction with a handler of the right type and SA_RESTART, so
            // that the harness's system calls are not cut short.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Waits for a signal, then kills the children's process groups until the process exits.
#[cfg(unix)]
fn killer(reader: i32) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into a valid buffer.
        let n = unsafe { libc::read(reader, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 || signal().is_some() {
            break;
        }
        if n == 0 {
            return;
        }
    }
    loop {
        kill_children();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends SIGKILL to the process group of every child of this process (each child leads a group
/// of its own, so its own children go too).
pub fn kill_children() {
    for pid in children() {
        #[cfg(unix)]
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is touched.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
        let mut killed = KILLED.lock().unwrap_or_else(|e| e.into_inner());
        if !killed.contains(&pid) {
            killed.push(pid);
        }
    }
}

/// Waits (at most `limit`) until no process of a killed group is left but zombies: a process
/// killed with a large address space (Valgrind's) takes a moment to go, and one forked by a
/// fork server is not this process's child to wait for.
pub fn wait_for_killed(limit: Duration) {
    let start = Instant::now();
    kill_children();
    loop {
        let groups = KILLED.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if groups.is_empty() || start.elapsed() > limit || !any_alive_in(&groups) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether a process of one of `groups` is alive (not a zombie).
fn any_alive_in(groups: &[i32]) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            return false;
        };
        let Some(close) = stat.rfind(')') else {
            return false;
        };
        // After the name: state, ppid, pgid.
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().take(3).collect();
        let in_group = fields
            .get(2)
            .and_then(|g| g.parse::<i32>().ok())
            .is_some_and(|g| groups.contains(&g));
        in_group && fields.first() != Some(&"Z")
    })
}

/// The pids of this process's children, from /proc.
fn children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| parent(pid) == Some(me))
        .collect()
}

/// The parent of a process: the fourth field of /proc/<pid>/stat (after the `(name)`, which may
/// hold spaces and parentheses).
fn parent(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_of_a_child_is_this_process() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        assert!(children().contains(&(child.id() as i32)));
        assert_eq!(parent(child.id() as i32), Some(std::process::id() as i32));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!children().contains(&(child.id() as i32)));
    }
}
