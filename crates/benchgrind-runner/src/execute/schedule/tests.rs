//! The scheduler with executors that record what they are asked to run; no Valgrind.

use super::*;
use crate::execute::{RunOutput, Status};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

fn job(home: &Path, name: &str, seconds: Option<f64>) -> Job {
    let job = crate::plan::test_job(home, name, crate::cli::Reuse::Off);
    if let Some(s) = seconds {
        record_duration(&job.paths.dir, Duration::from_secs_f64(s));
    }
    job
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
