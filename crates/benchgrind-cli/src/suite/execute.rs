//! Running one planned job: the runner program fed KLV on stdin, its samples parsed and every
//! sample's count checked, then aggregated into a result row; by wall time (the runner's own
//! timings) or by instructions (under Callgrind).

use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::time::Duration;

use super::{
    callgrind,
    format::engines::Engine,
    klv::{self, Limits},
    plan::Job,
    results::{Measurement, Metric},
    runner, stats,
};

/// Checks that the runner printed samples and that each one reports the expected count.
fn check_counts(samples: &[runner::Sample], expected: u64) -> Result<(), Problem> {
    if samples.is_empty() {
        return Err(Problem::new(
            "the runner printed no samples (does it honour max-iters and max-time?)",
        ));
    }
    match samples.iter().position(|s| s.count != expected) {
        Some(i) => Err(problem!(
            "count mismatch: expected {expected}, got {} (sample {})",
            samples[i].count,
            i + 1
        )),
        None => Ok(()),
    }
}

/// Fails, saying where `cwd` is looked for, when the runner's working directory is missing.
fn check_cwd(engine: &Engine) -> Result<(), Problem> {
    engine
        .run
        .check_cwd()
        .map_err(|e| Problem::new(format!("{e:#}")))
}

/// Measures a job by the runner's own timings, within `limits`; with `verbose`, the runner's
/// stderr is copied to benchgrind's once it has finished.
pub fn time(
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
    verbose: bool,
) -> Result<Measurement, Problem> {
    check_cwd(engine)?;
    let finished = runner::run(
        engine.run.to_std(),
        runner::Input::Pipe(klv::encode(job.def, limits)),
        timeout,
    )?;
    if verbose {
        // `--verbose`: what the runner said on stderr, passed on once it is done.
        use std::io::Write;
        let _ = std::io::stderr().write_all(&finished.stderr);
    }
    runner::check_status(&finished)?;
    let samples = runner::parse_samples(&finished.stdout)?;
    check_counts(&samples, expected)?;
    let xs: Vec<f64> = samples.iter().map(|s| s.nanos as f64).collect();
    let s = stats::summarize(&xs).expect("samples are not empty");
    Ok(Measurement {
        iters: xs.len() as u64,
        total: finished.elapsed.as_nanos() as f64,
        median: s.median,
        mad: s.mad,
        mean: s.mean,
        stddev: s.stddev,
        min: s.min,
        max: s.max,
        err: None,
        ..job.error_row(String::new())
    })
}

/// Measures a job by the instructions of one iteration: a run with one iteration under
/// Callgrind, minus a run with none; with a warning where the runner ran as several processes
/// whose count may move ([`callgrind::Several`]).
pub fn instructions(
    launcher: &benchgrind_runner::execute::Launcher,
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
) -> Result<(Measurement, Option<callgrind::Several>), Problem> {
    check_cwd(engine)?;
    let one = Limits {
        max_iters: 1,
        max_warmup_iters: 0,
        max_time: limits.max_time,
        max_warmup_time: Duration::ZERO,
    };
    let zero = Limits {
        max_iters: 0,
        ..one
    };
    let base = callgrind::count(launcher, &engine.run, klv::encode(job.def, &zero), timeout)?;
    let gross = callgrind::count(launcher, &engine.run, klv::encode(job.def, &one), timeout)?;
    let samples = runner::parse_samples(&gross.finished.stdout)?;
    check_counts(&samples, expected)?;
    let several = callgrind::Several::of(launcher, &engine.run, &gross, &base);
    let net = gross.total.saturating_sub(base.total) as f64;
    let row = Measurement {
        metric: Metric::Instructions,
        iters: 1,
        total: gross.total as f64,
        median: net,
        mean: net,
        min: net,
        max: net,
        err: None,
        ..job.error_row(String::new())
    };
    Ok((row, several))
}
