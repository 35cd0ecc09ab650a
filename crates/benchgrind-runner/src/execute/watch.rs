//! How long a measured run may go on, and what it cost the machine besides its counts.
//!
//! There is no wall-clock limit unless one is configured (`timeout`, `--timeout`), as in
//! iai-callgrind and gungraun: under Callgrind a benchmark of billions of instructions takes
//! minutes, and on a loaded machine longer, so a default limit failed benchmarks that were still
//! making progress (three of csidh's went past 300 s). What is stopped by default is a run that
//! makes none: one whose processes were all asleep for [`Limits::stall`], neither running nor
//! waiting for a processor (a process waiting on something that never comes, a daemon a command
//! left running). The limit counts only the time the machine gave the run and it did not use:
//! a run that waits for a processor is not stalled however long the others keep them busy (under
//! load, a benchmark that was progressing slowly was stopped at a stall limit of 2 s: another
//! `SCHED_FIFO` process on its processor keeps it off for as long as that one runs, and under
//! the fair scheduler other processes take most of its share). Progress is read from `/proc` now
//! and then ([`sample`]) while it runs ([`activity`]): the processor time of the measured
//! process's group, the time its threads waited in a run queue, and whether one is runnable.
//!
//! A run is also asked how often its processes read from the disk ([`Usage`]): where several
//! processes take turns on one processor ([`super::realtime`]), one that waits for a page of a
//! file lets another run at a point it would not otherwise, and their counts move (a shell's
//! parent reaped its children in another order: 9 instructions more for a pipe of three in
//! dash, 120 for bash behind Python), so the harness measures such a benchmark again once the
//! files are in the page cache.

use std::process::{Child, Output};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a running benchmark's progress is read, at most.
pub const SAMPLE: Duration = Duration::from_secs(5);

/// How often progress is read for a stall limit: a quarter of it, at most [`SAMPLE`].
pub fn sample(stall: Duration) -> Duration {
    (stall / 4).clamp(Duration::from_millis(10), SAMPLE)
}

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A limit on the run's wall time, if one is configured.
    pub timeout: Option<Duration>,
    /// How long its processes may all be asleep (neither running nor waiting for a processor)
    /// before it is stopped.
    pub stall: Duration,
}

impl Limits {
    /// The limits a benchmark's configuration sets.
    pub fn of(config: &crate::config::ResolvedConfig) -> Limits {
        Limits {
            timeout: config.timeout,
            stall: config.stall_limit,
        }
    }
}

/// Why a run was stopped before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// It ran past its configured time limit.
    TimedOut(Duration),
    /// Its processes were all asleep (neither running nor waiting for a processor) this long.
    Stalled(Duration),
}

impl Stopped {
    /// The reason the benchmark failed, naming the limit and what to do.
    pub fn reason(self) -> String {
        match self {
            Stopped::TimedOut(limit) => format!(
                "did not finish within its time limit of {} s, so its processes were killed (a \
                 longer benchmark raises the limit with `--timeout=DURATION` (600, 10m) or the \
                 config's `timeout`)",
                limit.as_secs_f64()
            ),
            Stopped::Stalled(limit) => format!(
                "made no progress for {} s (its processes were all asleep, neither running nor \
                 waiting for a processor: waiting on something that never came, or a process it \
                 left running), so they were killed; a benchmark that waits that long on purpose \
                 raises the limit with `--stall-limit=DURATION`",
                limit.as_secs_f64()
            ),
        }
    }
}

/// One run watched against its limits, from its start: how long to wait before the next look
/// ([`Watching::wait`]) and, after a wait that saw it go on, whether it went past a limit
/// ([`Watching::step`]). [`watch`] and the fork server's wait for an answer both take their
/// steps with it.
pub struct Watching {
    limits: Limits,
    start: Instant,
    progress: Progress,
}

impl Watching {
    /// Watching the run of `pid` (the leader of its process group, or a process alone) that
    /// began at `start`.
    pub fn new(pid: u32, limits: Limits, start: Instant) -> Watching {
        Watching {
            limits,
            start,
            progress: Progress::new(pid),
        }
    }

    /// How long to wait for the run before looking at it: until its next reading, or its time
    /// limit if that comes first (zero once it is past).
    pub fn wait(&self) -> Duration {
        let every = sample(self.limits.stall);
        match self.limits.timeout {
            Some(limit) => (self.start + limit)
                .saturating_duration_since(Instant::now())
                .min(every),
            None => every,
        }
    }

    /// After a wait that the run did not end: why it is stopped, if it went past a limit.
    pub fn step(&mut self) -> Option<Stopped> {
        let Limits { timeout, stall } = self.limits;
        match timeout {
            Some(limit) if self.start.elapsed() >= limit => Some(Stopped::TimedOut(limit)),
            _ => (self.progress.stalled(stall)).then_some(Stopped::Stalled(stall)),
        }
    }
}

/// Watches the run of `pid` (the leader of its process group, or a process alone) until `done`
/// closes; kills its group and says why when it goes past a limit.
pub fn watch(pid: u32, limits: Limits, done: Receiver<()>) -> Option<Stopped> {
    let mut watching = Watching::new(pid, limits, Instant::now());
    loop {
        match done.recv_timeout(watching.wait()) {
            Err(RecvTimeoutError::Timeout) => {}
            _ => return None,
        }
        if let Some(stopped) = watching.step() {
            kill_group(pid);
            return Some(stopped);
        }
    }
}

/// What a running group has done, read now and then: first at the first [`Progress::stalled`],
/// so that a run that ends before then (nearly every one) reads nothing.
pub struct Progress {
    pid: u32,
    /// The last reading, once there was one.
    last: Option<Option<Activity>>,
    since: Instant,
}

impl Progress {
    /// Starts watching the group `pid` leads (or the process alone).
    pub fn new(pid: u32) -> Progress {
        Progress {
            pid,
            last: None,
            since: Instant::now(),
        }
    }

    /// Reads what the group did; whether it has been asleep for `limit`: nothing it did moved
    /// since the first reading that found it where it is, and none of its threads is runnable
    /// now. Time it spent waiting for a processor is progress it was not given, not a stall.
    /// Where it cannot be read (outside Linux) a run never stalls.
    pub fn stalled(&mut self, limit: Duration) -> bool {
        let now = activity(self.pid);
        let runnable = now.is_some_and(|a| a.runnable);
        if now.is_none() || runnable || self.last != Some(now) {
            self.last = Some(now);
            self.since = Instant::now();
            return false;
        }
        self.since.elapsed() >= limit
    }
}

/// What the live processes of a group have done so far, and whether one of them can run now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Activity {
    /// Processor time in clock ticks (user and system) of the processes and of those they
    /// reaped: what a process that ended used moves into its parent's count when the parent
    /// reaps it.
    pub ticks: u64,
    /// Nanoseconds their threads ran, where the kernel says (`/proc/PID/task/TID/schedstat`).
    pub ran: u64,
    /// Nanoseconds their threads waited in a run queue (runnable, the processor given to
    /// another), where the kernel says.
    pub waited: u64,
    /// Whether one of their threads is runnable (running, or waiting for a processor) now.
    pub runnable: bool,
}

/// What the live processes of the group `pid` leads (the process alone if it leads none) have
/// done ([`Activity`]): any of it moves while one of them runs or waits for a processor.
#[cfg(target_os = "linux")]
pub fn activity(pid: u32) -> Option<Activity> {
    // SAFETY: getpgid only reads the process table.
    let leads = unsafe { libc::getpgid(pid as libc::pid_t) } == pid as libc::pid_t;
    let mut total = Activity::default();
    let mut seen = false;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(other) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if !leads && other != pid {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{other}/stat")) else {
            continue;
        };
        let Some((group, ticks)) = parse_stat(&stat) else {
            continue;
        };
        if !((leads && group == pid) || other == pid) {
            continue;
        }
        total.ticks += ticks;
        seen = true;
        // Its threads: under Valgrind the one that runs is rarely the first.
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{other}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let dir = task.path();
            if let Ok(stat) = std::fs::read_to_string(dir.join("stat")) {
                total.runnable |= state(&stat) == Some('R');
            }
            if let Some((ran, waited)) = std::fs::read_to_string(dir.join("schedstat"))
                .ok()
                .as_deref()
                .and_then(parse_schedstat)
            {
                total.ran += ran;
                total.waited += waited;
            }
        }
    }
    seen.then_some(total)
}

/// Outside Linux there is no `/proc` to read.
#[cfg(not(target_os = "linux"))]
pub fn activity(_pid: u32) -> Option<Activity> {
    None
}

/// The state letter of a line of `/proc/PID/stat` (`R` running or runnable, `S` asleep, ...).
#[cfg(any(target_os = "linux", test))]
fn state(stat: &str) -> Option<char> {
    stat[stat.rfind(')')? + 1..]
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

/// The nanoseconds a thread ran and waited in a run queue, from its `schedstat` line.
#[cfg(any(target_os = "linux", test))]
fn parse_schedstat(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace().map(|f| f.parse::<u64>().ok());
    Some((fields.next()??, fields.next()??))
}

/// The process group and the processor time (user and system, its own and its reaped
/// children's) of a line of `/proc/PID/stat`.
#[cfg(any(target_os = "linux", test))]
fn parse_stat(stat: &str) -> Option<(u32, u64)> {
    // The command name, in parentheses, may hold spaces and parentheses: fields follow the last.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (3), ppid (4), pgrp (5), ..., utime (14) to cstime (17).
    let group = fields.get(2)?.parse().ok()?;
    let ticks = (11..15)
        .map(|i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
        .sum::<Option<u64>>()?;
    Some((group, ticks))
}

/// Kills the process group a measured process leads (every process it started that did not
/// leave the group), or the process alone when it is in the harness's group (a command that
/// reads the terminal).
#[cfg(unix)]
pub fn kill_group(pid: u32) {
    let pid = pid as libc::pid_t;
    // SAFETY: signals to a process this harness started and has not reaped yet.
    unsafe {
        if libc::getpgid(pid) == pid {
            libc::killpg(pid, libc::SIGKILL);
        } else {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Kills the process `pid` (outside Unix there are no process groups to kill with it).
#[cfg(not(unix))]
pub fn kill_group(pid: u32) {
    let _ = std::process::Command::new("taskkill")
        .args(["/F", "/T", "/PID", &pid.to_string()])
        .output();
}

/// What a run cost the machine besides its counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// How often its processes waited for the disk: major page faults and blocks read, of the
    /// process and every process it reaped (the kernel's `ru_majflt` and `ru_inblock`), and what
    /// the machine read from its disks while it ran (another process may have read a page one
    /// of them then waited for).
    pub disk_reads: u64,
}

/// Waits for `child` to end, reading its output as it comes, as `Child::wait_with_output`
/// does, and what it and the processes it reaped cost.
#[cfg(unix)]
pub fn wait_with_usage(mut child: Child) -> std::io::Result<(Output, Usage)> {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    drop(child.stdin.take());
    let read = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut stream) = stream {
                stream.read_to_end(&mut bytes)?;
            }
            Ok::<_, std::io::Error>(bytes)
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for a child of this process, which `child` has not reaped.
        let n = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if n == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        if n < 0 && error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    let joined = |handle: std::thread::JoinHandle<std::io::Result<Vec<u8>>>| {
        handle.join().unwrap_or_else(|_| {
            Err(std::io::Error::other(
                "the reader of an output stream panicked",
            ))
        })
    };
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: joined(stdout)?,
        stderr: joined(stderr)?,
    };
    let reads = usage.ru_majflt.max(0) as u64 + usage.ru_inblock.max(0) as u64;
    Ok((output, Usage { disk_reads: reads }))
}

/// Whether `child` has ended (reaping it if it has), with what it and the processes it reaped
/// cost; as `Child::try_wait`, which must not be called on it afterwards.
#[cfg(unix)]
pub fn try_wait_with_usage(
    child: &mut Child,
) -> std::io::Result<Option<(std::process::ExitStatus, Usage)>> {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: asks after a child of this process that `child` has not reaped.
    let n = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    match n {
        0 => Ok(None),
        n if n == pid => {
            let reads = usage.ru_majflt.max(0) as u64 + usage.ru_inblock.max(0) as u64;
            let status = std::process::ExitStatus::from_raw(status);
            Ok(Some((status, Usage { disk_reads: reads })))
        }
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// Outside Unix: the status alone.
#[cfg(not(unix))]
pub fn try_wait_with_usage(
    child: &mut Child,
) -> std::io::Result<Option<(std::process::ExitStatus, Usage)>> {
    Ok(child.try_wait()?.map(|status| (status, Usage::default())))
}

/// Outside Unix: the output alone.
#[cfg(not(unix))]
pub fn wait_with_usage(child: Child) -> std::io::Result<(Output, Usage)> {
    Ok((child.wait_with_output()?, Usage::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_the_group_and_the_ticks_also_with_odd_names() {
        let line = "1234 (a (b) c) S 1 1200 1200 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 5";
        assert_eq!(parse_stat(line), Some((1200, 13)));
        assert_eq!(parse_stat("1234 (short"), None);
        assert_eq!(state(line), Some('S'));
        assert_eq!(state("1234 (a) R 1 1200"), Some('R'));
        assert_eq!(
            parse_schedstat("478085298 138125 7\n"),
            Some((478085298, 138125))
        );
        assert_eq!(parse_schedstat("12"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_sleeping_child_stalls_and_a_busy_one_does_not() {
        use std::os::unix::process::CommandExt;
        let start = |script: &str| {
            std::process::Command::new("sh")
                .args(["-c", script])
                .process_group(0)
                .spawn()
                .unwrap()
        };
        let mut sleeping = start("sleep 30");
        let mut busy = start("while :; do :; done");
        let (a, b) = (sleeping.id(), busy.id());
        // Once it started, the sleeping one uses no processor time; a limit of 0 means stalled
        // as soon as nothing moved since the last reading.
        std::thread::sleep(Duration::from_millis(300));
        let mut idle = Progress::new(a);
        // The first reading only starts the count.
        assert!(!idle.stalled(Duration::ZERO));
        std::thread::sleep(Duration::from_millis(300));
        let idle_stalled = idle.stalled(Duration::ZERO);
        // The busy one's ticks move, however loaded the machine (up to 100 readings).
        let mut working = Progress::new(b);
        assert!(!working.stalled(Duration::ZERO));
        let moved = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            !working.stalled(Duration::ZERO)
        });
        kill_group(a);
        kill_group(b);
        let _ = (sleeping.wait(), busy.wait());
        assert!(idle_stalled);
        assert!(moved);
    }

    /// Two busy processes under `SCHED_FIFO` on one processor: the one behind never runs while
    /// the other spins, yet it is not stalled (it waits for the processor). Where `SCHED_FIFO`
    /// is not permitted, there is nothing to check.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_process_kept_off_its_processor_is_not_stalled() {
        if !super::super::realtime::available() {
            eprintln!("SCHED_FIFO is not permitted here: nothing checked");
            return;
        }
        let Some(&cpu) = super::super::realtime::allowed_cpus().last() else {
            return;
        };
        /// Killed however the test ends: a spinner under `SCHED_FIFO` takes its processor.
        /// Every one is killed before any is waited for: the one kept off the processor only
        /// runs, and so only dies, once the one spinning is gone (waiting for it first hung
        /// with the other spinning, for as long as it was left).
        struct Spinners(Vec<std::process::Child>);
        impl Drop for Spinners {
            fn drop(&mut self) {
                for child in &mut self.0 {
                    let _ = child.kill();
                }
                for child in &mut self.0 {
                    let _ = child.wait();
                }
            }
        }
        let mut spinners = Spinners(Vec::new());
        let mut spin = || {
            let child = std::process::Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .unwrap();
            let pid = child.id() as libc::pid_t;
            spinners.0.push(child);
            // SAFETY: plain system calls on a child of this process, values on the stack.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(cpu, &mut set);
                assert_eq!(
                    libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set),
                    0
                );
                let mut param: libc::sched_param = std::mem::zeroed();
                param.sched_priority = libc::sched_get_priority_min(libc::SCHED_FIFO);
                assert_eq!(libc::sched_setscheduler(pid, libc::SCHED_FIFO, &param), 0);
            }
        };
        spin();
        spin();
        std::thread::sleep(Duration::from_millis(200));
        let mut watched: Vec<Progress> =
            (spinners.0.iter()).map(|c| Progress::new(c.id())).collect();
        for progress in &mut watched {
            assert!(!progress.stalled(Duration::ZERO));
        }
        // One of them has not run since the other took the processor.
        let idle = |p: &Progress| activity(p.pid).map(|a| a.ticks);
        let before: Vec<_> = watched.iter().map(idle).collect();
        std::thread::sleep(Duration::from_millis(300));
        let after: Vec<_> = watched.iter().map(idle).collect();
        assert!(
            before.iter().zip(&after).any(|(b, a)| b == a),
            "one of the two is kept off its processor: {before:?} {after:?}"
        );
        for progress in &mut watched {
            assert!(!progress.stalled(Duration::ZERO));
        }
        drop(spinners);
    }
}
