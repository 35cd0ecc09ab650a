//! Test mode: every benchmark once, natively, without Valgrind, in the processes it would be
//! measured in (setup, body and teardown; hooks and commands of binary benchmarks), reported
//! libtest style. `cargo test --benches` runs bench targets this way, so broken benchmarks show
//! up in ordinary test runs. The executor is [`crate::execute`]'s native one.

use std::io::Write;
use std::time::Instant;

use crate::execute::{Executor, Status};
use crate::plan::Plan;
use crate::spec::Main;

/// Runs the plan's benchmarks on `executor` (the native one); returns whether all passed.
pub fn run(main: &Main, plan: &Plan, executor: &mut dyn Executor, out: &mut dyn Write) -> bool {
    let start = Instant::now();
    let _ = writeln!(
        out,
        "\nrunning {} benchmark{} of {} in test mode (once each, natively, without Valgrind)",
        plan.jobs.len(),
        if plan.jobs.len() == 1 { "" } else { "s" },
        main.bench_file
    );
    // Group setup and teardown around each group's benchmarks, as in a measured run (a
    // `before`/`after` measured with `bench = true` is a job of the group, first or last).
    let hooks = super::phases::group_hooks(main, plan);
    let mut failed = Vec::new();
    for (g, hooks) in hooks.into_iter().enumerate() {
        let (setup, teardown) = (hooks.setup, hooks.teardown);
        let jobs: Vec<_> = plan.jobs.iter().filter(|j| j.group == g).collect();
        if jobs.is_empty() {
            continue;
        }
        let shared = super::phases::shared_sandbox(&jobs, main);
        if let Some(setup) = setup {
            super::phases::call_in(shared.as_ref(), setup);
        }
        for job in jobs {
            match executor.run(job).status {
                Status::Ok => {
                    let _ = writeln!(out, "test {} ... ok", job.id.full());
                }
                Status::Failed(reason) => {
                    let _ = writeln!(out, "test {} ... FAILED", job.id.full());
                    failed.push((job.id.full(), reason));
                }
            }
            let _ = std::fs::remove_file(job.paths.file("callgrind.log", crate::store::Which::New));
        }
        if let Some(teardown) = teardown {
            super::phases::call_in(shared.as_ref(), teardown);
        }
    }
    if !failed.is_empty() {
        let _ = writeln!(out, "\nfailures:");
        for (id, reason) in &failed {
            let _ = writeln!(out, "    {id}: {reason}");
        }
    }
    let passed = plan.jobs.len() - failed.len();
    let _ = writeln!(
        out,
        "\ntest result: {}. {passed} passed; {} failed; 0 ignored; 0 measured; 0 filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len(),
        start.elapsed().as_secs_f64()
    );
    failed.is_empty()
}
