//! The counters, opened with `perf_event_open` inside the bench process on itself (and the
//! threads it starts: inherited), disabled until the window opens them.
//!
//! Each event has a counter of its own, so one the machine lacks (a hardware event without a
//! PMU) takes nothing from the others; each is read with the time it was enabled and the time
//! it ran, whose ratio is perf's `pcnt-running` (below 100 when the kernel multiplexed it).

use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use perf_event_open_sys as sys;

use crate::config::perf::events::{Event, Kind};

/// At most this many counters (no event set comes near).
const MAX: usize = 64;

/// The open counters' descriptors, for the window's enable and disable.
static FDS: [AtomicI32; MAX] = [const { AtomicI32::new(-1) }; MAX];
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// One reading of a counter: its value, the nanoseconds it was enabled and those it ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// The count.
    pub value: u64,
    /// Time enabled.
    pub enabled: u64,
    /// Time running (less than enabled when multiplexed).
    pub running: u64,
}

/// The open counters.
#[derive(Debug, Clone)]
pub struct Counters {
    /// The events counted, in order.
    pub events: Vec<Event>,
    /// The events this machine cannot count (no PMU, or not this one): named in the report.
    pub unsupported: Vec<String>,
    /// Whether kernel time had to be left out (perf_event_paranoid for this user).
    pub user_only: bool,
}

/// Why counters could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// perf is not allowed for this user.
    Denied(String),
    /// Anything else.
    Other(String),
}

/// Opens a counter per event, disabled, on this process and the threads it will start.
pub fn open(events: &[Event]) -> Result<Counters, OpenError> {
    let (fds, opened) = open_each(events)?;
    for fd in fds {
        if COUNT.load(Ordering::Relaxed) >= MAX {
            return Err(OpenError::Other(format!("more than {MAX} perf events")));
        }
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        FDS[n].store(fd, Ordering::Relaxed);
    }
    Ok(opened)
}

/// Counters of a program the harness spawns, as `perf stat COMMAND` counts it: the child opens
/// them on itself between its fork and its `exec` (a `pre_exec` hook, [`OnExec::hook`]),
/// disabled until the `exec` (`enable_on_exec`) and inherited by the processes the program
/// starts, and passes the descriptors to the harness over a socket ([`OnExec::collect`]), which
/// reads them once the program ended. Counters opened on the harness's own thread and inherited
/// by the child instead counted only some runs (measured: 2 of 6 spawns of `/bin/true` counted
/// anything): the kernel swaps the contexts of a parent and its vfork child that are clones.
pub struct OnExec {
    events: Vec<Event>,
    attrs: Vec<sys::bindings::perf_event_attr>,
    /// The socket pair: the harness receives on `[0]`, the child sends on `[1]`.
    sockets: [c_int; 2],
}

/// What a child opened: statuses per event (0: counted, 1: user space only, a negative errno:
/// not opened), then the descriptors of the opened ones by `SCM_RIGHTS`.
const STATUS_BYTES: usize = MAX * 4;

impl OnExec {
    /// The counters of `events` for the programs spawned with [`OnExec::hook`].
    pub fn new(events: &[Event]) -> std::io::Result<OnExec> {
        if events.len() > MAX {
            return Err(std::io::Error::other(format!(
                "more than {MAX} perf events"
            )));
        }
        let mut sockets = [-1; 2];
        // SAFETY: socketpair writes two descriptors into the array it is given.
        let made = unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
                0,
                sockets.as_mut_ptr(),
            )
        };
        if made != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let attrs = events.iter().map(|e| attr(e, e.user_only, true)).collect();
        Ok(OnExec {
            events: events.to_vec(),
            attrs,
            sockets,
        })
    }

    /// The `pre_exec` hook that opens the counters in the child and sends them: only system
    /// calls on memory prepared before the fork (no allocation, no lock).
    pub fn hook(&self) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
        let mut attrs = self.attrs.clone();
        let kernel_only: Vec<bool> = self.events.iter().map(|e| e.kernel_only).collect();
        let socket = self.sockets[1];
        move || {
            let mut status = [0i32; MAX];
            let mut fds = [0 as c_int; MAX];
            let mut n = 0;
            for (i, attr) in attrs.iter_mut().enumerate() {
                // SAFETY: `attr` is initialized; the counter watches this process (pid 0).
                let mut fd = unsafe {
                    sys::perf_event_open(attr, 0, -1, -1, sys::bindings::PERF_FLAG_FD_CLOEXEC as _)
                };
                let mut errno = if fd < 0 { errno_now() } else { 0 };
                if fd < 0 && (errno == libc::EACCES || errno == libc::EPERM) && !kernel_only[i] {
                    attr.set_exclude_kernel(1);
                    attr.set_exclude_hv(1);
                    // SAFETY: as above.
                    fd = unsafe {
                        sys::perf_event_open(
                            attr,
                            0,
                            -1,
                            -1,
                            sys::bindings::PERF_FLAG_FD_CLOEXEC as _,
                        )
                    };
                    errno = if fd < 0 { errno_now() } else { 0 };
                    if fd >= 0 {
                        status[i] = 1;
                    }
                }
                if fd < 0 {
                    status[i] = -errno;
                } else {
                    fds[n] = fd;
                    n += 1;
                }
            }
            send(socket, &status, &fds[..n])
        }
    }

    /// The counters the child that ran the hook opened (after its `exec`, which `spawn` waits
    /// for); the machine's lacks and refusals as [`open`]'s.
    pub fn collect(&self) -> Result<Spawned, OpenError> {
        let mut status = [0i32; MAX];
        let mut received = [0 as c_int; MAX];
        let n = receive(self.sockets[0], &mut status, &mut received).map_err(|e| {
            OpenError::Other(format!(
                "the perf counters of the command did not arrive: {e}"
            ))
        })?;
        let mut spawned = Spawned {
            fds: received[..n].to_vec(),
            counters: Counters {
                events: Vec::new(),
                unsupported: Vec::new(),
                user_only: false,
            },
        };
        for (event, &st) in self.events.iter().zip(&status) {
            match st {
                0 | 1 => {
                    spawned.counters.user_only |= st == 1 && !event.user_only;
                    spawned.counters.events.push(event.clone());
                }
                e => {
                    lacking(event, -e)?;
                    spawned.counters.unsupported.push(event.name.clone());
                }
            }
        }
        Ok(spawned)
    }
}

impl Drop for OnExec {
    fn drop(&mut self) {
        for fd in self.sockets {
            // SAFETY: the socket pair's descriptors, closed once.
            unsafe { libc::close(fd) };
        }
    }
}

/// The counters of one spawned program; closed when dropped.
#[derive(Debug)]
pub struct Spawned {
    fds: Vec<c_int>,
    /// What was opened.
    pub counters: Counters,
}

impl Spawned {
    /// Reads every counter, in the order of [`Counters::events`].
    pub fn read(&self, out: &mut Vec<Reading>) {
        out.clear();
        out.extend(self.fds.iter().map(|&fd| read_one(fd)));
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        for &fd in &self.fds {
            // SAFETY: descriptors received from the child, closed once.
            unsafe { libc::close(fd) };
        }
    }
}

fn errno_now() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Control-message room for [`MAX`] descriptors, aligned for `cmsghdr`.
#[repr(C, align(8))]
struct Control([u8; 512]);

/// Sends the statuses and descriptors as one datagram.
fn send(socket: c_int, status: &[i32; MAX], fds: &[c_int]) -> std::io::Result<()> {
    let mut control = Control([0; 512]);
    let mut iov = libc::iovec {
        iov_base: status.as_ptr() as *mut libc::c_void,
        iov_len: STATUS_BYTES,
    };
    // SAFETY: msghdr is plain data; zeroes are a valid empty header, filled in below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        let bytes = std::mem::size_of_val(fds) as u32;
        msg.msg_control = control.0.as_mut_ptr().cast();
        // SAFETY: CMSG_SPACE only computes a size; 64 descriptors need 272 bytes of the 512.
        msg.msg_controllen = unsafe { libc::CMSG_SPACE(bytes) } as _;
        // SAFETY: the control buffer is large enough and aligned; the header and the
        // descriptors are written inside it.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(bytes) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr().cast::<u8>(),
                libc::CMSG_DATA(cmsg),
                bytes as usize,
            );
        }
    }
    // SAFETY: `msg` points at live buffers for the length given.
    if unsafe { libc::sendmsg(socket, &msg, 0) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Receives what [`send`] sent, without waiting (the child sent it before its `exec`); the
/// number of descriptors received.
fn receive(
    socket: c_int,
    status: &mut [i32; MAX],
    fds: &mut [c_int; MAX],
) -> std::io::Result<usize> {
    let mut control = Control([0; 512]);
    let mut iov = libc::iovec {
        iov_base: status.as_mut_ptr().cast(),
        iov_len: STATUS_BYTES,
    };
    // SAFETY: as in `send`.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.0.as_mut_ptr().cast();
    msg.msg_controllen = control.0.len() as _;
    // SAFETY: the buffers are live and as long as said; received descriptors are close-on-exec.
    let got = unsafe {
        libc::recvmsg(
            socket,
            &mut msg,
            libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
        )
    };
    if got < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let mut n = 0;
    // SAFETY: walking the control messages the kernel wrote into `control`.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let bytes = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                let count = (bytes / 4).min(MAX - n);
                std::ptr::copy_nonoverlapping(
                    libc::CMSG_DATA(cmsg).cast::<c_int>(),
                    fds[n..].as_mut_ptr(),
                    count,
                );
                n += count;
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    Ok(n)
}

/// A counter per event; the descriptors in event order.
fn open_each(events: &[Event]) -> Result<(Vec<c_int>, Counters), OpenError> {
    let mut opened = Counters {
        events: Vec::new(),
        unsupported: Vec::new(),
        user_only: false,
    };
    let mut fds = Vec::new();
    let close = |fds: &[c_int]| {
        for &fd in fds {
            // SAFETY: descriptors opened here, closed once on the way out.
            unsafe { libc::close(fd) };
        }
    };
    for event in events {
        let mut result = open_one(event, event.user_only);
        if matches!(result, Err(e) if e == libc::EACCES || e == libc::EPERM) && !event.kernel_only {
            // perf_event_paranoid 2 (the default) lets users count their own processes in user
            // space only.
            result = open_one(event, true);
            if result.is_ok() && !event.user_only {
                opened.user_only = true;
            }
        }
        match result {
            Ok(fd) => {
                fds.push(fd);
                opened.events.push(event.clone());
            }
            Err(e) => {
                if let Err(error) = lacking(event, e) {
                    close(&fds);
                    return Err(error);
                }
                opened.unsupported.push(event.name.clone());
            }
        }
    }
    Ok((fds, opened))
}

/// What a failed opening of `event` (`errno`) means: `Ok` where the machine lacks the event (a
/// hardware or raw one it has no counter for: named in the report), else why perf cannot run.
fn lacking(event: &Event, errno: i32) -> Result<(), OpenError> {
    if errno == libc::EACCES || errno == libc::EPERM {
        return Err(OpenError::Denied(denied(event, errno)));
    }
    let lacks = [libc::ENOENT, libc::EOPNOTSUPP, libc::ENODEV, libc::EINVAL].contains(&errno);
    if event.kind != Kind::Software && lacks {
        return Ok(());
    }
    Err(OpenError::Other(format!(
        "perf_event_open of `{}` failed: {}",
        event.name,
        std::io::Error::from_raw_os_error(errno)
    )))
}

fn denied(event: &Event, errno: i32) -> String {
    let error = std::io::Error::from_raw_os_error(errno);
    // Users may count their own processes in user space at 2, the kernel too at 1.
    let needed = if event.kernel_only { 1 } else { 2 };
    match super::access::paranoid() {
        Some(level) if level > needed => format!(
            "perf is not allowed for this user: counting `{}` failed ({error}): \
             /proc/sys/kernel/perf_event_paranoid is {level}, and this event needs {needed} or \
             less. Allow it with `sudo sysctl kernel.perf_event_paranoid={needed}` (or give the \
             bench binary CAP_PERFMON: `sudo setcap cap_perfmon+ep BINARY`), or run without \
             perf: --perf=no",
            event.name
        ),
        level => format!(
            "perf is not allowed for this process: counting `{}` failed ({error}) although \
             /proc/sys/kernel/perf_event_paranoid is {}: a container's seccomp profile (Docker's \
             default one) or a security module blocks perf_event_open. Allow it (`docker run \
             --cap-add PERFMON`, or a seccomp profile that permits perf_event_open), or run \
             without perf: --perf=no",
            event.name,
            level.map_or("unreadable".to_owned(), |l| l.to_string())
        ),
    }
}

/// The attributes of `event`'s counter: disabled, inherited, with the times enabled and
/// running; kernel time left out for `user_only`; on at the next `exec` for `on_exec`.
fn attr(event: &Event, user_only: bool, on_exec: bool) -> sys::bindings::perf_event_attr {
    // SAFETY: perf_event_attr is plain data for which all zeroes is a valid value.
    let mut attr: sys::bindings::perf_event_attr = unsafe { std::mem::zeroed() };
    attr.type_ = match event.kind {
        Kind::Hardware => sys::bindings::PERF_TYPE_HARDWARE,
        Kind::Software => sys::bindings::PERF_TYPE_SOFTWARE,
        Kind::Raw => sys::bindings::PERF_TYPE_RAW,
    };
    attr.size = std::mem::size_of::<sys::bindings::perf_event_attr>() as u32;
    attr.config = event.config;
    attr.read_format = (sys::bindings::PERF_FORMAT_TOTAL_TIME_ENABLED
        | sys::bindings::PERF_FORMAT_TOTAL_TIME_RUNNING) as u64;
    attr.set_disabled(1);
    attr.set_inherit(1);
    if on_exec {
        attr.set_enable_on_exec(1);
    }
    if user_only {
        attr.set_exclude_kernel(1);
        attr.set_exclude_hv(1);
    }
    if event.kernel_only {
        attr.set_exclude_user(1);
    }
    attr
}

fn open_one(event: &Event, user_only: bool) -> Result<c_int, i32> {
    let mut attr = attr(event, user_only, false);
    // SAFETY: `attr` is initialized; the counter watches this process (pid 0) on any CPU.
    let fd = unsafe {
        sys::perf_event_open(
            &mut attr,
            0,
            -1,
            -1,
            sys::bindings::PERF_FLAG_FD_CLOEXEC as _,
        )
    };
    if fd < 0 {
        return Err(errno_now());
    }
    Ok(fd)
}

/// Starts (`true`) or stops every open counter: the window's edges. An ioctl per counter, the
/// first one opened (task-clock by default) last on and first off, so that it counts as little
/// of the switching as can be: the empty window counted 1.4 to 1.7 µs of task-clock this way on
/// this workplace's virtual CPU, the same as with task-clock alone, and 3.8 to 4.6 µs with one
/// `prctl(PR_TASK_PERF_EVENTS_ENABLE)` for all (which switches them in the order opened).
#[inline]
pub fn switch(on: bool) {
    let n = COUNT.load(Ordering::Relaxed);
    let each = |slot: &AtomicI32| {
        let fd = slot.load(Ordering::Relaxed);
        // SAFETY: `fd` is a perf event descriptor this process opened and never closes.
        unsafe {
            if on {
                sys::ioctls::ENABLE(fd, 0);
            } else {
                sys::ioctls::DISABLE(fd, 0);
            }
        }
    };
    if on {
        FDS[..n].iter().rev().for_each(each);
    } else {
        FDS[..n].iter().for_each(each);
    }
}

/// Reads every open counter, in the order of [`Counters::events`].
pub fn read_all(out: &mut Vec<Reading>) {
    out.clear();
    let n = COUNT.load(Ordering::Relaxed);
    out.extend(
        FDS[..n]
            .iter()
            .map(|slot| read_one(slot.load(Ordering::Relaxed))),
    );
}

fn read_one(fd: c_int) -> Reading {
    let mut buf = [0u64; 3];
    // SAFETY: reading 24 bytes (value, time enabled, time running: the read format asked for)
    // into a buffer of that size from a perf event descriptor.
    let got = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), 24) };
    if got == 24 {
        Reading {
            value: buf[0],
            enabled: buf[1],
            running: buf[2],
        }
    } else {
        Reading::default()
    }
}
