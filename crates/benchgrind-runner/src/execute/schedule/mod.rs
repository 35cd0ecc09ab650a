//! Parallel execution: workers, each with its own executor (and so its own fork servers), take
//! jobs from one queue, longest expected first (the last run's duration), so that one long
//! benchmark does not leave a core idle at the end; a single worker takes them in plan order.
//! A group's `max_parallel` caps how many of its jobs run at once; the other workers take other
//! groups' jobs meanwhile.
//! A job whose measured run starts other processes runs alone (see [`runs_alone`]).
//! Results come back in completion order; the caller emits them in plan order.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::execute::Executor;
use crate::plan::Job;

/// The file holding a benchmark's last duration, in seconds.
const DURATION_FILE: &str = "duration";

/// The last run's duration of a benchmark, if known.
pub fn expected_duration(dir: &Path) -> Option<Duration> {
    let text = std::fs::read_to_string(dir.join(DURATION_FILE)).ok()?;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// Remembers a benchmark's duration for the next run's ordering (a hint: not waited for on
/// disk).
pub fn record_duration(dir: &Path, duration: Duration) {
    let _ = crate::store::write_hint(
        &dir.join(DURATION_FILE),
        format!("{:.6}\n", duration.as_secs_f64()).as_bytes(),
    );
}

/// The file holding how many processes a benchmark's last measured run had.
const PROCESSES_FILE: &str = "processes";

/// Remembers how many processes a benchmark's measured run had, for the next run's scheduling
/// ([`runs_alone`]; a hint: not waited for on disk).
pub fn record_processes(dir: &Path, processes: usize) {
    let _ = crate::store::write_hint(
        &dir.join(PROCESSES_FILE),
        format!("{processes}\n").as_bytes(),
    );
}

/// Whether a job runs with no other job beside it: one whose last run had more than one
/// measured process, or a binary benchmark not run before whose program is a shell or a script
/// (one that starts others, as wrappers and version managers' shims do). Other commands run
/// beside others on their first run: alone, the 13 single-process commands of the README's
/// binary example took 2.89 s instead of 1.74 s.
///
/// Processes take turns on their processor in an order fixed by real-time scheduling only as
/// long as none of them waits for something outside: a job on the other processor faulting in
/// a page of the same file (the shell, libc, Valgrind's tool) holds that page's lock for a
/// moment, the process of ours that needs it sleeps, and another of ours runs at a point it
/// would not have reached otherwise (traced with the kernel's `sched_switch` events: a sleep in
/// `folio_wait_bit_common` under `filemap_fault`). A pipe of two shells then counted 9
/// instructions more in 4 of 12 runs beside other benchmarks, and 12 of 12 the same alone.
pub fn runs_alone(job: &Job) -> bool {
    let hint = std::fs::read_to_string(job.paths.dir.join(PROCESSES_FILE))
        .ok()
        .and_then(|t| t.trim().parse::<usize>().ok());
    match (hint, &job.kind) {
        (Some(processes), _) => processes > 1,
        (None, crate::plan::JobKind::Binary(binary)) => starts_others(&binary.command.program),
        (None, crate::plan::JobKind::Library(_)) => false,
    }
}

/// Whether `program` (a path, or a name looked up on `PATH`) is a shell or a script: a file
/// that starts with `#!`.
fn starts_others(program: &Path) -> bool {
    const SHELLS: [&str; 7] = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"];
    let name = program.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if SHELLS.contains(&name) {
        return true;
    }
    let found = if program.components().count() > 1 {
        Some(program.to_owned())
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(program))
                .find(|p| p.is_file())
        })
    };
    let mut start = [0u8; 2];
    found
        .and_then(|path| std::fs::File::open(path).ok())
        .is_some_and(|mut file| {
            std::io::Read::read_exact(&mut file, &mut start).is_ok() && start == *b"#!"
        })
}

/// The order in which to start jobs: unknown durations first (in plan order), then the longest.
pub fn start_order(jobs: &[&Job]) -> Vec<usize> {
    let mut order: Vec<(usize, Option<Duration>)> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (i, expected_duration(&j.paths.dir)))
        .collect();
    order.sort_by(|a, b| match (a.1, b.1) {
        (None, None) => a.0.cmp(&b.0),
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => y.cmp(&x).then(a.0.cmp(&b.0)),
    });
    order.into_iter().map(|(i, _)| i).collect()
}

/// The jobs not started yet, and how many jobs of each group are running.
struct Queue {
    waiting: VecDeque<usize>,
    /// Group index to the number of its jobs running.
    running: HashMap<usize, usize>,
    /// Per job, whether it runs alone ([`runs_alone`]).
    alone: Vec<bool>,
    /// How many jobs are running.
    total: usize,
    /// Whether the job running is one that runs alone.
    alone_running: bool,
}

impl Queue {
    /// A queue of `waiting` jobs, none running.
    fn new(waiting: VecDeque<usize>, alone: Vec<bool>) -> Queue {
        Queue {
            waiting,
            running: HashMap::new(),
            alone,
            total: 0,
            alone_running: false,
        }
    }

    /// Takes the first waiting job whose group is below its `max_parallel` and that may start
    /// now: none while a job that runs alone runs, and one that runs alone only when no other
    /// job runs.
    fn take(&mut self, jobs: &[&Job]) -> Option<usize> {
        if self.alone_running {
            return None;
        }
        let (running, alone, total) = (&self.running, &self.alone, self.total);
        let pos = self.waiting.iter().position(|&i| {
            let job = jobs[i];
            let group_free = job.max_parallel.map_or(true, |max| {
                running.get(&job.group).copied().unwrap_or(0) < max
            });
            group_free && (!alone[i] || total == 0)
        })?;
        let i = self.waiting.remove(pos)?;
        *self.running.entry(jobs[i].group).or_default() += 1;
        self.total += 1;
        self.alone_running = self.alone[i];
        Some(i)
    }

    /// Job `i` has finished: its group has a place free, and no job that runs alone runs.
    fn done(&mut self, i: usize, jobs: &[&Job]) {
        if let Some(n) = self.running.get_mut(&jobs[i].group) {
            *n -= 1;
        }
        self.total -= 1;
        if self.alone[i] {
            self.alone_running = false;
        }
    }
}

/// Runs `work` for every job on the executors in parallel and hands each result to `emit` in
/// the main thread as it arrives (with the job's position in `jobs`). `emit` returns `false` to
/// stop: jobs not yet started are then left out; those already running still finish and are
/// handed over. After Ctrl-C or SIGTERM ([`super::interrupt`]) no job starts either. No more
/// jobs of a group run at once than its `max_parallel` ([`Job::max_parallel`]): a worker whose
/// next jobs all belong to groups at their limit waits for one of them to finish.
pub fn run<T, W, E>(jobs: &[&Job], executors: &mut [Box<dyn Executor + Send>], work: W, emit: E)
where
    T: Send,
    W: Fn(&Job, &mut dyn Executor) -> T + Sync,
    E: FnMut(usize, T) -> bool,
{
    let steps = Steps {
        ahead: false,
        prepare: |_: &Job, _: &mut dyn Executor| (),
        finish: |job: &Job, (), ex: &mut dyn Executor| work(job, ex),
    };
    run_pipelined(jobs, executors, steps, emit);
}

/// The two steps of a job for [`run_pipelined`].
pub struct Steps<P, F> {
    /// Whether a worker prepares its next job before it finishes the one before (worth it when
    /// the processors are not all busy running jobs: with fewer workers than processors).
    pub ahead: bool,
    /// Prepares a job, which may start it ([`Executor::start`]).
    pub prepare: P,
    /// Finishes a prepared job.
    pub finish: F,
}

/// [`run`] in two steps per job; with [`Steps::ahead`] a worker's executor runs one job while
/// the worker works on the one before: it prepares the next job (which may start it,
/// [`Executor::start`]), then finishes the job before it, then the next. A job taken early
/// counts as running for its group's `max_parallel`; a worker takes one early only when one is
/// free right away.
pub fn run_pipelined<T, U, P, F, E>(
    jobs: &[&Job],
    executors: &mut [Box<dyn Executor + Send>],
    steps: Steps<P, F>,
    mut emit: E,
) where
    T: Send,
    P: Fn(&Job, &mut dyn Executor) -> U + Sync,
    F: Fn(&Job, U, &mut dyn Executor) -> T + Sync,
    E: FnMut(usize, T) -> bool,
{
    // One worker leaves no core idle whatever the order: plan order then (which a group of
    // 0.9 to 0.12 `Run`s, one at a time in a shared sandbox, also needs).
    let order = match executors.len() {
        1 => (0..jobs.len()).collect(),
        _ => start_order(jobs),
    };
    // With one worker nothing runs beside a job anyway.
    let alone = jobs
        .iter()
        .map(|job| executors.len() > 1 && runs_alone(job))
        .collect();
    let queue = Mutex::new(Queue::new(order.into(), alone));
    let freed = Condvar::new();
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed) || super::interrupt::signal().is_some();
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for executor in executors.iter_mut() {
            let tx = tx.clone();
            let (queue, freed, stopped) = (&queue, &freed, &stopped);
            let (prepare, finish, ahead) = (&steps.prepare, &steps.finish, steps.ahead);
            scope.spawn(move || {
                // Takes the next job: waiting for a place in its group if `wait`, else only
                // one free right away.
                let take = |wait: bool| {
                    let mut queue = queue.lock().expect("no worker panics holding it");
                    loop {
                        if stopped() || queue.waiting.is_empty() {
                            break None;
                        }
                        if let Some(i) = queue.take(jobs) {
                            break Some(i);
                        }
                        if !wait {
                            break None;
                        }
                        // Every waiting job's group is at its limit: one of their running
                        // jobs frees a place when it finishes. The timeout notices a stop.
                        queue = freed
                            .wait_timeout(queue, Duration::from_millis(50))
                            .expect("no worker panics holding it")
                            .0;
                    }
                };
                let mut current: Option<(usize, U)> = None;
                loop {
                    let next = (current.is_none() || ahead)
                        .then(|| take(current.is_none()))
                        .flatten()
                        .map(|i| (i, prepare(jobs[i], executor.as_mut())));
                    let Some((i, prepared)) = current.take() else {
                        match next {
                            Some(next) => current = Some(next),
                            None => break,
                        }
                        continue;
                    };
                    let result = finish(jobs[i], prepared, executor.as_mut());
                    queue
                        .lock()
                        .expect("no worker panics holding it")
                        .done(i, jobs);
                    freed.notify_all();
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                    current = next;
                }
            });
        }
        drop(tx);
        // Jobs already started finish and are handed over even after a stop.
        for (i, result) in rx {
            if !emit(i, result) {
                stop.store(true, Ordering::Relaxed);
                freed.notify_all();
            }
        }
    });
}

#[cfg(test)]
mod tests;
