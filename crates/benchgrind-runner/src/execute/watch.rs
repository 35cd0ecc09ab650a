//! How long a measured run may go on, and what it cost the machine besides its counts.
//!
//! There is no wall-clock limit unless one is configured (`timeout`, `--timeout`), as in
//! iai-callgrind and gungraun: under Callgrind a benchmark of billions of instructions takes
//! minutes, and on a loaded machine longer, so a default limit failed benchmarks that were still
//! making progress (three of csidh's went past 300 s). What is stopped by default is a run that
//! makes none: one whose processes used no processor time at all for [`Limits::stall`] (a
//! process waiting on something that never comes, a daemon a command left running). Progress is
//! the processor time of the measured process's group, read from `/proc` now and then
//! ([`sample`]) while it runs.
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
    /// How long its processes may use no processor time before it is stopped.
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
    /// Its processes used no processor time for this long.
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
                "made no progress for {} s (its processes used no processor time: waiting on \
                 something that never came, or a process it left running), so they were killed; \
                 a benchmark that waits that long on purpose raises the limit with \
                 `--stall-limit=DURATION`",
                limit.as_secs_f64()
            ),
        }
    }
}

/// Watches the run of `pid` (the leader of its process group, or a process alone) until `done`
/// closes; kills its group and says why when it goes past a limit.
pub fn watch(pid: u32, limits: Limits, done: Receiver<()>) -> Option<Stopped> {
    let start = Instant::now();
    let mut progress = Progress::new(pid);
    loop {
        let every = sample(limits.stall);
        let wait = match limits.timeout {
            Some(limit) => (start + limit)
                .saturating_duration_since(Instant::now())
                .min(every),
            None => every,
        };
        match done.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {}
            _ => return None,
        }
        let stopped = match limits.timeout {
            Some(limit) if start.elapsed() >= limit => Some(Stopped::TimedOut(limit)),
            _ => progress
                .stalled(limits.stall)
                .then_some(Stopped::Stalled(limits.stall)),
        };
        if stopped.is_some() {
            kill_group(pid);
            return stopped;
        }
    }
}

/// The processor time a running group has used, read now and then: first at the first
/// [`Progress::stalled`], so that a run that ends before then (nearly every one) reads nothing.
pub struct Progress {
    pid: u32,
    /// The last reading, once there was one.
    last: Option<Option<u64>>,
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

    /// Reads the group's processor time; whether it has not moved for `limit` since the first
    /// reading that found it where it is. Where it cannot be read (outside Linux) a run never
    /// stalls.
    pub fn stalled(&mut self, limit: Duration) -> bool {
        let now = cpu_ticks(self.pid);
        if now.is_none() || self.last != Some(now) {
            self.last = Some(now);
            self.since = Instant::now();
            return false;
        }
        self.since.elapsed() >= limit
    }
}

/// The processor time, in clock ticks, of the live processes of the group `pid` leads (the
/// process alone if it leads none) and of the processes they reaped: what a process that ended
/// used moves into its parent's count when the parent reaps it, so the sum only grows while any
/// of them runs.
#[cfg(target_os = "linux")]
pub fn cpu_ticks(pid: u32) -> Option<u64> {
    // SAFETY: getpgid only reads the process table.
    let leads = unsafe { libc::getpgid(pid as libc::pid_t) } == pid as libc::pid_t;
    let mut total = 0u64;
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
        if let Some((group, ticks)) = parse_stat(&stat) {
            if (leads && group == pid) || other == pid {
                total += ticks;
                seen = true;
            }
        }
    }
    seen.then_some(total)
}

/// Outside Linux there is no `/proc` to read.
#[cfg(not(target_os = "linux"))]
pub fn cpu_ticks(_pid: u32) -> Option<u64> {
    None
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

/// At most this many runs of one measurement of several processes ([`Rerun`]).
pub const MOST_RUNS: usize = 5;

/// Whether a measurement of several processes is made again.
///
/// Its processes take turns on one processor in the same order on every run unless one of them
/// waits where it did not choose to. One that waited for the disk (a file not yet in the page
/// cache: the first run of a command after a build, or after the cache was dropped) lets another
/// run at another point: a pipe of three shells counted 9 instructions more, bash behind Python
/// 120 (measured with the page cache dropped every 50 ms: 3 of 6 runs moved, none with it warm).
/// The next run finds the files in the cache; it stands once two runs in a row count the same
/// (under Valgrind 3.24 one run after a dropped page cache still moved by 5 instructions, with
/// no read of its own). Where the kernel's memory monitor DAMON runs, its page checks make a
/// process wait now and then too, unseen: there too a measurement stands once two runs in a row
/// count the same. The bench harness and `suite measure` both ask it.
#[derive(Debug, Default)]
pub struct Rerun {
    runs: usize,
    /// The counts of the run before.
    before: Option<Vec<u64>>,
    /// Whether a run so far waited for the disk: then it stands only once two runs in a row
    /// count the same (the run right after may still meet the machine writing back or reading
    /// what the first brought in).
    waited: bool,
}

impl Rerun {
    /// After a run of `processes` processes that waited for the disk `disk_reads` times and
    /// counted `totals`: why it is to be made again, if it is.
    pub fn again(&mut self, processes: usize, disk_reads: u64, totals: &[u64]) -> Option<String> {
        self.runs += 1;
        let last = self.before.replace(totals.to_vec());
        if processes < 2 || self.runs >= MOST_RUNS {
            return None;
        }
        if disk_reads > 0 {
            self.waited = true;
            return Some(format!(
                "the disk was read during its run ({disk_reads} reads)"
            ));
        }
        let agreeing = last.as_deref() == Some(totals);
        if self.waited && !agreeing {
            return Some(
                "it waited for the disk, and no two runs in a row counted the same yet".into(),
            );
        }
        if super::schedule::damon_on() && !agreeing {
            return Some("DAMON runs, and no two runs in a row counted the same yet".to_owned());
        }
        None
    }

    /// How many runs were made.
    pub fn runs(&self) -> usize {
        self.runs
    }
}

/// The blocks the machine has read from its disks since it started (`pgpgin` of `/proc/vmstat`,
/// in KiB), where it says.
pub fn machine_reads() -> Option<u64> {
    let vmstat = std::fs::read_to_string("/proc/vmstat").ok()?;
    let line = vmstat.lines().find_map(|l| l.strip_prefix("pgpgin "))?;
    line.trim().parse().ok()
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
    }

    #[test]
    fn several_processes_that_waited_for_the_disk_are_measured_again_up_to_five_runs() {
        let mut one = Rerun::default();
        assert_eq!(one.again(1, 10, &[5]), None, "one process takes no turns");
        let mut several = Rerun::default();
        let again: Vec<bool> = (0..5)
            .map(|_| several.again(3, 10, &[5]).is_some())
            .collect();
        assert_eq!(again, [true, true, true, true, false]);
        assert_eq!(several.runs(), 5);
        // After a wait, the next run stands only when the one after it counts the same.
        let mut cold = Rerun::default();
        assert!(cold.again(3, 10, &[7]).is_some());
        assert!(cold.again(3, 0, &[5]).is_some(), "5 after 7: not yet");
        assert_eq!(cold.again(3, 0, &[5]), None);
        // No wait for the disk, and the same counts as the run before: it stands, DAMON or not.
        let mut warm = Rerun::default();
        let _ = warm.again(3, 0, &[5]);
        assert_eq!(warm.again(3, 0, &[5]), None);
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
}
