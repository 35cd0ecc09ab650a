//! The counters, opened with `perf_event_open` inside the bench process on itself (and the
//! threads it starts: inherited), disabled until the window opens them.
//!
//! Each event has a counter of its own, so one the machine lacks (a hardware event without a
//! PMU) takes nothing from the others; each is read with the time it was enabled and the time
//! it ran, whose ratio is perf's `pcnt-running` (below 100 when the kernel multiplexed it).

use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use perf_event_open_sys as sys;

use super::events::{Event, Kind};

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
#[derive(Debug)]
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

/// The value of `/proc/sys/kernel/perf_event_paranoid`, if readable.
pub fn paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Opens a counter per event, disabled, on this process and the threads it will start.
pub fn open(events: &[Event]) -> Result<Counters, OpenError> {
    let mut opened = Counters {
        events: Vec::new(),
        unsupported: Vec::new(),
        user_only: false,
    };
    for event in events {
        if COUNT.load(Ordering::Relaxed) >= MAX {
            return Err(OpenError::Other(format!("more than {MAX} perf events")));
        }
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
                let n = COUNT.fetch_add(1, Ordering::Relaxed);
                FDS[n].store(fd, Ordering::Relaxed);
                opened.events.push(event.clone());
            }
            Err(e) if e == libc::EACCES || e == libc::EPERM => {
                return Err(OpenError::Denied(denied(event, e)));
            }
            Err(e)
                if event.kind != Kind::Software
                    && [libc::ENOENT, libc::EOPNOTSUPP, libc::ENODEV, libc::EINVAL]
                        .contains(&e) =>
            {
                opened.unsupported.push(event.name.clone());
            }
            Err(e) => {
                return Err(OpenError::Other(format!(
                    "perf_event_open of `{}` failed: {}",
                    event.name,
                    std::io::Error::from_raw_os_error(e)
                )))
            }
        }
    }
    Ok(opened)
}

fn denied(event: &Event, errno: i32) -> String {
    let error = std::io::Error::from_raw_os_error(errno);
    // Users may count their own processes in user space at 2, the kernel too at 1.
    let needed = if event.kernel_only { 1 } else { 2 };
    match paranoid() {
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

fn open_one(event: &Event, user_only: bool) -> Result<c_int, i32> {
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
    if user_only {
        attr.set_exclude_kernel(1);
        attr.set_exclude_hv(1);
    }
    if event.kernel_only {
        attr.set_exclude_user(1);
    }
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
        return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
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
    for slot in &FDS[..n] {
        let mut buf = [0u64; 3];
        // SAFETY: reading 24 bytes (value, time enabled, time running: the read format asked
        // for) into a buffer of that size from a perf event descriptor.
        let got = unsafe { libc::read(slot.load(Ordering::Relaxed), buf.as_mut_ptr().cast(), 24) };
        out.push(if got == 24 {
            Reading {
                value: buf[0],
                enabled: buf[1],
                running: buf[2],
            }
        } else {
            Reading::default()
        });
    }
}
