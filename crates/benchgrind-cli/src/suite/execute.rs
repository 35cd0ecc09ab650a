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

/// Measures a job by the runner's own timings, within `limits`.
pub fn time(
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
) -> Result<Measurement, Problem> {
    let finished = runner::run(
        engine.run.to_std(),
        runner::Input::Pipe(klv::encode(job.def, limits)),
        timeout,
    )?;
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
/// Callgrind, minus a run with none.
pub fn instructions(
    launcher: &benchgrind_runner::execute::Launcher,
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
) -> Result<Measurement, Problem> {
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
    let (base, _) = callgrind::count(launcher, &engine.run, klv::encode(job.def, &zero), timeout)?;
    let (gross, finished) =
        callgrind::count(launcher, &engine.run, klv::encode(job.def, &one), timeout)?;
    let samples = runner::parse_samples(&finished.stdout)?;
    check_counts(&samples, expected)?;
    let net = gross.saturating_sub(base) as f64;
    Ok(Measurement {
        metric: Metric::Instructions,
        iters: 1,
        total: gross as f64,
        median: net,
        mean: net,
        min: net,
        max: net,
        err: None,
        ..job.error_row(String::new())
    })
}
