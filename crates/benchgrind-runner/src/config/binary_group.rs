//! The group of the low-level API, [`BinaryBenchmarkGroup`]: the closure of
//! `binary_benchmark_group!(benchmarks = |group| ...)` adds [`BinaryBenchmark`]s to it, and the
//! closure of iai-callgrind 0.9/0.10's `benchmark = |"my-exe", group| ...` adds [`Run`](super::compat::v0_10::Run)s, which
//! become one nameless benchmark with a bench per `Arg` (`into_benchmarks`).
//!
//! Part of configure, the first stage: after this, every form of binary benchmark is the same
//! [`BinaryBenchmark`] to the plan.

use super::binary::{Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, Hook, Sandbox};
use std::ffi::OsString;
use std::path::PathBuf;

/// How many characters of the command line the header of a 0.10 benchmark shows.
const LEGACY_TRUNCATE: usize = 37;

/// The group handed to the closure form of `binary_benchmark_group!(benchmarks = |group| ...)`.
#[derive(Debug, Clone, Default)]
pub struct BinaryBenchmarkGroup {
    pub(crate) benchmarks: Vec<BinaryBenchmark>,
    /// The `Run`s of an iai-callgrind 0.10 group ([`super::compat::v0_10`]).
    pub(crate) runs: Vec<GroupRun>,
    /// `sandbox(bool)` of an iai-callgrind 0.10 group.
    pub(crate) sandbox: Option<bool>,
    /// `fixtures(...)` of an iai-callgrind 0.9 group: a directory, and whether its links are
    /// followed.
    pub(crate) fixtures: Vec<(PathBuf, bool)>,
}

/// A command of a group that gives its program later, with a bench per argument list: what an
/// iai-callgrind 0.10 `Run` becomes ([`super::compat::v0_10`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupRun {
    /// The program, when the run names its own.
    pub cmd: Option<String>,
    /// Each bench's id and arguments.
    pub benches: Vec<(String, Vec<OsString>)>,
    pub current_dir: Option<PathBuf>,
    pub config: BinaryBenchmarkConfig,
}

impl BinaryBenchmarkGroup {
    /// Adds a benchmark.
    pub fn binary_benchmark<B: Into<BinaryBenchmark>>(&mut self, benchmark: B) -> &mut Self {
        self.benchmarks.push(benchmark.into());
        self
    }

    /// Adds benchmarks (iai-callgrind 0.14).
    pub fn binary_benchmarks<I, T>(&mut self, benchmarks: T) -> &mut Self
    where
        I: Into<BinaryBenchmark>,
        T: IntoIterator<Item = I>,
    {
        for benchmark in benchmarks {
            self.binary_benchmark(benchmark);
        }
        self
    }

    /// The group's benchmarks: those added with `binary_benchmark`, then, for a 0.10 group, one
    /// nameless benchmark with a bench per `Arg` of its `Run`s. `cmd` is the 0.10 group's
    /// command (for `Run`s without their own); `setup` and `teardown` run around each of their
    /// commands.
    pub(crate) fn into_benchmarks(
        self,
        cmd: Option<&str>,
        setup: Option<Hook>,
        teardown: Option<Hook>,
    ) -> Vec<BinaryBenchmark> {
        let mut benchmark = BinaryBenchmark::new("");
        benchmark.config(self.legacy_config());
        for run in &self.runs {
            for (id, args) in &run.benches {
                let program =
                    run.cmd.as_deref().or(cmd).unwrap_or(
                        "no-command:give-it-in-binary_benchmark_group!-or-Run::with_cmd",
                    );
                let mut command = Command::new(program);
                command.args(args.iter().cloned());
                if let Some(dir) = &run.current_dir {
                    command.current_dir(dir.clone());
                }
                let mut bench = Bench::new(id.clone());
                bench.command(command).config(run.config.clone());
                bench.setup = setup;
                bench.teardown = teardown;
                bench.legacy = true;
                benchmark.bench(bench);
            }
        }
        let mut out = self.benchmarks;
        if !benchmark.benches.is_empty() {
            out.push(benchmark);
        }
        out
    }

    /// The config of a 0.10 group's benchmark: 0.10's header width, and the sandbox of
    /// `group.sandbox(...)` and `group.fixtures(...)` (0.9), which override the configs'.
    fn legacy_config(&self) -> BinaryBenchmarkConfig {
        let mut config = BinaryBenchmarkConfig::default();
        config.truncate_description(Some(LEGACY_TRUNCATE));
        if self.sandbox.is_some() || !self.fixtures.is_empty() {
            let mut sandbox = Sandbox::new(self.sandbox.unwrap_or(true));
            sandbox.fixtures(self.fixtures.iter().map(|(path, _)| path.clone()));
            if !self.fixtures.is_empty() {
                sandbox.follow_symlinks = Some(self.fixtures.iter().any(|(_, follow)| *follow));
            }
            config.sandbox(sandbox);
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_without_runs_keeps_its_benchmarks_only() {
        let mut group = BinaryBenchmarkGroup::default();
        group.binary_benchmarks([BinaryBenchmark::new("a"), BinaryBenchmark::new("b")]);
        let names: Vec<_> = group
            .into_benchmarks(None, None, None)
            .into_iter()
            .map(|b| b.name)
            .collect();
        assert_eq!(names, ["a", "b"]);
    }
}
