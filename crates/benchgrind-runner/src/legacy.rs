//! iai-callgrind 0.10's binary benchmarks: [`Run`], [`Arg`], [`Options`] and [`Fixtures`], used
//! in `binary_benchmark_group!(name = ...; benchmark = |"my-exe", group| ...)`.
//!
//! Stage 1 of the pipeline, register: a 0.10 group becomes one [`BinaryBenchmark`] without a
//! name whose benches are the group's `Arg`s, so everything after registration (plan, sandbox,
//! hooks, measurement, report) is that of the 0.13 API. As in 0.10, these groups run in a
//! sandbox unless `group.sandbox(false)`, the group's `setup`/`teardown` run around every
//! command, and the header shows `id:program args` as 0.10 printed it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::binary::{
    Bench, BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup, Command, ExitWith, Hook,
    Sandbox,
};
use crate::flamegraph::FlamegraphConfig;
use crate::regression::RegressionConfig;
use crate::tools::Tool;

/// How many characters of the command line the header of a 0.10 benchmark shows.
const LEGACY_TRUNCATE: usize = 37;

/// The arguments of one benchmark of a [`Run`] and its id (`Arg::new("id", ["--flag"])`).
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    id: String,
    args: Vec<OsString>,
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
    path: PathBuf,
    follow_symlinks: bool,
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
    cmd: Option<String>,
    args: Vec<Arg>,
    current_dir: Option<PathBuf>,
    config: BinaryBenchmarkConfig,
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

    /// An environment variable: `KEY=VALUE`, or `KEY` to pass the harness' value through.
    pub fn env<T: AsRef<str>>(&mut self, env: T) -> &mut Self {
        match env.as_ref().split_once('=') {
            Some((key, value)) => self.config.env(key, value),
            None => self.config.pass_through_env(env.as_ref()),
        };
        self
    }

    /// Environment variables, each as [`env`](Self::env) takes it.
    pub fn envs<I: IntoIterator<Item = T>, T: AsRef<str>>(&mut self, envs: I) -> &mut Self {
        for env in envs {
            self.env(env);
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
    pub fn tool(&mut self, tool: Tool) -> &mut Self {
        self.config.tool(tool);
        self
    }

    /// Runs other Valgrind tools too.
    pub fn tools<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.config.tools(tools);
        self
    }

    /// Runs this tool instead of those of the more general levels.
    pub fn tool_override(&mut self, tool: Tool) -> &mut Self {
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

impl BinaryBenchmarkGroup {
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

/// The hooks and places a 0.10 group's code needs, from `binary_benchmark_group!`.
#[doc(hidden)]
pub struct LegacyGroup {
    /// The group's command: `CARGO_BIN_EXE_<name>` when the package has that binary, else the
    /// name as written.
    pub cmd: Option<&'static str>,
    /// Runs before every command.
    pub setup: Option<Hook>,
    /// Runs after every command.
    pub teardown: Option<Hook>,
}

/// The benchmarks of a 0.10 group: those added with `binary_benchmark`, then one nameless
/// benchmark with a bench per `Arg` of its `Run`s.
#[doc(hidden)]
pub fn __legacy_benchmarks<F>(legacy: LegacyGroup, f: F) -> Vec<BinaryBenchmark>
where
    F: FnOnce(&mut BinaryBenchmarkGroup),
{
    let mut group = BinaryBenchmarkGroup::default();
    f(&mut group);
    let mut benchmark = BinaryBenchmark::new("");
    let mut config = BinaryBenchmarkConfig::default();
    config.truncate_description(Some(LEGACY_TRUNCATE));
    // `group.sandbox(...)` and `group.fixtures(...)` (0.9) override the configs' sandbox.
    if group.sandbox.is_some() || !group.fixtures.is_empty() {
        let mut sandbox = Sandbox::new(group.sandbox.unwrap_or(true));
        sandbox.fixtures(group.fixtures.iter().map(|f| f.path.clone()));
        if !group.fixtures.is_empty() {
            sandbox.follow_symlinks = Some(group.fixtures.iter().any(|f| f.follow_symlinks));
        }
        config.sandbox(sandbox);
    }
    benchmark.config(config);
    for run in &group.runs {
        for arg in &run.args {
            let program = run
                .cmd
                .as_deref()
                .or(legacy.cmd)
                .unwrap_or("no-command:give-it-in-binary_benchmark_group!-or-Run::with_cmd");
            let mut command = Command::new(program);
            command.args(arg.args.iter().cloned());
            if let Some(dir) = &run.current_dir {
                command.current_dir(dir.clone());
            }
            let mut bench = Bench::new(arg.id.clone());
            bench.command(command).config(run.config.clone());
            bench.setup = legacy.setup;
            bench.teardown = legacy.teardown;
            bench.legacy = true;
            benchmark.bench(bench);
        }
    }
    let mut out = group.benchmarks;
    if !benchmark.benches.is_empty() {
        out.push(benchmark);
    }
    out
}

/// The sandbox of a bench, given the one its config levels settle on. A 0.10 bench runs in a
/// sandbox unless a level says otherwise (0.10's default), and its relative fixture paths start
/// at the package's directory (where 0.10 looked for them) when they exist there.
pub(crate) fn sandbox_of(
    bench: &Bench,
    configured: Option<Sandbox>,
    manifest_dir: &str,
) -> Option<Sandbox> {
    if !bench.legacy {
        return configured;
    }
    let mut sandbox = configured.unwrap_or_else(|| Sandbox::new(true));
    for fixture in &mut sandbox.fixtures {
        let in_package = Path::new(manifest_dir).join(&*fixture);
        if fixture.is_relative() && in_package.exists() {
            *fixture = in_package;
        }
    }
    Some(sandbox)
}

/// The part of a binary benchmark's header after `id:`: `(args) -> program args` as
/// iai-callgrind 0.13 prints it, or `program args` for a 0.10 `Run`.
pub fn header_args(bench: &Bench, command: &Command, workspace_root: &str) -> String {
    if bench.legacy {
        let name = command
            .program
            .file_name()
            .unwrap_or(command.program.as_os_str());
        let args = command
            .args
            .iter()
            .map(|a| quote(&a.to_string_lossy(), '"'));
        return std::iter::once(name.to_string_lossy().into_owned())
            .chain(args)
            .collect::<Vec<_>>()
            .join(" ");
    }
    let program = command
        .program
        .strip_prefix(workspace_root)
        .unwrap_or(&command.program);
    let mut line = format!(
        "({}) -> {}",
        bench.args_display.as_deref().unwrap_or(""),
        program.display()
    );
    for arg in &command.args {
        line.push(' ');
        line.push_str(&quote(&arg.to_string_lossy(), '\''));
    }
    line
}

/// An argument as a shell would need it: quoted when it holds anything but a plain word.
fn quote(arg: &str, mark: char) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ',' | ':'));
    if plain {
        arg.to_owned()
    } else {
        format!("{mark}{arg}{mark}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_show_arguments_and_command_as_iai_callgrind_did() {
        let mut bench = Bench::new("foo");
        bench.__args_display("\"foo\"");
        let command = Command::new("/ws/target/release/echo")
            .args(["foo", "A=1"])
            .build();
        assert_eq!(
            header_args(&bench, &command, "/ws"),
            "(\"foo\") -> target/release/echo foo 'A=1'"
        );
        bench.legacy = true;
        assert_eq!(header_args(&bench, &command, "/ws"), "echo foo \"A=1\"");
    }

    #[test]
    fn a_run_makes_one_bench_per_arg_with_the_groups_command_and_hooks() {
        fn hook() {}
        let benchmarks = __legacy_benchmarks(
            LegacyGroup {
                cmd: Some("/bin/echo"),
                setup: Some(hook),
                teardown: None,
            },
            |group| {
                group
                    .sandbox(false)
                    .bench(Run::with_args([Arg::new("a", ["1"]), Arg::empty("b")]))
                    .bench(Run::with_cmd("/bin/true", Arg::empty("c")).envs(["K=V", "HOME"]));
            },
        );
        assert_eq!(benchmarks.len(), 1);
        let benches = &benchmarks[0].benches;
        let ids: Vec<_> = benches.iter().map(|b| b.id.clone().unwrap()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(benches[0].commands[0].args, ["1"]);
        assert_eq!(benches[2].commands[0].program, PathBuf::from("/bin/true"));
        assert!(benches.iter().all(|b| b.setup.is_some() && b.legacy));
        let config = benchmarks[0].config.as_ref().unwrap();
        assert_eq!(config.sandbox, Some(Sandbox::new(false)));
        // Without a sandbox in any config, 0.10's default: one; 0.13 benches have none.
        let sandbox = sandbox_of(&benches[0], None, "/nowhere");
        assert_eq!(sandbox, Some(Sandbox::new(true)));
        assert_eq!(sandbox_of(&Bench::new("x"), None, "/nowhere"), None);
        let off = sandbox_of(&benches[0], Some(Sandbox::new(false)), "/nowhere");
        assert_eq!(off, Some(Sandbox::new(false)));
        assert_eq!(benches[2].config.as_ref().unwrap().base.envs.len(), 2);
    }
}
