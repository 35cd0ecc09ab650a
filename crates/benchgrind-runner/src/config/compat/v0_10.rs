//! iai-callgrind 0.10's binary benchmarks: [`Run`], [`Arg`], [`Options`] and [`Fixtures`], used
//! in `binary_benchmark_group!(name = ...; benchmark = |"my-exe", group| ...)`.
//!
//! Part of configure, the first stage: a 0.10 group becomes one `BinaryBenchmark` without a
//! name whose benches are the group's `Arg`s ([`crate::config::binary_group`]), so everything after registration
//! (plan, sandbox, hooks, measurement, report) is that of the 0.13 API. As in 0.10, these
//! groups run in one sandbox they share unless `group.sandbox(false)` (settled by
//! [`crate::plan`], opened by the harness: `crate::execute::SharedSandbox`), the group's
//! `setup`/`teardown` run around every command, and the header shows `id:program args` as 0.10
//! printed it.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::binary::{BinaryBenchmarkConfig, ExitWith, Sandbox};
use crate::config::binary_group::{BinaryBenchmarkGroup, GroupRun};
use crate::config::flamegraph::FlamegraphConfig;
use crate::config::regression::RegressionConfig;
use crate::config::tool::Tool;
use crate::config::tool_values::ToolSpec;

/// The arguments of one benchmark of a [`Run`] and its id (`Arg::new("id", ["--flag"])`).
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub(crate) id: String,
    pub(crate) args: Vec<OsString>,
}

impl Arg {
    /// Arguments with an id that is unique within the group.
    pub fn new<T, I, U>(id: T, args: I) -> Arg
    where
        T: Into<String>,
        I: IntoIterator<Item = U>,
        U: Into<OsString>,
    {
        Arg {
            id: id.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// No arguments, with an id.
    pub fn empty<T: Into<String>>(id: T) -> Arg {
        Arg {
            id: id.into(),
            args: Vec::new(),
        }
    }
}

/// A directory copied into the root of a 0.10 group's sandbox; a relative path starts at the
/// package's directory (or the workspace root when it is not there). As in 0.10, symbolic links
/// are copied as links unless [`follow_symlinks`](Self::follow_symlinks) is `true`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixtures {
    pub(crate) path: PathBuf,
    pub(crate) follow_symlinks: bool,
}

impl Fixtures {
    /// The directory to copy.
    pub fn new<T: Into<PathBuf>>(path: T) -> Fixtures {
        Fixtures {
            path: path.into(),
            follow_symlinks: false,
        }
    }

    /// Whether symbolic links are copied as what they point to (`true`) or as links (`false`,
    /// the default).
    pub fn follow_symlinks(&mut self, value: bool) -> &mut Self {
        self.follow_symlinks = value;
        self
    }
}

impl From<&mut Fixtures> for Fixtures {
    fn from(value: &mut Fixtures) -> Self {
        value.clone()
    }
}

/// The options of a [`Run`] (0.10): environment, working directory, entry point, exit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    env_clear: Option<bool>,
    current_dir: Option<PathBuf>,
    entry_point: Option<String>,
    exit_with: Option<ExitWith>,
}

impl Options {
    /// Whether the command starts with an empty environment (default: `true`).
    pub fn env_clear(&mut self, value: bool) -> &mut Self {
        self.env_clear = Some(value);
        self
    }

    /// The command's working directory.
    pub fn current_dir<T: Into<PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Counts only this function and what it calls.
    pub fn entry_point<T: Into<String>>(&mut self, function: T) -> &mut Self {
        self.entry_point = Some(function.into());
        self
    }

    /// The exit the command is expected to have.
    pub fn exit_with(&mut self, exit_with: ExitWith) -> &mut Self {
        self.exit_with = Some(exit_with);
        self
    }
}

impl From<&mut Options> for Options {
    fn from(value: &mut Options) -> Self {
        value.clone()
    }
}

/// One or more benchmarks of a command (0.10): one per [`Arg`].
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub(crate) cmd: Option<String>,
    pub(crate) args: Vec<Arg>,
    pub(crate) current_dir: Option<PathBuf>,
    pub(crate) config: BinaryBenchmarkConfig,
}

impl Run {
    /// The group's command with these arguments.
    pub fn with_arg(arg: Arg) -> Run {
        Run::with_args([arg])
    }

    /// The group's command with each of these arguments.
    pub fn with_args<I: IntoIterator<Item = Arg>>(args: I) -> Run {
        Run {
            args: args.into_iter().collect(),
            ..Run::default()
        }
    }

    /// A command of its own (a path, or a name looked up in `PATH`) with these arguments.
    pub fn with_cmd<T: AsRef<str>>(cmd: T, arg: Arg) -> Run {
        Run::with_cmd_args(cmd, [arg])
    }

    /// A command of its own with each of these arguments.
    pub fn with_cmd_args<T: AsRef<str>, I: IntoIterator<Item = Arg>>(cmd: T, args: I) -> Run {
        Run {
            cmd: Some(cmd.as_ref().to_owned()),
            ..Run::with_args(args)
        }
    }

    /// Adds a benchmark with these arguments.
    pub fn arg(&mut self, arg: Arg) -> &mut Self {
        self.args.push(arg);
        self
    }

    /// Adds benchmarks with these arguments.
    pub fn args<I: IntoIterator<Item = Arg>>(&mut self, args: I) -> &mut Self {
        self.args.extend(args);
        self
    }

    /// An environment variable as 0.10 takes it: `KEY=VALUE`, or `KEY` to pass the harness'
    /// value through.
    pub fn env<T: AsRef<str>>(&mut self, env: T) -> &mut Self {
        match env.as_ref().split_once('=') {
            Some((key, value)) => self.config.env(key, value),
            None => self.config.pass_through_env(env.as_ref()),
        };
        self
    }

    /// Environment variables: each `"KEY=VALUE"` or `"KEY"` as [`env`](Self::env) takes it
    /// (0.10), or a `(key, value)` pair (0.11 and 0.12).
    pub fn envs<I: IntoIterator<Item = T>, T: RunEnv>(&mut self, envs: I) -> &mut Self {
        for env in envs {
            env.apply(self);
        }
        self
    }

    /// Passes a variable of the harness' environment through.
    pub fn pass_through_env<T: AsRef<str>>(&mut self, key: T) -> &mut Self {
        self.config.pass_through_env(key.as_ref());
        self
    }

    /// Passes variables of the harness' environment through.
    pub fn pass_through_envs<I: IntoIterator<Item = T>, T: AsRef<str>>(
        &mut self,
        keys: I,
    ) -> &mut Self {
        for key in keys {
            self.pass_through_env(key);
        }
        self
    }

    /// The options of all its benchmarks.
    pub fn options<O: Into<Options>>(&mut self, options: O) -> &mut Self {
        let options = options.into();
        if let Some(clear) = options.env_clear {
            self.config.env_clear(clear);
        }
        if let Some(exit_with) = options.exit_with {
            self.config.exit_with(exit_with);
        }
        if let Some(entry_point) = options.entry_point {
            self.config.entry_point(entry_point);
        }
        if options.current_dir.is_some() {
            self.current_dir = options.current_dir;
        }
        self
    }

    /// Counts only this function and what it calls.
    pub fn entry_point<T: Into<String>>(&mut self, function: T) -> &mut Self {
        self.config.entry_point(function.into());
        self
    }

    /// Whether the command starts with an empty environment (default: `true`).
    pub fn env_clear(&mut self, value: bool) -> &mut Self {
        self.config.env_clear(value);
        self
    }

    /// The command's working directory.
    pub fn current_dir<T: Into<PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// The exit the command is expected to have.
    pub fn exit_with(&mut self, exit_with: ExitWith) -> &mut Self {
        self.config.exit_with(exit_with);
        self
    }

    /// Adds Callgrind arguments.
    pub fn raw_callgrind_args<I: IntoIterator<Item = T>, T: AsRef<str>>(
        &mut self,
        args: I,
    ) -> &mut Self {
        self.config.raw_callgrind_args(args);
        self
    }

    /// Runs another Valgrind tool too.
    pub fn tool<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
        self.config.tool(tool);
        self
    }

    /// Runs other Valgrind tools too.
    pub fn tools<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.config.tools(tools);
        self
    }

    /// Runs this tool instead of those of the more general levels.
    pub fn tool_override<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
        self.config.tool_override(tool);
        self
    }

    /// Runs these tools instead of those of the more general levels.
    pub fn tools_override<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.config.tools_override(tools);
        self
    }

    /// Draws flamegraphs.
    pub fn flamegraph<F: Into<FlamegraphConfig>>(&mut self, config: F) -> &mut Self {
        self.config.flamegraph(config);
        self
    }

    /// Regression limits.
    pub fn regression<R: Into<RegressionConfig>>(&mut self, config: R) -> &mut Self {
        self.config.regression(config);
        self
    }
}

impl From<&mut Run> for Run {
    fn from(value: &mut Run) -> Self {
        value.clone()
    }
}

impl BinaryBenchmarkConfig {
    /// A directory copied into the sandbox of a 0.10 group (relative paths start at the
    /// package's directory).
    pub fn fixtures<F: Into<Fixtures>>(&mut self, fixtures: F) -> &mut Self {
        let fixtures = fixtures.into();
        let mut sandbox = self.sandbox.clone().unwrap_or_else(|| Sandbox::new(true));
        sandbox.fixtures(std::iter::once(fixtures.path));
        sandbox.follow_symlinks = Some(fixtures.follow_symlinks);
        self.sandbox = Some(sandbox);
        self
    }
}

impl From<bool> for Sandbox {
    fn from(enabled: bool) -> Self {
        Sandbox::new(enabled)
    }
}

/// An environment variable as [`Run::envs`] takes it: `"KEY=VALUE"`, `"KEY"` (passed
/// through) or a `(key, value)` pair.
pub trait RunEnv {
    /// Adds the variable to `run`.
    fn apply(self, run: &mut Run);
}

impl RunEnv for &str {
    fn apply(self, run: &mut Run) {
        run.env(self);
    }
}

impl RunEnv for String {
    fn apply(self, run: &mut Run) {
        run.env(self);
    }
}

impl RunEnv for &String {
    fn apply(self, run: &mut Run) {
        run.env(self);
    }
}

impl RunEnv for &&str {
    fn apply(self, run: &mut Run) {
        run.env(self);
    }
}

impl<K: Into<OsString>, V: Into<OsString>> RunEnv for (K, V) {
    fn apply(self, run: &mut Run) {
        run.config.env(self.0, self.1);
    }
}

impl<K: Clone + Into<OsString>, V: Clone + Into<OsString>> RunEnv for &(K, V) {
    fn apply(self, run: &mut Run) {
        run.config.env(self.0.clone(), self.1.clone());
    }
}

impl Run {
    /// The group's form of this run: a bench per argument list.
    fn into_group_run(self) -> GroupRun {
        GroupRun {
            cmd: self.cmd,
            benches: self
                .args
                .into_iter()
                .map(|arg| (arg.id, arg.args))
                .collect(),
            current_dir: self.current_dir,
            config: self.config,
        }
    }
}

/// iai-callgrind 0.9/0.10's methods of the group handed to `benchmark = |"my-exe", group| ...`.
impl BinaryBenchmarkGroup {
    /// Adds a [`Run`] (0.10 groups).
    pub fn bench<R: Into<Run>>(&mut self, run: R) -> &mut Self {
        self.runs.push(run.into().into_group_run());
        self
    }

    /// Whether this 0.10 group's commands and hooks run in a sandbox (default: `true`).
    pub fn sandbox(&mut self, value: bool) -> &mut Self {
        self.sandbox = Some(value);
        self
    }

    /// A directory copied into this 0.9 group's sandbox.
    pub fn fixtures<F: Into<Fixtures>>(&mut self, fixtures: F) -> &mut Self {
        let fixtures = fixtures.into();
        self.fixtures
            .push((fixtures.path, fixtures.follow_symlinks));
        self
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

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
}
