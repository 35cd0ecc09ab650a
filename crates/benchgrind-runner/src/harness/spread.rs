//! `--layout-spread=N`: how far layout alone moves a benchmark's cache metrics, measured. After
//! its run, the benchmark runs N more times under Callgrind with shifted layouts, each in a
//! directory of its own (`layout/1`, `layout/2`, ... below the benchmark's), and the spread is
//! the range of each metric that follows layout over its run and the shifted ones
//! ([`crate::compare::layout::Spread`]).
//!
//! Shift `i` moves the initial stack by `96 i` bytes (the environment grows by a variable of
//! that length with its pointer, [`crate::protocol::LAYOUT_SHIFT_ENV`]) and the start of the heap
//! by `160 i` bytes (the measured process takes a block of that size before anything else
//! allocates, [`crate::measured`]): both multiples of 32 bytes, alternately of a whole cache line
//! and half of one, so that the data's place in the simulated cache lines and sets changes while
//! code that follows the alignment of its data (vector loops that align to 32 bytes) executes the
//! same instructions. The code's own addresses are not moved: that takes another build. A
//! shifted run that executed other code all the same (the functions' executed counts differ
//! from the benchmark's run, [`crate::compare::layout::same_code`]) is measured again with the
//! stack shifted alone (musl's allocator keeps the heap's block in its state and runs other
//! code with it: `regex_find` of the portable package counted from 921,024 to 925,158
//! instructions against 922,736); if it still differs, it is left out. Both are said.
//!
//! Library benchmarks only: a binary benchmark counts its whole process, whose start-up (the
//! dynamic loader, the C library) reads every variable of the environment, so the variable that
//! shifts the stack adds instructions of its own (about 590 under glibc 2.36).

use crate::error::FileResult;
use std::time::Instant;

use crate::cli::Reuse;
use crate::compare::layout::{same_code, Spread};
use crate::execute::{Executor, Status};
use crate::metrics::Metrics;
use crate::parse::profile::{self, Profile, Read};
use crate::plan::{Job, JobKind};
use crate::protocol::LAYOUT_SHIFT_ENV;
use crate::store::{BenchPaths, Which};

/// Why the spread of a benchmark is not measured, if it is not: a binary benchmark's count
/// includes its process's start-up, which the shift's variable changes.
pub(super) fn unfit(job: &Job) -> Option<&'static str> {
    match job.kind {
        JobKind::Binary(_) => Some(
            "--layout-spread: not measured: a binary benchmark counts its whole process, whose \
             start-up reads the environment that a shifted layout lengthens (instructions of its \
             own); library benchmarks have a spread",
        ),
        JobKind::Library(_) => None,
    }
}

/// How many bytes shift `i` moves the stack and the heap by.
fn shifts(i: usize) -> (usize, usize) {
    (96 * i, 160 * i)
}

/// The value of [`LAYOUT_SHIFT_ENV`] for shift `i`: `HEAP:` (0 without the heap's shift) and
/// padding, so that the variable, its terminating NUL and its pointer in the environment take
/// exactly the stack shift.
pub(super) fn variable(i: usize, heap: bool) -> String {
    let (stack, heap_shift) = shifts(i);
    let head = format!("{}:", if heap { heap_shift } else { 0 });
    // `NAME=VALUE`, the NUL and the 8 bytes of its pointer in `envp`.
    let fixed = LAYOUT_SHIFT_ENV.len() + 1 + head.len() + 1 + 8;
    format!("{head}{}", "x".repeat(stack.saturating_sub(fixed)))
}

/// The job of shift `i`: the benchmark alone under Callgrind (no other tool, no flamegraph, no
/// limits, no record of inputs), in its own directory, with the shifted layout (the heap's
/// too, or not).
fn shifted(job: &Job, i: usize, heap: bool) -> Job {
    let mut shifted = job.clone();
    shifted.paths = BenchPaths {
        dir: job.paths.dir.join("layout").join(i.to_string()),
    };
    shifted.reuse = Reuse::Off;
    shifted.config.tools.clear();
    shifted.config.flamegraph = None;
    shifted.config.regression = None;
    shifted
        .config
        .envs
        .push((LAYOUT_SHIFT_ENV.into(), Some(variable(i, heap).into())));
    shifted
}

/// Measures the benchmark with `n` shifted layouts; `new` is its run's profile (read with its
/// functions) and `metrics` that run's metrics.
pub(super) fn measure(
    job: &Job,
    executor: &mut dyn Executor,
    n: usize,
    new: &Profile,
    metrics: &Metrics,
) -> Spread {
    let started = Instant::now();
    let mut runs = vec![metrics.clone()];
    let (mut left_out, mut stack_only) = (Vec::new(), Vec::new());
    for i in 1..=n {
        // An allocator that keeps the block's place in its state (musl's) runs other code
        // with it: the stack alone then.
        let measured = match measure_one(job, executor, i, new, true) {
            Err(Other(_)) => {
                stack_only.push(i);
                measure_one(job, executor, i, new, false)
            }
            done => done,
        };
        match measured {
            Ok(m) => runs.push(m),
            Err(Other(why) | Failed(why)) => left_out.push(format!("shift {i}: {why}")),
        }
    }
    let mut spread = Spread::of(&runs, left_out, started.elapsed().as_secs_f64());
    spread.stack_only = stack_only;
    spread
}

/// Why a shifted run does not count.
enum NotCounted {
    /// It executed other code.
    Other(String),
    /// It failed, or its profile could not be read or compared.
    Failed(String),
}
use NotCounted::{Failed, Other};

/// One shifted run's metrics, or why it does not count.
fn measure_one(
    job: &Job,
    executor: &mut dyn Executor,
    i: usize,
    new: &Profile,
    heap: bool,
) -> Result<Metrics, NotCounted> {
    let job = shifted(job, i, heap);
    std::fs::create_dir_all(&job.paths.dir)
        .file_op("create", &job.paths.dir)
        .map_err(|e| Failed(e.to_string()))?;
    let output = executor.run(&job);
    if let Status::Failed(reason) = output.status {
        return Err(Failed(format!("it failed: {reason}")));
    }
    let file = job.paths.file("callgrind.out", Which::New);
    let shifted = profile::parse_file(&file, Read::Functions).map_err(|e| Failed(e.to_string()))?;
    let metrics = Metrics::from_profile(&shifted);
    match same_code(new, &shifted) {
        Some(true) => Ok(metrics),
        Some(false) => {
            let ir = |p: &Profile| p.total("Ir").unwrap_or(0);
            Err(Other(format!(
                "it executed other code (Instructions {} against {}), so it is left out",
                ir(&shifted),
                ir(new)
            )))
        }
        None => Err(Failed(
            "its executed code cannot be compared (no Ir)".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_takes_the_stack_shift_and_names_the_heap_shift() {
        for i in 1..=32 {
            let (stack, heap) = shifts(i);
            for (with_heap, named) in [(true, heap), (false, 0)] {
                let value = variable(i, with_heap);
                let entry = LAYOUT_SHIFT_ENV.len() + 1 + value.len() + 1 + 8;
                assert_eq!(entry, stack, "shift {i}");
                assert_eq!(value.split(':').next(), Some(named.to_string().as_str()));
            }
            assert_eq!((stack % 32, heap % 32), (0, 0));
        }
    }
}
