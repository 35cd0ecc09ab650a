//! The group of the low-level API, [`BinaryBenchmarkGroup`]: the closure of
//! `binary_benchmark_group!(benchmarks = |group| ...)` adds [`BinaryBenchmark`]s to it, and the
//! closure of iai-callgrind 0.9/0.10's `benchmark = |"my-exe", group| ...` adds [`Run`]s, which
//! become one nameless benchmark with a bench per `Arg` (`into_benchmarks`).
//!
//! Part of configure, the first stage: after this, every form of binary benchmark is the same
//! [`BinaryBenchmark`] to the plan.

use super::binary::{Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, Hook, Sandbox};
use super::legacy::{Fixtures, Run};

/// How many characters of the command line the header of a 0.10 benchmark shows.
const LEGACY_TRUNCATE: usize = 37;

/// The group handed to the closure form of `binary_benchmark_group!(benchmarks = |group| ...)`.
#[derive(Debug, Clone, Default)]
pub struct BinaryBenchmarkGroup {
    pub(crate) benchmarks: Vec<BinaryBenchmark>,
    /// The `Run`s of an iai-callgrind 0.10 group ([`super::legacy`]).
    pub(crate) runs: Vec<Run>,
    /// `sandbox(bool)` of an iai-callgrind 0.10 group.
    pub(crate) sandbox: Option<bool>,
    /// `fixtures(...)` of an iai-callgrind 0.9 group.
    pub(crate) fixtures: Vec<Fixtures>,
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

    /// Adds a [`Run`] (0.10 groups).
    pub fn bench<R: Into<Run>>(&mut self, run: R) -> &mut Self {
        self.runs.push(run.into());
        self
    }

    /// Whether this 0.10 group's commands and hooks run in a sandbox (default: `true`).
    pub fn sandbox(&mut self, value: bool) -> &mut Self {
        self.sandbox = Some(value);
        self
    }

    /// A directory copied into this 0.9 group's sandbox.
    pub fn fixtures<F: Into<Fixtures>>(&mut self, fixtures: F) -> &mut Self {
        self.fixtures.push(fixtures.into());
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
            for arg in &run.args {
                let program =
                    run.cmd.as_deref().or(cmd).unwrap_or(
                        "no-command:give-it-in-binary_benchmark_group!-or-Run::with_cmd",
                    );
                let mut command = Command::new(program);
                command.args(arg.args.iter().cloned());
                if let Some(dir) = &run.current_dir {
                    command.current_dir(dir.clone());
                }
                let mut bench = Bench::new(arg.id.clone());
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
            sandbox.fixtures(self.fixtures.iter().map(|f| f.path.clone()));
            if !self.fixtures.is_empty() {
                sandbox.follow_symlinks = Some(self.fixtures.iter().any(|f| f.follow_symlinks));
            }
            config.sandbox(sandbox);
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::config::Arg;

    #[test]
    fn a_run_makes_one_bench_per_arg_with_the_groups_command_and_hooks() {
        fn hook() {}
        let mut group = BinaryBenchmarkGroup::default();
        group
            .sandbox(false)
            .bench(Run::with_args([Arg::new("a", ["1"]), Arg::empty("b")]))
            .bench(
                Run::with_cmd("/bin/true", Arg::empty("c"))
                    .envs(["K=V", "HOME"])
                    .envs([("L", "W")])
                    .envs(["M=X"].iter())
                    .envs([("N", "Y")].iter()),
            );
        let benchmarks = group.into_benchmarks(Some("/bin/echo"), Some(hook), None);
        assert_eq!(benchmarks.len(), 1);
        let benches = &benchmarks[0].benches;
        let ids: Vec<_> = benches.iter().map(|b| b.id.clone().unwrap()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(benches[0].commands[0].args, ["1"]);
        assert_eq!(benches[0].commands[0].program, PathBuf::from("/bin/echo"));
        assert_eq!(benches[2].commands[0].program, PathBuf::from("/bin/true"));
        assert!(benches.iter().all(|b| b.setup.is_some() && b.legacy));
        let config = benchmarks[0].config.as_ref().unwrap();
        assert_eq!(config.sandbox, Some(Sandbox::new(false)));
        assert_eq!(benches[2].config.as_ref().unwrap().base.envs.len(), 5);
    }

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
