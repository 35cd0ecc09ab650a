//! One benchmark, measured (or loaded from a baseline) and related to what it is compared
//! with: Callgrind's run, its limits, the other tools, the flamegraphs. Runs in a worker thread;
//! reporting is [`super::emit`]'s.
//!
//! Each profile is read once ([`crate::parse::profile`]): the one compared with before the run
//! replaces it, the new one after; the totals, the parts, the explanation and the flamegraphs
//! all come from those two reads, which go as far as they are needed ([`Read`]).

use crate::error::Problem;
use std::time::Duration;

use super::baseline::{load, promote_and_save, read_old};
use crate::cli::Cli;
use crate::cli::Reuse;
use crate::compare::{layout, regression};
use crate::config::ExplainPolicy;
use crate::config::{AnyMetric, ValgrindTool};
use crate::execute::machine;
use crate::execute::rerun::Rerun;
use crate::execute::reuse::{Logs, Records, Verdict};
use crate::execute::{Captured, Executor, RunOutput, Status};
use crate::messages;
use crate::metrics::Metrics;
use crate::parse::profile::{self, Profile, Read};
use crate::plan::{Job, JobKind};
use crate::report::flamegraph;
use crate::result::{BenchResult, Outcome, Source, View};
use crate::spec::Main;
use crate::store::Which;

use super::replay::{differs_from_reused, save_output, saved_output};

/// Callgrind's files of a run, rotated together.
pub(super) const FILES: [&str; 2] = ["callgrind.out", "callgrind.log"];

/// The new profile and the one compared with.
type Values = (Profile, Option<Profile>);

/// How far the profile compared with is read: in full when an explanation or a differential
/// flamegraph may need it, else its functions' self costs (which tell a change of layout from
/// one of code, [`crate::compare::layout`]).
fn old_read(cli: &Cli, job: &Job) -> Read {
    let flamegraph = job
        .config
        .flamegraph
        .as_ref()
        .is_some_and(flamegraph::wants_old);
    if cli.explain != ExplainPolicy::Never || flamegraph {
        Read::Full
    } else {
        Read::Functions
    }
}

/// How far the new profile is read: in full for an explanation (there is an old one) or a
/// flamegraph; else its functions' self costs when there is an old one or shifted layouts to
/// compare with (`--layout-spread`); else its totals.
fn new_read(cli: &Cli, job: &Job, old: Option<&Profile>) -> Read {
    let explain = cli.explain != ExplainPolicy::Never && old.is_some();
    if explain || job.config.flamegraph.is_some() {
        Read::Full
    } else if old.is_some() || cli.layout_spread.is_some() {
        Read::Functions
    } else {
        Read::Totals
    }
}

/// A benchmark prepared for its run, which may have started ([`prepare`]); [`finish`] waits for
/// it and relates it to what it is compared with.
pub(super) struct Prepared {
    result: BenchResult,
    compare_with: Source,
    /// For a run of Callgrind: what it is compared with, read before the run replaces it.
    old: Option<Result<Option<Profile>, Problem>>,
    /// A library benchmark's verdict on its record of inputs (a binary benchmark's executor
    /// decides after its setup).
    verdict: Verdict,
    /// Under `--verify-reuse`: the last results' metrics, which a matching record promises.
    last: Option<Metrics>,
}

/// Reads what a run of Callgrind compares with and starts the run, if the executor can start it
/// without waiting for it ([`Executor::start`]).
pub(super) fn prepare(
    main: &Main,
    job: &Job,
    (cli, records): (&Cli, &Records),
    executor: &mut dyn Executor,
) -> Prepared {
    let compare_with = cli
        .baseline
        .clone()
        .or_else(|| cli.save_baseline.clone())
        .map_or(Source::PreviousRun, Source::Baseline);
    let mut result = empty_result(main, job, &compare_with);
    result.view = view(job, cli);
    let measured = job.config.runs_callgrind() && cli.load_baseline.is_none();
    let verdict = match (measured, &job.kind) {
        (true, JobKind::Library(_)) => records.decide(job, &records.library_place(job)),
        _ => Verdict::Measure,
    };
    let last = (measured && job.reuse == Reuse::Verify)
        .then(|| {
            let current = job.paths.file(FILES[0], Which::Current);
            profile::parse_file(&current, Read::Totals).ok()
        })
        .flatten()
        .map(|p| Metrics::from_profile(&p));
    let old = measured.then(|| {
        let old = old_for_run(job, cli, &compare_with);
        if old.is_ok() {
            // Leftovers of an earlier run that died must not pass for this run's files.
            for name in FILES {
                let _ = std::fs::remove_file(job.paths.file(name, Which::New));
            }
            if verdict.reused().is_none() {
                executor.start(job);
            }
        }
        old
    });
    Prepared {
        result,
        compare_with,
        old,
        verdict,
        last,
    }
}

/// What a run compares with: read before the run replaces it, and before spending a Valgrind
/// run on a comparison that cannot be made.
fn old_for_run(job: &Job, cli: &Cli, compare_with: &Source) -> Result<Option<Profile>, Problem> {
    let replaced = match compare_with {
        Source::Baseline(name) => cli.save_baseline.as_ref() == Some(name),
        _ => true,
    };
    match read_old(job, compare_with, old_read(cli, job)) {
        Ok(old) => Ok(old),
        // The run replaces it: say so and compare with nothing.
        Err(e) if replaced => {
            messages::warning!("{}: {e}; it is replaced by this run", job.id.full());
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Waits for a prepared benchmark's run (or loads it) and relates it to what it is compared
/// with.
pub(super) fn finish(
    job: &Job,
    (cli, records): (&Cli, &Records),
    executor: &mut dyn Executor,
    prepared: Prepared,
) -> BenchResult {
    let compare_with = prepared.compare_with.clone();
    let mut result = finish_valgrind(job, (cli, records), executor, prepared);
    if !result.failed() {
        let mut printed = Captured::default();
        let save = cli.save_baseline.as_deref();
        result.perf = super::perf::run(job, save, executor, &compare_with, &mut printed);
        // What the sampling processes printed (`perf_log!`), after the measured run's.
        let printed = printed.shown(cli.nocapture, cli.log);
        result.output.append(&printed.stdout, &printed.stderr);
    }
    result
}

/// Valgrind's part of [`finish`]: Callgrind, its limits, the other tools, the flamegraphs.
fn finish_valgrind(
    job: &Job,
    (cli, records): (&Cli, &Records),
    executor: &mut dyn Executor,
    prepared: Prepared,
) -> BenchResult {
    let Prepared {
        mut result,
        compare_with,
        old,
        verdict,
        last,
    } = prepared;
    if !job.config.runs_callgrind() {
        return without_callgrind(job, cli, executor, &compare_with, result);
    }
    let measured = match (old, &cli.load_baseline) {
        (Some(old), _) => measure(job, (cli, records), executor, verdict, old, &mut result),
        (None, Some(name)) => load_saved(job, cli, name, &compare_with, &mut result),
        (None, None) => unreachable!("prepare reads the old profile of every run"),
    };
    let (new, old) = match measured {
        Ok(profiles) => profiles,
        Err(reason) => {
            result.outcome = Outcome::Failed {
                reason: reason.into(),
            };
            return result;
        }
    };
    if job.config.separate_threads {
        result.parts = crate::result::parts(&new, old.as_ref());
    }
    let (new_metrics, old_metrics) = (
        Metrics::from_profile(&new),
        old.as_ref().map(Metrics::from_profile),
    );
    let mut layout_only = (old.as_ref().zip(old_metrics.as_ref()))
        .and_then(|(o, om)| layout::layout_only(o, &new, om, &new_metrics));
    if let Some(config) = &job.config.regression {
        let passed = regression::check(config, &new_metrics, old_metrics.as_ref());
        result.regressions = match layout_only.as_mut() {
            Some(only) if !config.limits_layout() => layout::hold(passed, only),
            _ => passed,
        };
    }
    result.layout_only = layout_only;
    // After a run, the previous run's profile is `.old`; a baseline stays where it was.
    let rotated = (cli.load_baseline.is_none() && compare_with == Source::PreviousRun)
        .then(|| job.paths.file(FILES[0], Which::Old));
    if let (Some(old), true) = (&old, cli.explain != ExplainPolicy::Never) {
        let regressed = !result.regressions.is_empty();
        result.explained =
            super::explain::explain(cli, job, old, &new, rotated.as_deref(), regressed);
    }
    result.outcome = Outcome::Measured {
        new: new_metrics,
        old: old_metrics,
    };
    if let (Some(at), Some(last)) = (result.reuse.verified(), &last) {
        if let Outcome::Measured { new, .. } = &result.outcome {
            if let Some(reason) = differs_from_reused(job, records, at, new, last) {
                result.outcome = Outcome::Failed { reason };
                return result;
            }
        }
    }
    if let (Some(n), None, false) = (cli.layout_spread, &cli.load_baseline, result.failed()) {
        match super::spread::unfit(job) {
            Some(why) => result.warnings.push(why.to_owned()),
            None => {
                let metrics = Metrics::from_profile(&new);
                result.spread = Some(super::spread::measure(job, executor, n, &new, &metrics));
            }
        }
    }
    if cli.load_baseline.is_none() && !result.failed() {
        let limits = job.config.regression.as_ref();
        result.tools = super::tools::run_all(
            job,
            cli,
            executor,
            &compare_with,
            limits,
            result.reuse.reused().is_some(),
        );
        if result.tools.iter().all(|t| !t.failed()) {
            records.confirm(job);
        }
        if let Some(config) = &job.config.flamegraph {
            let title = format!("{} {}", job.id.path(), job.id.id_and_args());
            let described = compare_with.describe();
            let old = old.as_ref().map(|o| (&o.graph, described.as_str()));
            match flamegraph::write(config, &job.paths, title.trim(), &new.graph, old) {
                Ok(files) => result.flamegraphs = files,
                Err(e) => messages::warning!("{}: no flamegraph: {e}", job.id.full()),
            }
        }
    }
    result
}

/// A benchmark whose default tool is another (`default_tool`, `--default-tool`) or whose
/// Callgrind is off: its tools alone, no Callgrind metrics.
fn without_callgrind(
    job: &Job,
    cli: &Cli,
    executor: &mut dyn Executor,
    compare_with: &Source,
    mut result: BenchResult,
) -> BenchResult {
    result.tool = job.config.default_tool;
    if cli.load_baseline.is_some() {
        result.outcome = Outcome::Failed {
            reason: "--load-baseline compares Callgrind's saved profiles, and this benchmark does \
                     not run Callgrind (its default tool is another or Callgrind is disabled); \
                     compare it with --baseline instead"
                .into(),
        };
        return result;
    }
    let limits = job.config.regression.as_ref();
    let started = std::time::Instant::now();
    result.tools = super::tools::run_all(job, cli, executor, compare_with, limits, false);
    result.duration = started.elapsed();
    if let Some(first) = result.tools.first() {
        result.tool = first.tool;
        result.log = Some(first.log.clone());
        result.profile = first.out.clone().unwrap_or_else(|| first.log.clone());
    }
    result.outcome = Outcome::Measured {
        new: Metrics { values: Vec::new() },
        old: None,
    };
    result
}

/// The result before anything ran.
fn empty_result(main: &Main, job: &Job, compare_with: &Source) -> BenchResult {
    BenchResult {
        package: main.package.to_owned(),
        id: job.id.clone(),
        command: match &job.kind {
            JobKind::Binary(binary) => Some(binary.command.display()),
            JobKind::Library(_) => None,
        },
        outcome: Outcome::Failed {
            reason: String::new(),
        },
        tool: crate::config::ValgrindTool::Callgrind,
        new_source: Source::Run,
        old_source: compare_with.clone(),
        regressions: Vec::new(),
        comparisons: Vec::new(),
        dir: job.paths.dir.clone(),
        profile: job.paths.file(FILES[0], Which::Current),
        log: None,
        duration: Duration::ZERO,
        tools: Vec::new(),
        flamegraphs: Vec::new(),
        explained: None,
        output: Captured::default(),
        fingerprint: None,
        machine: Vec::new(),
        old_fingerprint: None,
        uncompared: None,
        reuse: Verdict::Measure,
        warnings: Vec::new(),
        parts: Vec::new(),
        layout_only: None,
        spread: None,
        view: View::default(),
        perf: None,
    }
}

/// How the report shows the benchmark: its configuration's formats, tolerance and grid.
fn view(job: &Job, cli: &Cli) -> View {
    let tools = job.config.tools.iter().filter_map(|tool| {
        let format = tool.value.as_ref()?.format.as_ref()?;
        let metrics = format.iter().filter_map(|m| match m {
            AnyMetric::Tool(t) => Some(*t),
            AnyMetric::Event(_) => None,
        });
        Some((tool.kind(), metrics.collect()))
    });
    let cachegrind = (job.config.tools.iter())
        .find(|t| t.kind() == ValgrindTool::Cachegrind)
        .and_then(|t| t.value.as_ref()?.format.as_ref())
        .map(|format| {
            let events = format.iter().filter_map(|m| match m {
                AnyMetric::Event(e) => Some(*e),
                AnyMetric::Tool(_) => None,
            });
            events.collect()
        });
    View {
        callgrind: job.config.callgrind_format.clone(),
        cachegrind,
        tools: tools.collect(),
        tolerance: job.config.tolerance,
        grid: job.config.show_grid,
        only_comparison: cli.show_only_comparison.unwrap_or(false),
    }
}

/// `--load-baseline`: the new values from a saved baseline.
fn load_saved(
    job: &Job,
    cli: &Cli,
    name: &str,
    compare_with: &Source,
    result: &mut BenchResult,
) -> Result<Values, Problem> {
    result.new_source = Source::Baseline(name.to_owned());
    result.profile = job.paths.baseline(name);
    let old = read_old(job, compare_with, old_read(cli, job))?;
    let new = load(&result.profile, name, job, new_read(cli, job, old.as_ref()))?;
    Ok((new, old))
}

/// One run of the benchmark's job, or its last results put in place of one (when its verdict
/// is to reuse them and they can be put back); a run that ran out of Valgrind's thread slots
/// is run again with more.
fn run_or_reuse(
    job: &Job,
    records: &Records,
    executor: &mut dyn Executor,
    verdict: &Verdict,
) -> RunOutput {
    let paths = &job.paths;
    let place = || records.library_place(job);
    let mut output = match verdict {
        Verdict::Reuse(_) if records.reuse(job, &place(), &FILES.map(String::from)) => RunOutput {
            status: Status::Ok,
            duration: Duration::ZERO,
            output: Default::default(),
            reuse: verdict.clone(),
        },
        _ => {
            // A binary benchmark's executor decides after its setup.
            if matches!(job.kind, JobKind::Library(_)) {
                records.begin(job);
            }
            let mut output = executor.run(job);
            if let (Verdict::Verify(_), Verdict::Measure) = (verdict, &output.reuse) {
                output.reuse = verdict.clone();
            }
            output
        }
    };
    let out_of_slots = |output: &crate::execute::RunOutput| {
        matches!(output.status, Status::Failed(_))
            && crate::execute::ended::out_of_thread_slots(&paths.dir)
    };
    if out_of_slots(&output) {
        // More threads at once than the default slots: again with Valgrind's own number.
        if let Some(wider) = crate::execute::args::more_threads(job) {
            output = executor.run(&wider);
        }
        if out_of_slots(&output) {
            output.status = Status::Failed(
                "it had more threads at once than Valgrind's --max-threads allows; give a \
                 larger number with --valgrind-args=--max-threads=N (or the benchmark's \
                 raw_callgrind_args)"
                    .into(),
            );
        }
    }
    output
}

/// How many processes a profile's parts came from.
fn processes(profile: &Profile) -> usize {
    let mut pids: Vec<_> = profile.parts.iter().map(|part| part.id.pid).collect();
    pids.sort_unstable();
    pids.dedup();
    pids.len()
}

/// Waits for Callgrind's run of the benchmark (started by [`prepare`] if the executor could);
/// the new profile becomes current.
fn measure(
    job: &Job,
    (cli, records): (&Cli, &Records),
    executor: &mut dyn Executor,
    mut verdict: Verdict,
    old: Result<Option<Profile>, Problem>,
    result: &mut BenchResult,
) -> Result<Values, Problem> {
    let paths = &job.paths;
    let old = old?;
    // Measured again while a run of several processes may have taken its turns in an order
    // of its own.
    let mut rerun = Rerun::new(machine::damon_on());
    let (output, new, count, asked) = loop {
        let output = run_or_reuse(job, records, executor, &verdict);
        // Only its first run can be reused; the next ones measure.
        if verdict.reused().is_some() {
            verdict = Verdict::Measure;
        }
        if let Status::Failed(reason) = output.status {
            result.duration = output.duration;
            result.output = output.output.shown(cli.nocapture, cli.log);
            // No log when the benchmark failed before Valgrind ran (in setup).
            result.log = Some(paths.file(FILES[1], Which::New)).filter(|l| l.exists());
            let _ = std::fs::remove_file(paths.file(FILES[0], Which::New));
            return Err(Problem::new(crate::store::with_disk_full(
                &paths.dir, reason,
            )));
        }
        let read = new_read(cli, job, old.as_ref());
        // Read once: parsed, and its function names looked through (`checks::Asked`).
        let file = paths.file(FILES[0], Which::New);
        let disk_full = |e: crate::parse::ParseError| {
            Problem::new(crate::store::with_disk_full(&paths.dir, e.to_string()))
        };
        let bytes = crate::parse::read(&file, "read the Callgrind profile").map_err(disk_full)?;
        let new = profile::parse(&file, &bytes, read).map_err(disk_full)?;
        let count = processes(&new);
        if output.reuse.reused().is_some() {
            break (output, new, count, super::checks::Asked::of(&bytes));
        }
        match rerun.again(count, output.output.disk_reads, &new.totals()) {
            Some(why) => messages::debug!("{}: measured again: {why}", job.id.full()),
            None => break (output, new, count, super::checks::Asked::of(&bytes)),
        }
    };
    let runs = rerun.runs();
    if runs > 1 && output.output.disk_reads > 0 {
        result.warnings.push(format!(
            "its processes waited for the disk in each of its {runs} runs (reading files not in \
             the page cache, {} reads in the last), so the order in which they took turns, and \
             with it its counts, may move by a few instructions; with enough free memory for the \
             files it reads they count the same on every run",
            output.output.disk_reads
        ));
    }
    result.duration = output.duration;
    result.reuse = output.reuse.clone();
    let was_run = output.reuse.reused().is_none();
    let shown = if was_run {
        save_output(job, &output.output);
        output.output
    } else {
        // What the benchmark asks to show always, it asks on this run too.
        let mut saved = saved_output(job);
        saved.always_shown = output.output.always_shown;
        saved
    };
    result.output = shown.shown(cli.nocapture, cli.log);
    result.log = Some(paths.file(FILES[1], Which::Current));
    let threads = new.parts.iter().filter(|part| part.id.thread > 1).count();
    if threads > 0 && !executor.exact_threads() {
        result
            .warnings
            .push(crate::execute::realtime::NOT_EXACT.to_owned());
    }
    if was_run {
        records.write(job, Logs::Settled { processes: count });
    }
    // The next run schedules a benchmark of several processes alone (`schedule::runs_alone`).
    crate::execute::schedule::record_processes(&paths.dir, count.max(1));
    let processes = count > 1;
    if processes && machine::damon_on() {
        result.warnings.push(machine::DAMON_ON.to_owned());
    }
    if asked.free_memory {
        result.warnings.push(super::checks::free_memory_warning());
    }
    if asked.real_clock {
        result.warnings.push(super::checks::REAL_CLOCK.to_owned());
    }
    if let crate::plan::JobKind::Binary(binary) = &job.kind {
        if asked.random && super::checks::is_static_program(&binary.command.program) {
            result
                .warnings
                .push(super::checks::STATIC_RANDOM.to_owned());
        }
    }
    let binary = matches!(job.kind, crate::plan::JobKind::Binary(_));
    if (binary || processes) && !executor.exact_pids() {
        result
            .warnings
            .push(crate::execute::pidns::UNAVAILABLE.to_owned());
    }
    let files = FILES.map(String::from);
    promote_and_save(paths, &files, FILES[0], cli.save_baseline.as_deref())?;
    Ok((new, old))
}
