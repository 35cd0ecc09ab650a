//! Running the plan: groups with a setup or teardown run on their own, with their hooks around
//! them; consecutive groups without hooks form one phase whose benchmarks run in parallel
//! ([`crate::execute::schedule`]). A group of iai-callgrind 0.9 to 0.12 `Run`s also runs on its
//! own, one benchmark at a time, in the sandbox its hooks and commands share
//! ([`SharedSandbox`]), as does one with a job that measures its `before` (`bench = true`,
//! planned first) or `after` (last). Results are reported in plan order as they come in. A failing
//! benchmark is recorded and the run goes on; a regression with fail-fast ends it. Ctrl-C or
//! SIGTERM ([`crate::execute::interrupt`]) ends it too: what finished is reported, the rest is
//! listed as not run.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::time::Instant;

use super::bench::{finish, prepare};
use super::emit::Emitter;
use crate::cli::Cli;
use crate::error::FileResult;
use crate::execute::{interrupt, schedule, Executor, SharedSandbox};
use crate::messages;
use crate::plan::{Job, JobKind, Plan};
use crate::report::progress::Progress;
use crate::report::{Reporter, RunSummary};
use crate::result::BenchResult;
use crate::spec::{HookKind, Main};

/// A group's `compare_by_id`, setup and teardown (those the harness calls: not those measured
/// with `bench = true`, whose jobs run in their place).
#[derive(Debug, Clone, Copy)]
pub(super) struct GroupHooks {
    compare_by_id: bool,
    /// Called before the group's benchmarks.
    pub setup: Option<fn()>,
    /// Called after them.
    pub teardown: Option<fn()>,
    /// Whether its benchmarks run one at a time, in plan order, on their own: a group of `Run`s,
    /// or one with a job that measures its `before` or `after` (planned first and last).
    one_at_a_time: bool,
}

impl GroupHooks {
    /// Whether the group runs on its own, with its hooks around it.
    fn alone(&self) -> bool {
        self.setup.is_some() || self.teardown.is_some() || self.one_at_a_time
    }
}

/// Runs every job and reports each in plan order; returns the run's tally.
pub fn execute_plan(
    main: &Main,
    plan: &Plan,
    (cli, records): (&Cli, &crate::execute::reuse::Records),
    executors: &mut [Box<dyn Executor + Send>],
    (reporter, out): (&mut dyn Reporter, &mut dyn Write),
    mut progress: Progress,
    fingerprint: Option<crate::fingerprint::Fingerprint>,
) -> RunSummary {
    let start = Instant::now();
    let mut summary = RunSummary {
        file: main.bench_file.to_owned(),
        ..RunSummary::default()
    };
    let hooks = group_hooks(main, plan);
    let runs = cli.load_baseline.is_none();
    let mut emitter = Emitter {
        cli,
        runs,
        reporter,
        out,
        progress: &mut progress,
        summary: &mut summary,
        by_id: HashMap::new(),
        history: crate::report::history::Recorder::new(
            runs && !cli.no_history,
            &plan.home,
            main.package,
            main.bench_file,
        ),
        fingerprint,
        symbols: Default::default(),
    };
    let mut stopped = false;
    for phase in phases(&hooks) {
        let jobs: Vec<&Job> = plan
            .jobs
            .iter()
            .filter(|j| phase.contains(&j.group))
            .collect();
        if jobs.is_empty() {
            continue;
        }
        if interrupt::signal().is_some() {
            let ids = jobs.iter().map(|j| j.id.full());
            emitter.summary.not_run.extend(ids);
            continue;
        }
        if stopped {
            emitter.summary.skipped += jobs.len();
            continue;
        }
        // The hooks of a group that runs alone, around it; none when nothing runs. A group of
        // `Run`s (iai-callgrind 0.9 to 0.12) runs its hooks and commands in its shared sandbox,
        // one at a time.
        let alone = Some(hooks[phase[0]]).filter(|_| runs && phase.len() == 1);
        let shared = alone.and_then(|_| shared_sandbox(&jobs, main));
        if let Some(setup) = alone.and_then(|h| h.setup) {
            call_in(shared.as_ref(), setup);
        }
        // perf's times depend on what else runs: a phase with benchmarks perf samples runs one
        // benchmark at a time.
        let one_at_a_time =
            alone.is_some_and(|h| h.one_at_a_time) || jobs.iter().any(|j| super::perf::samples(j));
        let workers = if one_at_a_time { 1 } else { executors.len() };
        // One at a time, the plan's order puts a measured `before` first and `after` last.
        let phase = Phase {
            main,
            cli,
            records,
            jobs: &jobs,
            hooks: &hooks,
        };
        stopped = phase.run(&mut executors[..workers], &mut emitter);
        let teardown = alone
            .and_then(|h| h.teardown)
            .filter(|_| interrupt::signal().is_none());
        if let Some(teardown) = teardown {
            call_in(shared.as_ref(), teardown);
        }
    }
    emitter
        .history
        .finish(std::path::Path::new(main.manifest_dir));
    progress.clear();
    summary.interrupted = interrupt::signal();
    summary.seconds = start.elapsed().as_secs_f64();
    if summary.verified > 0 {
        messages::note!(
            "--verify-reuse: {} benchmark{} whose record of inputs matched measured the counts \
             that would have been reused",
            summary.verified,
            if summary.verified == 1 { "" } else { "s" }
        );
    }
    summary
}

/// The hooks of every group: library groups first, then binary groups, as numbered in
/// `Job::group`. A `before` or `after` measured with `bench = true` is left to its job when the
/// plan has it (the filters may leave it out: then the harness calls the hook, unmeasured).
pub(super) fn group_hooks(main: &Main, plan: &Plan) -> Vec<GroupHooks> {
    let library = main.groups.iter().map(|g| GroupHooks {
        compare_by_id: g.compare_by_id,
        setup: g.setup,
        teardown: g.teardown,
        one_at_a_time: false,
    });
    let first_binary = main.groups.len();
    let binary = main.binary_groups.iter().enumerate().map(|(i, g)| {
        let planned = |kind| {
            plan.jobs.iter().any(|j| {
                j.group == first_binary + i
                    && matches!(&j.kind, JobKind::Binary(b) if b.hook == Some(kind))
            })
        };
        let (before, after) = (planned(HookKind::Before), planned(HookKind::After));
        // A group of `Run`s (iai-callgrind 0.9 to 0.12) runs one command at a time, as there.
        let runs = g
            .benchmarks
            .iter()
            .any(|b| b.benches.iter().any(|b| b.legacy));
        GroupHooks {
            compare_by_id: g.compare_by_id,
            setup: g.setup.filter(|_| !before),
            teardown: g.teardown.filter(|_| !after),
            one_at_a_time: before || after || runs,
        }
    });
    library.chain(binary).collect()
}

/// The shared sandbox of the phase's group of `Run`s, if it has one, open.
pub(super) fn shared_sandbox(jobs: &[&Job], main: &Main) -> Option<SharedSandbox> {
    let (group, config) = jobs.iter().find_map(|job| match &job.kind {
        JobKind::Binary(b) if b.shared_sandbox => Some((job.group, b.sandbox.as_ref()?)),
        _ => None,
    })?;
    let root = std::path::Path::new(main.workspace_root);
    Some(SharedSandbox::open(group, config, root))
}

/// Calls a group's `before` or `after` in the harness: in the group's shared sandbox if it has
/// one (not at all if that could not be made: the group's jobs fail with the reason), else
/// where the harness runs. No other thread of the harness uses the working directory while no
/// benchmark runs, and it is restored right after.
pub(super) fn call_in(shared: Option<&SharedSandbox>, hook: fn()) {
    let Some(shared) = shared else {
        return hook();
    };
    let Some(dir) = shared.path() else {
        return;
    };
    let moved = std::env::current_dir()
        .and_then(|back| {
            std::env::set_current_dir(dir)?;
            Ok(back)
        })
        .file_op("change to its sandbox", dir);
    match moved {
        Ok(back) => {
            hook();
            if let Err(e) = std::env::set_current_dir(&back).file_op("return to", &back) {
                messages::warning!("after a group's hook: {e}");
            }
        }
        Err(e) => messages::warning!("a group's before/after hook was not run: {e}"),
    }
}

/// The groups of each phase: a group with hooks alone, consecutive groups without together.
fn phases(hooks: &[GroupHooks]) -> Vec<Vec<usize>> {
    let mut phases: Vec<Vec<usize>> = Vec::new();
    let mut previous_alone = true;
    for (g, hook) in hooks.iter().enumerate() {
        let alone = hook.alone();
        if alone || previous_alone || phases.is_empty() {
            phases.push(Vec::new());
        }
        phases.last_mut().expect("just pushed").push(g);
        previous_alone = alone;
    }
    phases
}

/// The benchmarks of one phase.
struct Phase<'a> {
    main: &'a Main,
    cli: &'a Cli,
    records: &'a crate::execute::reuse::Records,
    jobs: &'a [&'a Job],
    hooks: &'a [GroupHooks],
}

impl Phase<'_> {
    /// Runs the phase's benchmarks in parallel and reports them in plan order; returns whether
    /// fail-fast stopped the run (the benchmarks not started then count as skipped).
    fn run(&self, executors: &mut [Box<dyn Executor + Send>], emitter: &mut Emitter) -> bool {
        let jobs = self.jobs;
        let mut pending: BTreeMap<usize, BenchResult> = BTreeMap::new();
        let mut next = 0;
        let mut emitted = 0;
        let mut stopped = false;
        // With a processor to spare, each worker prepares (and starts) its next benchmark
        // before it finishes the one before, so that its fork server runs one while the
        // harness reads the other's results (with every processor running benchmarks that
        // only adds to the contention: measured 3 % slower on 2 cores).
        let processors = std::thread::available_parallelism().map_or(1, usize::from);
        let steps = schedule::Steps {
            ahead: executors.len() < processors,
            prepare: |job: &Job, executor: &mut dyn Executor| {
                prepare(self.main, job, (self.cli, self.records), executor)
            },
            finish: |job: &Job, prepared, executor: &mut dyn Executor| {
                finish(job, (self.cli, self.records), executor, prepared)
            },
        };
        schedule::run_pipelined(jobs, executors, steps, |i, result| {
            // A benchmark killed by the interrupt was not run; one that finished was.
            if interrupt::signal().is_some() && result.failed() {
                return false;
            }
            pending.insert(i, result);
            while let Some(result) = pending.remove(&next) {
                let job = jobs[next];
                next += 1;
                emitted += 1;
                stopped |= emitter.emit(job, result, self.hooks[job.group].compare_by_id);
            }
            // After a fail-fast stop, benchmarks already running still finish and are
            // reported; only those not yet started are left out.
            !stopped
        });
        // What ran after a stop, in plan order, around the benchmarks that never started.
        let mut done = vec![false; jobs.len()];
        done[..next].fill(true);
        for (i, result) in pending {
            emitted += 1;
            done[i] = true;
            emitter.emit(jobs[i], result, self.hooks[jobs[i].group].compare_by_id);
        }
        if interrupt::signal().is_some() {
            let not_run = jobs.iter().zip(done).filter(|(_, d)| !d);
            emitter
                .summary
                .not_run
                .extend(not_run.map(|(j, _)| j.id.full()));
            return true;
        }
        if stopped {
            emitter.summary.skipped += jobs.len() - emitted;
        }
        stopped
    }
}
