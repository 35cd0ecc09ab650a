//! Process ids that have the same number of digits on every run and every machine: each
//! measured process starts in a process-id namespace of its own, where its id has four digits
//! and what it starts gets the next ones in the order it starts them.
//!
//! Shells format their own id and their parent's as they start (`$$`, `PPID`), and the number
//! of digits moves their counts: Valgrind on `sh -c 'seq 1 3 | cat'` counted 228,733
//! instructions with 5-digit ids and 228,637 in a fresh namespace, and ids cross a digit
//! boundary now and then on one machine and differ between machines. The id is not the same
//! number in every namespace: Valgrind names its temporary files in `/tmp` after the process's
//! id and its parent's, and two measured processes starting at once with the same ids collided
//! there ("VG_(mkstemp): failed to create temp file"). So it is [`measured_pid`] of the id the
//! process has outside, between 1000 and 8999, which leaves a thousand ids of the same length
//! for what it starts.
//!
//! The process the launcher starts ([`apply`], in `pre_exec`) makes the namespace (with
//! `CAP_SYS_ADMIN`, else inside a user namespace that maps the user to itself, which any user
//! may make where the kernel allows it) and forks its first process, the namespace's init
//! (process 1), which sets the namespace's last id (`ns_last_pid`) and forks the measured
//! process, then reaps every process of the namespace until none is left. The measured
//! process's end (its exit status, or the signal that ended it) reaches the launcher's process,
//! which ends the same way, so that the caller sees what it would have seen. Killing the
//! launcher's process group kills them all; if the launcher's process dies, the init is killed
//! and the kernel kills the namespace with it.
//!
//! Where neither way is allowed (a container without the capability and with user namespaces
//! off) measured processes run with the machine's ids, and binary benchmarks and those that
//! start processes say so ([`UNAVAILABLE`]).

/// The id, inside its namespace, of the measured process started as `spawned` outside: four
/// digits, different for processes that run at once (their outside ids differ) but for ids
/// 8000 apart.
pub fn measured_pid(spawned: u32) -> u32 {
    1000 + spawned % 8000
}

/// What a binary benchmark, or one that started other processes, says where measured processes
/// cannot have a namespace of their own.
pub const UNAVAILABLE: &str = "its processes ran with the machine's process ids (this user may \
not make a process-id namespace: no CAP_SYS_ADMIN, and user namespaces are off), so the counts of \
programs that format process ids (shells do, as they start) can move by a few instructions when \
an id gains a digit. To count exactly, run as root or allow user namespaces \
(`sysctl kernel.unprivileged_userns_clone=1`; on Ubuntu also \
`sysctl kernel.apparmor_restrict_unprivileged_userns=0`)";

/// How a namespace is made here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// `unshare(CLONE_NEWPID)`, with `CAP_SYS_ADMIN`.
    Privileged,
    /// Inside a new user namespace that maps the user and group to themselves.
    ThroughUser,
}

/// How measured processes get a namespace of their own here, found out once by trying in a
/// child process; `None` where neither way works (and on other systems). A process that holds
/// capabilities without `CAP_SYS_ADMIN` (a user given `CAP_DAC_READ_SEARCH` to reach a checkout
/// under `/root`, say) does not go through a user namespace: there it would lose them, and
/// with them the programs it measures.
pub fn way() -> Option<Way> {
    static WAY: std::sync::OnceLock<Option<Way>> = std::sync::OnceLock::new();
    *WAY.get_or_init(|| {
        #[cfg(target_os = "linux")]
        {
            [Way::Privileged, Way::ThroughUser]
                .into_iter()
                .filter(|&way| way == Way::Privileged || !holds_capabilities())
                .find(|&way| works(way))
        }
        #[cfg(not(target_os = "linux"))]
        None
    })
}

/// Makes `cmd` start in a namespace of its own, made `way` (see the module's documentation).
#[cfg(target_os = "linux")]
pub fn apply(cmd: &mut std::process::Command, way: Way) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `enter` makes system calls only, with values on the stack, and never returns in
    // the processes that do not go on to exec.
    unsafe {
        cmd.pre_exec(move || enter(way));
    }
}

#[cfg(target_os = "linux")]
use std::io::{Error, Result};

/// Whether this process has any effective capability (`CapEff` in `/proc/self/status`).
#[cfg(target_os = "linux")]
fn holds_capabilities() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("CapEff:"))
        .is_some_and(|mask| mask.trim().chars().any(|c| c != '0'))
}

/// Whether a namespace can be made `way`: a child process goes all the way (namespace,
/// init, the measured process's id) and reports by its status.
#[cfg(target_os = "linux")]
fn works(way: Way) -> bool {
    // SAFETY: the child makes system calls only and ends with `_exit`.
    unsafe {
        let child = libc::fork();
        if child == 0 {
            libc::_exit(if enter(way).is_ok() { 0 } else { 1 });
        }
        if child < 0 {
            return false;
        }
        let mut status = 0;
        while libc::waitpid(child, &mut status, 0) < 0 {
            if Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return false;
            }
        }
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }
}

/// Gives the calling process's next child a new process-id namespace, made `way`.
#[cfg(target_os = "linux")]
unsafe fn unshare(way: Way) -> Result<()> {
    match way {
        Way::Privileged => check(libc::unshare(libc::CLONE_NEWPID)),
        Way::ThroughUser => {
            let (uid, gid) = (libc::geteuid(), libc::getegid());
            check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID))?;
            // The user and group are themselves inside: ids, and files' owners, read as
            // outside. `setgroups` must be denied before an unprivileged gid map.
            let _ = write(c"/proc/self/setgroups", b"deny");
            write(c"/proc/self/uid_map", map_line(uid, &mut [0; 40]))?;
            write(c"/proc/self/gid_map", map_line(gid, &mut [0; 40]))
        }
    }
}

/// In the process the launcher started, before exec: see the module's documentation.
/// Returns in the measured process only.
#[cfg(target_os = "linux")]
unsafe fn enter(way: Way) -> Result<()> {
    let outside = libc::getpid();
    unshare(way)?;
    // The measured process's end, as `waitpid` gives it, from the init to this process.
    let mut end = [0; 2];
    check(libc::pipe2(end.as_mut_ptr(), libc::O_CLOEXEC))?;
    let init = libc::fork();
    if init < 0 {
        return Err(Error::last_os_error());
    }
    if init > 0 {
        libc::close(end[1]);
        pass_on_end(init, end[0]);
    }
    // The init, process 1: killed if the launcher's process goes.
    libc::close(end[0]);
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    let last = measured_pid(outside as u32) - 1;
    write(c"/proc/sys/kernel/ns_last_pid", number(last, &mut [0; 40]))?;
    let measured = libc::fork();
    if measured < 0 {
        return Err(Error::last_os_error());
    }
    if measured > 0 {
        reap(measured, end[1]);
    }
    libc::close(end[1]);
    Ok(())
}

/// The launcher's process: waits for the init, then ends as the measured process did.
#[cfg(target_os = "linux")]
unsafe fn pass_on_end(init: libc::pid_t, end: libc::c_int) -> ! {
    close_all_but(end);
    let mut status = 0;
    while libc::waitpid(init, &mut status, 0) < 0 {
        if Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            libc::_exit(127);
        }
    }
    let mut measured = [0u8; 4];
    let got = libc::read(end, measured.as_mut_ptr().cast(), 4);
    if got == 4 {
        status = i32::from_ne_bytes(measured);
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // The same signal ends this process, without a core file of its own.
        let none = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &none);
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal);
    }
    libc::_exit(if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        127
    })
}

/// The init: reaps every process of the namespace until none is left, then passes on how
/// the measured one ended.
#[cfg(target_os = "linux")]
unsafe fn reap(measured: libc::pid_t, end: libc::c_int) -> ! {
    close_all_but(end);
    let mut ended = None;
    loop {
        let mut status = 0;
        let pid = libc::waitpid(-1, &mut status, 0);
        if pid == measured {
            ended = Some(status);
        } else if pid < 0 && Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    let status = ended.unwrap_or(127 << 8);
    libc::write(end, status.to_ne_bytes().as_ptr().cast(), 4);
    libc::_exit(if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    })
}

/// Closes every file descriptor but `keep`: the standard streams and the pipe by which the
/// spawning process learns that the exec happened are the measured process's alone.
#[cfg(target_os = "linux")]
unsafe fn close_all_but(keep: libc::c_int) {
    let keep = keep as libc::c_uint;
    if keep > 0 {
        close_range(0, keep - 1);
    }
    close_range(keep + 1, libc::c_uint::MAX);
}

#[cfg(target_os = "linux")]
unsafe fn close_range(first: libc::c_uint, last: libc::c_uint) {
    if libc::syscall(libc::SYS_close_range, first, last, 0) != 0 {
        // Kernels before 5.9.
        for fd in first..=last.min(4095) {
            libc::close(fd as libc::c_int);
        }
    }
}

/// `"<id> <id> 1"`: the id maps to itself, alone.
#[cfg(target_os = "linux")]
fn map_line(id: u32, line: &mut [u8; 40]) -> &[u8] {
    let mut digits = [0; 40];
    let id = number(id, &mut digits);
    let n = id.len();
    line[..n].copy_from_slice(id);
    line[n] = b' ';
    line[n + 1..2 * n + 1].copy_from_slice(id);
    line[2 * n + 1..2 * n + 3].copy_from_slice(b" 1");
    &line[..2 * n + 3]
}

/// `n` in decimal, without allocating.
#[cfg(target_os = "linux")]
fn number(n: u32, buffer: &mut [u8; 40]) -> &[u8] {
    let mut digits = [0u8; 10];
    let (mut n, mut count) = (n, 0);
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..count {
        buffer[i] = digits[count - 1 - i];
    }
    &buffer[..count]
}

#[cfg(target_os = "linux")]
unsafe fn write(path: &std::ffi::CStr, text: &[u8]) -> Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(Error::last_os_error());
    }
    let written = libc::write(fd, text.as_ptr().cast(), text.len());
    libc::close(fd);
    if written == text.len() as isize {
        Ok(())
    } else {
        Err(Error::last_os_error())
    }
}

#[cfg(target_os = "linux")]
fn check(result: libc::c_int) -> Result<()> {
    if result == 0 {
        Ok(())
    } else {
        Err(Error::last_os_error())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn an_id_maps_to_itself() {
        assert_eq!(map_line(0, &mut [0; 40]), b"0 0 1");
        assert_eq!(map_line(1001, &mut [0; 40]), b"1001 1001 1");
        assert_eq!(map_line(u32::MAX, &mut [0; 40]), b"4294967295 4294967295 1");
    }
    use std::process::Command;

    fn namespaced(script: &str) -> Option<std::process::Output> {
        let way = way()?;
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", script]);
        apply(&mut cmd, way);
        Some(cmd.output().unwrap())
    }

    #[test]
    fn the_measured_process_has_four_digits_and_its_children_follow() {
        let Some(out) = namespaced("echo $$ $PPID; sh -c 'echo $$'; id -u; id -g") else {
            eprintln!("no process-id namespace here: {UNAVAILABLE}");
            return;
        };
        // The user and group are who they are outside, made either way.
        // SAFETY: plain system calls.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let ids: Vec<u32> = text
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(ids.len(), 5, "{text}");
        assert!((1000..9000).contains(&ids[0]), "{text}");
        assert_eq!(ids[1..], [1, ids[0] + 1, uid, gid], "{text}");
        assert!(out.status.success());
    }

    #[test]
    fn the_measured_process_ends_as_it_would_have() {
        use std::os::unix::process::ExitStatusExt;
        let Some(out) = namespaced("exit 7") else {
            return;
        };
        assert_eq!(out.status.code(), Some(7));
        let out = namespaced("kill -TERM $$").unwrap();
        assert_eq!(out.status.signal(), Some(libc::SIGTERM), "{:?}", out.status);
        let out = namespaced("echo err >&2; echo out").unwrap();
        assert_eq!(out.stdout, b"out\n");
        assert_eq!(out.stderr, b"err\n");
    }

    #[test]
    fn background_processes_end_before_the_run_does() {
        let Some(out) = namespaced("(sleep 0.2; echo late) & echo early") else {
            return;
        };
        assert_eq!(String::from_utf8_lossy(&out.stdout), "early\nlate\n");
    }
}
