//! A binary benchmark sampled with perf's counters: the sandbox and setup once, the command
//! natively again and again for the round's share of the sample duration (each run a sample,
//! counted from its `exec` to its end by counters it opens on itself, [`OnExec`]), then the
//! teardown, as gungraun 0.20 does; the samples in the file the harness reads
//! ([`crate::perf::samples`]).

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio as StdStdio;
use std::time::Instant;

use super::hooks::run_hook;
use super::{output_stdio, resolve_program, stdin};
use crate::config::Stdin;
use crate::error::{FileResult, Problem};
use crate::execute::executor::{Captured, Status};
use crate::execute::process::ProcessExecutor;
use crate::perf::counters::{OnExec, OpenError, Reading};
use crate::perf::sampler::Collector;
use crate::perf::samples::{Spec, FORMAT};
use crate::plan::{BinaryJob, Job};
use crate::problem;

/// Samples the command of `binary` as `spec` says into `out`.
pub(crate) fn run(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    spec: &Spec,
    out: &Path,
) -> (Status, Captured) {
    let mut captured = Captured::default();
    let status = match sample(exec, job, binary, spec, out, &mut captured) {
        Ok(()) => Status::Ok,
        Err(reason) => Status::Failed(reason.into()),
    };
    (status, captured)
}

fn sample(
    exec: &ProcessExecutor,
    job: &Job,
    binary: &BinaryJob,
    spec: &Spec,
    out: &Path,
    captured: &mut Captured,
) -> Result<(), Problem> {
    let command = &binary.command;
    let unfit = match (&binary.hook, &command.stdin) {
        (Some(_), _) => Some("a measured hook is sampled by Valgrind only"),
        (_, Some(Stdin::Setup(_))) => Some(
            "its command reads its setup's output, which runs once per sample only under Valgrind",
        ),
        _ => None,
    };
    if let Some(why) = unfit {
        let text = format!("{FORMAT}\nevents\t\nnote\tnot sampled: {why}\nruns\t0\n");
        return crate::store::write_atomic(out, text.as_bytes())
            .file_op("write the perf samples to", out)
            .map_err(Problem::from);
    }
    let wanted = crate::config::perf::events::parse_set(&spec.events)?;
    let (sandbox, base) = super::place(exec, job, binary)?;
    let cwd = match &command.current_dir {
        Some(dir) => base.join(dir),
        None => base.clone(),
    };
    let program = resolve_program(&command.program, &exec.cwd)?;
    if binary.setup.is_some() {
        run_hook(exec, job, binary, "setup", &base, captured)?;
    }
    let counters =
        OnExec::new(&wanted).map_err(|e| problem!("cannot prepare perf's counters: {e}"))?;
    let mut collector: Option<Collector> = None;
    let zero = vec![Reading::default(); wanted.len()];
    let mut after = Vec::new();
    let start = Instant::now();
    loop {
        let mut cmd = exec.native_command(job, &program);
        cmd.args(&command.args).current_dir(&cwd);
        for (key, value) in &command.envs {
            cmd.env(key, value);
        }
        cmd.stdin(stdin(command.stdin.as_ref(), &cwd)?.unwrap_or_else(StdStdio::null));
        cmd.stdout(output_stdio(command.stdout.as_ref(), &cwd)?);
        cmd.stderr(output_stdio(command.stderr.as_ref(), &cwd)?);
        // SAFETY: the hook makes system calls on memory prepared before the fork only.
        unsafe { cmd.pre_exec(counters.hook()) };
        let child = cmd
            .spawn()
            .map_err(|e| problem!("cannot start `{}`: {e}", command.display()))?;
        let spawned = counters.collect();
        let output = child
            .wait_with_output()
            .map_err(|e| problem!("waiting for `{}`: {e}", command.display()))?;
        let spawned = match spawned {
            Ok(spawned) => spawned,
            Err(OpenError::Denied(why)) => {
                let text = format!("{FORMAT}\nerror\tdenied\t{why}\n");
                return crate::store::write_atomic(out, text.as_bytes())
                    .file_op("write the perf samples to", out)
                    .map_err(Problem::from);
            }
            Err(OpenError::Other(why)) => return Err(Problem::new(why)),
        };
        if collector.as_ref().map_or(true, Collector::first) {
            captured.append(&output.stdout, &output.stderr);
        }
        let (ended, accepted) = super::ending(binary, &output.status);
        if !accepted {
            return Err(problem!(
                "`{}` {ended} natively, expected {}",
                command.display(),
                binary.exit_with.describe()
            ));
        }
        let collector = collector.get_or_insert_with(|| {
            let mut c = Collector::new(spawned.counters.clone(), spec);
            if !spec.calibrate.is_zero() {
                c.note(
                    "the calibrating run modes apply to library benchmarks; a command is \
                     sampled as is"
                        .into(),
                );
            }
            c
        });
        if collector.is_empty() {
            break;
        }
        // Each run's counters start at zero: they were opened in its process.
        spawned.read(&mut after);
        collector.add(&zero[..after.len()], &after);
        if collector.done(start.elapsed()) {
            break;
        }
    }
    drop(counters);
    if binary.teardown.is_some() {
        run_hook(exec, job, binary, "teardown", &base, captured)?;
    }
    drop(sandbox);
    match collector {
        Some(collector) => collector.write(out).map_err(Problem::new),
        None => Err(Problem::new("the command never ran")),
    }
}
