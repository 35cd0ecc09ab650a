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

/// What a benchmark of several processes says where the kernel's memory monitor (DAMON) runs.
pub const DAMON_ON: &str = "it ran several processes while the kernel's memory monitor DAMON \
was on, whose page checks now and then make one of them wait, so that the others take their \
turns at another point (a bash wrapper of Python moved by 120 instructions in 1 of 12 runs with \
DAMON on, in none of 24 with it off); it was measured until two runs in a row counted the same, \
which they almost always do, but its counts may still move. To count exactly, turn it off: \
`echo off | sudo tee /sys/kernel/mm/damon/admin/kdamonds/*/state`";

/// Whether a DAMON monitor runs (`/sys/kernel/mm/damon/admin/kdamonds/N/state` is `on`); read
/// once.
pub fn damon_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        let Ok(entries) = std::fs::read_dir("/sys/kernel/mm/damon/admin/kdamonds") else {
            return false;
        };
        entries.flatten().any(|e| {
            std::fs::read_to_string(e.path().join("state")).is_ok_and(|s| s.trim() == "on")
        })
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
mod tests {
    use super::*;
    use crate::config::resolve;
    use crate::execute::{RunOutput, Status};
    use crate::plan::{BenchId, JobKind};
    use crate::store::BenchPaths;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    fn job(home: &Path, name: &str, seconds: Option<f64>) -> Job {
        let paths = BenchPaths::new(home, "p", "f", "g", name, None);
        std::fs::create_dir_all(&paths.dir).unwrap();
        if let Some(s) = seconds {
            record_duration(&paths.dir, Duration::from_secs_f64(s));
        }
        Job {
            group: 0,
            max_parallel: None,
            kind: JobKind::Library([0, 0, 0]),
            id: BenchId {
                file: "f".into(),
                group: "g".into(),
                function: name.into(),
                id: None,
                args: String::new(),
                truncate: None,
            },
            function_path: "",
            config: resolve([]),
            paths,
            reuse: crate::cli::Reuse::Off,
        }
    }

    /// Records the order in which jobs start; no Valgrind.
    struct Recorder(Arc<Mutex<Vec<String>>>, Arc<AtomicUsize>);

    impl Executor for Recorder {
        fn run(&mut self, job: &Job) -> RunOutput {
            self.0.lock().unwrap().push(job.id.function.clone());
            self.1.fetch_add(1, Ordering::SeqCst);
            RunOutput {
                status: Status::Ok,
                duration: Duration::ZERO,
                output: Default::default(),
                reuse: Default::default(),
            }
        }

        fn run_tool(&mut self, job: &Job, _tool: &crate::config::Tool) -> RunOutput {
            self.run(job)
        }
    }

    #[test]
    fn unknown_first_then_longest_first_but_plan_order_for_one_worker() {
        let tmp = tempfile::tempdir().unwrap();
        let jobs = [
            job(tmp.path(), "short", Some(0.1)),
            job(tmp.path(), "new_a", None),
            job(tmp.path(), "long", Some(3.0)),
            job(tmp.path(), "new_b", None),
            job(tmp.path(), "middle", Some(1.0)),
        ];
        let refs: Vec<&Job> = jobs.iter().collect();
        assert_eq!(start_order(&refs), [1, 3, 2, 4, 0]);

        // One worker leaves no core idle whatever the order: it takes them in plan order.
        let started = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder(started.clone(), Arc::new(AtomicUsize::new(0)));
        let mut executors: Vec<Box<dyn Executor + Send>> = vec![Box::new(recorder)];
        run(&refs, &mut executors, |j, e| e.run(j).status, |_, _| true);
        let names: Vec<&str> = jobs.iter().map(|j| j.id.function.as_str()).collect();
        assert_eq!(*started.lock().unwrap(), names);
    }

    #[test]
    fn every_job_runs_once_and_emission_can_stop_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let jobs: Vec<Job> = (0..20)
            .map(|i| job(tmp.path(), &format!("j{i}"), None))
            .collect();
        let refs: Vec<&Job> = jobs.iter().collect();
        let started = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let mut executors: Vec<Box<dyn Executor + Send>> = (0..3)
            .map(|_| Box::new(Recorder(started.clone(), count.clone())) as Box<dyn Executor + Send>)
            .collect();
        let mut seen = Vec::new();
        run(
            &refs,
            &mut executors,
            |j, e| (j.id.function.clone(), e.run(j).status),
            |i, r| {
                seen.push((i, r.0));
                true
            },
        );
        seen.sort();
        assert_eq!(seen.len(), 20);
        assert!(seen
            .iter()
            .enumerate()
            .all(|(n, (i, name))| n == *i && *name == format!("j{i}")));

        // Stopping after the first result: every job that started is still handed over, so the
        // number handed over is the number started (how many depends on timing).
        count.store(0, Ordering::SeqCst);
        let mut emitted = 0;
        run(
            &refs,
            &mut executors,
            |j, e| e.run(j).status,
            |_, _| {
                emitted += 1;
                false
            },
        );
        assert!(emitted >= 1);
        assert_eq!(emitted, count.load(Ordering::SeqCst));
    }

    /// Counts, per group, how many of its jobs run at once and the most that ever did; each job
    /// takes a while, so that jobs overlap whenever the scheduler lets them.
    struct Overlap(Arc<Mutex<HashMap<usize, (usize, usize)>>>);

    impl Executor for Overlap {
        fn run(&mut self, job: &Job) -> RunOutput {
            {
                let mut counts = self.0.lock().unwrap();
                let (now, most) = counts.entry(job.group).or_default();
                *now += 1;
                *most = (*most).max(*now);
            }
            std::thread::sleep(Duration::from_millis(100));
            self.0.lock().unwrap().get_mut(&job.group).unwrap().0 -= 1;
            RunOutput {
                status: Status::Ok,
                duration: Duration::ZERO,
                output: Default::default(),
                reuse: Default::default(),
            }
        }

        fn run_tool(&mut self, job: &Job, _tool: &crate::config::Tool) -> RunOutput {
            self.run(job)
        }
    }

    #[test]
    fn max_parallel_caps_a_groups_jobs_while_other_groups_use_the_workers() {
        let tmp = tempfile::tempdir().unwrap();
        // Group 0 at most one at a time, group 1 at most two, group 2 without a limit; in plan
        // order the capped groups come first, so that the workers must skip over their jobs.
        let mut jobs = Vec::new();
        for (group, max_parallel) in [(0, Some(1)), (1, Some(2)), (2, None)] {
            for i in 0..6 {
                let mut job = job(tmp.path(), &format!("g{group}_{i}"), None);
                job.group = group;
                job.max_parallel = max_parallel;
                jobs.push(job);
            }
        }
        let refs: Vec<&Job> = jobs.iter().collect();
        let counts = Arc::new(Mutex::new(HashMap::new()));
        let mut executors: Vec<Box<dyn Executor + Send>> = (0..4)
            .map(|_| Box::new(Overlap(counts.clone())) as Box<dyn Executor + Send>)
            .collect();
        let mut seen = Vec::new();
        run(
            &refs,
            &mut executors,
            |j, e| e.run(j).status,
            |i, _| {
                seen.push(i);
                true
            },
        );
        seen.sort();
        assert_eq!(seen, (0..18).collect::<Vec<_>>(), "every job ran once");
        let counts = counts.lock().unwrap();
        assert_eq!(counts[&0], (0, 1), "group 0 ran one job at a time");
        assert_eq!(counts[&1].1, 2, "group 1 ran two at a time, never more");
        // Four workers, two of them free while groups 0 and 1 are at their limits: the
        // unlimited group ran several at once.
        assert!(counts[&2].1 >= 2, "{:?}", counts[&2]);
    }

    #[test]
    fn ahead_a_worker_prepares_the_next_job_before_it_finishes_the_one_before() {
        let tmp = tempfile::tempdir().unwrap();
        // Group 1 one at a time: its second job cannot be taken early.
        let mut jobs: Vec<Job> = ["a", "b", "c", "d"]
            .iter()
            .map(|name| job(tmp.path(), name, None))
            .collect();
        jobs[2].group = 1;
        jobs[2].max_parallel = Some(1);
        jobs[3].group = 1;
        jobs[3].max_parallel = Some(1);
        let refs: Vec<&Job> = jobs.iter().collect();
        for ahead in [true, false] {
            let events = Mutex::new(Vec::new());
            let started = Arc::new(Mutex::new(Vec::new()));
            let recorder = Recorder(started.clone(), Arc::new(AtomicUsize::new(0)));
            let mut executors: Vec<Box<dyn Executor + Send>> = vec![Box::new(recorder)];
            let name = |j: &Job| j.id.function.clone();
            let steps = Steps {
                ahead,
                prepare: |j: &Job, _: &mut dyn Executor| {
                    events.lock().unwrap().push(format!("prepare {}", name(j)));
                    name(j)
                },
                finish: |j: &Job, prepared: String, e: &mut dyn Executor| {
                    assert_eq!(prepared, name(j));
                    events.lock().unwrap().push(format!("finish {}", name(j)));
                    e.run(j).status
                },
            };
            let mut emitted = Vec::new();
            run_pipelined(&refs, &mut executors, steps, |i, _| {
                emitted.push(i);
                true
            });
            assert_eq!(emitted, [0, 1, 2, 3]);
            let events = events.into_inner().unwrap();
            let expected: &[&str] = if ahead {
                // d waits for c's place in group 1: taken only once c is finished.
                &[
                    "prepare a",
                    "prepare b",
                    "finish a",
                    "prepare c",
                    "finish b",
                    "finish c",
                    "prepare d",
                    "finish d",
                ]
            } else {
                &[
                    "prepare a",
                    "finish a",
                    "prepare b",
                    "finish b",
                    "prepare c",
                    "finish c",
                    "prepare d",
                    "finish d",
                ]
            };
            assert_eq!(events, expected, "ahead: {ahead}");
        }
    }

    #[test]
    fn a_queue_skips_jobs_of_groups_at_their_limit_and_frees_places() {
        let tmp = tempfile::tempdir().unwrap();
        let mut jobs: Vec<Job> = (0..3)
            .map(|i| job(tmp.path(), &format!("j{i}"), None))
            .collect();
        jobs[0].max_parallel = Some(1);
        jobs[1].max_parallel = Some(1);
        jobs[2].group = 1;
        let refs: Vec<&Job> = jobs.iter().collect();
        let mut queue = Queue::new((0..3).collect(), vec![false; 3]);
        assert_eq!(queue.take(&refs), Some(0));
        // Job 1 waits for job 0 (same group, limit 1); job 2 is of another group.
        assert_eq!(queue.take(&refs), Some(2));
        assert_eq!(queue.take(&refs), None);
        queue.done(0, &refs);
        assert_eq!(queue.take(&refs), Some(1));
        assert!(queue.waiting.is_empty());
    }

    #[test]
    fn a_job_that_runs_alone_waits_for_the_others_and_they_wait_for_it() {
        let tmp = tempfile::tempdir().unwrap();
        let jobs: Vec<Job> = (0..4)
            .map(|i| job(tmp.path(), &format!("j{i}"), None))
            .collect();
        let refs: Vec<&Job> = jobs.iter().collect();
        let mut queue = Queue::new((0..4).collect(), vec![false, true, false, true]);
        assert_eq!(queue.take(&refs), Some(0));
        // Job 1 runs alone: job 2 starts beside job 0 instead.
        assert_eq!(queue.take(&refs), Some(2));
        assert_eq!(queue.take(&refs), None);
        queue.done(0, &refs);
        assert_eq!(queue.take(&refs), None, "job 2 still runs");
        queue.done(2, &refs);
        assert_eq!(queue.take(&refs), Some(1));
        // Nothing beside it, not even the other job that runs alone.
        assert_eq!(queue.take(&refs), None);
        queue.done(1, &refs);
        assert_eq!(queue.take(&refs), Some(3));
        queue.done(3, &refs);
        assert!(queue.waiting.is_empty());
    }

    #[test]
    fn shells_and_scripts_start_others_and_programs_do_not() {
        let tmp = tempfile::tempdir().unwrap();
        let script = tmp.path().join("wrapper");
        std::fs::write(&script, "#!/bin/sh\nexec true\n").unwrap();
        let program = tmp.path().join("program");
        std::fs::write(&program, b"\x7fELF").unwrap();
        assert!(starts_others(&script));
        assert!(!starts_others(&program));
        assert!(starts_others(Path::new("sh")));
        assert!(starts_others(Path::new("/usr/local/bin/bash")));
        assert!(!starts_others(Path::new("/nonexistent/x")));
        // A name on PATH: `true` is a program on every Linux.
        assert!(!starts_others(Path::new("true")));
    }

    #[test]
    fn what_runs_alone_is_read_from_the_last_run() {
        let tmp = tempfile::tempdir().unwrap();
        let library = job(tmp.path(), "lib", None);
        assert!(!runs_alone(&library), "a library benchmark not run before");
        record_processes(&library.paths.dir, 3);
        assert!(runs_alone(&library), "one that started two more processes");
        record_processes(&library.paths.dir, 1);
        assert!(!runs_alone(&library));
    }

    #[test]
    fn on_the_workers_a_job_that_runs_alone_never_overlaps_another() {
        let tmp = tempfile::tempdir().unwrap();
        let jobs: Vec<Job> = (0..8)
            .map(|i| {
                let job = job(tmp.path(), &format!("j{i}"), None);
                record_processes(&job.paths.dir, if i % 3 == 1 { 2 } else { 1 });
                job
            })
            .collect();
        let refs: Vec<&Job> = jobs.iter().collect();
        // Which jobs run now, and per job the most jobs that ran at once while it ran.
        type State = (Vec<bool>, Vec<usize>);
        let state: Arc<Mutex<State>> = Arc::new(Mutex::new((vec![false; 8], vec![0; 8])));
        struct Beside(Arc<Mutex<State>>);
        impl Executor for Beside {
            fn run(&mut self, job: &Job) -> RunOutput {
                let i: usize = job.id.function[1..].parse().unwrap();
                {
                    let (running, most) = &mut *self.0.lock().unwrap();
                    running[i] = true;
                    let n = running.iter().filter(|r| **r).count();
                    for (j, _) in running.iter().enumerate().filter(|(_, r)| **r) {
                        most[j] = most[j].max(n);
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
                self.0.lock().unwrap().0[i] = false;
                RunOutput {
                    status: Status::Ok,
                    duration: Duration::ZERO,
                    output: Default::default(),
                    reuse: Default::default(),
                }
            }

            fn run_tool(&mut self, job: &Job, _tool: &crate::config::Tool) -> RunOutput {
                self.run(job)
            }
        }
        let mut executors: Vec<Box<dyn Executor + Send>> = (0..3)
            .map(|_| Box::new(Beside(state.clone())) as Box<dyn Executor + Send>)
            .collect();
        run(&refs, &mut executors, |j, e| e.run(j).status, |_, _| true);
        let most = state.lock().unwrap().1.clone();
        for (i, most) in most.iter().enumerate() {
            if i % 3 == 1 {
                assert_eq!(*most, 1, "job {i} ran beside another: {most}");
            }
        }
        // The others did run side by side.
        assert!(most.iter().any(|&m| m > 1), "{most:?}");
    }
}
