//! The user-facing types of binary benchmarks: the [`Command`] to measure, its [`Stdin`] and
//! [`Stdio`], the expected exit ([`ExitWith`]), the [`Sandbox`], [`BinaryBenchmarkConfig`], and
//! the low-level API's [`BinaryBenchmark`] and [`Bench`] that the `#[binary_benchmark]`
//! attribute also produces (the group that holds them is [`super::binary_group`]'s).

use std::ffi::OsString;
use std::path::PathBuf;

use super::delay::Delay;
use super::entry_point::EntryPoint;
use super::flamegraph::FlamegraphConfig;
use super::library::LibraryBenchmarkConfig;
use super::regression::RegressionConfig;
pub use super::sandbox::Sandbox;
use super::tool::{Tool, ValgrindTool};
use super::tool_values::ToolSpec;

/// A command to measure: a program, its arguments, environment, working directory and streams.
///
/// `new` takes an absolute path, a path relative to the working directory, or a name looked up
/// in `PATH`. Building it does not run it; the harness runs it under Valgrind.
///
/// ```rust
/// use benchgrind_runner::config::{Command, Stdio};
///
/// let command = Command::new("/usr/bin/sort")
///     .arg("-n")
///     .args(["input.txt"])
///     .env("LC_ALL", "C")
///     .stdout(Stdio::Null)
///     .build();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<OsString>,
    pub(crate) envs: Vec<(OsString, OsString)>,
    pub(crate) current_dir: Option<PathBuf>,
    pub(crate) stdin: Option<Stdin>,
    pub(crate) stdout: Option<Stdio>,
    pub(crate) stderr: Option<Stdio>,
    pub(crate) exit_with: Option<ExitWith>,
    /// What the command waits for before it starts.
    pub(crate) delay: Option<Delay>,
    /// Whether the setup runs alongside the command instead of before it.
    pub(crate) setup_parallel: bool,
}

impl Command {
    /// A command running `program`.
    pub fn new<P: Into<PathBuf>>(program: P) -> Command {
        Command {
            program: program.into(),
            args: Vec::new(),
            envs: Vec::new(),
            current_dir: None,
            stdin: None,
            stdout: None,
            stderr: None,
            exit_with: None,
            delay: None,
            setup_parallel: false,
        }
    }

    /// Adds an argument.
    pub fn arg<A: Into<OsString>>(&mut self, arg: A) -> &mut Self {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub fn args<I, A>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable of the command (on top of the config's).
    pub fn env<K: Into<OsString>, V: Into<OsString>>(&mut self, key: K, value: V) -> &mut Self {
        self.envs.push((key.into(), value.into()));
        self
    }

    /// Sets environment variables of the command.
    pub fn envs<I, K, V>(&mut self, envs: I) -> &mut Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<OsString>,
        V: Into<OsString>,
    {
        self.envs
            .extend(envs.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// The working directory of the command (relative paths start at the sandbox when there is
    /// one, else at the package directory).
    pub fn current_dir<P: Into<PathBuf>>(&mut self, dir: P) -> &mut Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Where the command's standard input comes from (default: nothing, `Stdin::Null`).
    pub fn stdin<S: Into<Stdin>>(&mut self, stdin: S) -> &mut Self {
        self.stdin = Some(stdin.into());
        self
    }

    /// Where the command's standard output goes (default: captured, shown on failure).
    pub fn stdout<S: Into<Stdio>>(&mut self, stdout: S) -> &mut Self {
        self.stdout = Some(stdout.into());
        self
    }

    /// Where the command's standard error goes (default: captured, shown on failure).
    pub fn stderr<S: Into<Stdio>>(&mut self, stderr: S) -> &mut Self {
        self.stderr = Some(stderr.into());
        self
    }

    /// The exit the command is expected to have (over the config's).
    pub fn exit_with<T: Into<ExitWith>>(&mut self, exit_with: T) -> &mut Self {
        self.exit_with = Some(exit_with.into());
        self
    }

    /// Starts the command only once the [`Delay`] holds (iai-callgrind
    /// 0.14), e.g. a server's port accepts connections.
    pub fn delay<T: Into<Delay>>(&mut self, delay: T) -> &mut Self {
        self.delay = Some(delay.into());
        self
    }

    /// Runs the setup alongside the command, not before it: the setup may start a server that
    /// the command talks to (wait for it with [`delay`](Self::delay)). A setup still running when
    /// the command has ended is stopped.
    pub fn setup_parallel(&mut self, value: bool) -> &mut Self {
        self.setup_parallel = value;
        self
    }

    /// The finished command.
    pub fn build(&mut self) -> Command {
        self.clone()
    }

    /// The header's form: the program's file name and the arguments.
    pub fn display_short(&self) -> String {
        let name = self.program.file_name().unwrap_or(self.program.as_os_str());
        std::iter::once(name)
            .chain(self.args.iter().map(OsString::as_os_str))
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The command line for messages and the summary: the program and its arguments.
    pub fn display(&self) -> String {
        std::iter::once(self.program.as_os_str())
            .chain(self.args.iter().map(OsString::as_os_str))
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl From<&mut Command> for Command {
    fn from(value: &mut Command) -> Self {
        value.clone()
    }
}

/// Which output of the setup feeds the command's standard input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pipe {
    /// The setup's standard output (the default).
    #[default]
    Stdout,
    /// The setup's standard error.
    Stderr,
}

/// Where a command's standard input comes from. A path converts into [`Stdin::File`].
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Stdin {
    /// The harness' standard input (the type's default; a command without `stdin` reads
    /// nothing).
    #[default]
    Inherit,
    /// An empty pipe.
    Pipe,
    /// Nothing (`/dev/null`).
    Null,
    /// A file (relative to the command's working directory).
    File(PathBuf),
    /// The output of the bench's `setup`: all of it, as the setup ran to its end before the
    /// command starts (a command reading a pipe still being written would count a different
    /// number of reads on every run).
    Setup(Pipe),
}

/// Where a command's standard output or error goes. A path converts into [`Stdio::File`].
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Stdio {
    /// The harness' terminal (the type's default; a command without `stdout`/`stderr` has them
    /// captured).
    #[default]
    Inherit,
    /// Captured: shown when the benchmark fails, or with `BENCHGRIND_LOG=info`.
    Pipe,
    /// Discarded.
    Null,
    /// A file (relative to the command's working directory), created or truncated.
    File(PathBuf),
}

impl From<Stdio> for Stdin {
    fn from(value: Stdio) -> Self {
        match value {
            Stdio::Inherit => Stdin::Inherit,
            Stdio::Pipe => Stdin::Pipe,
            Stdio::Null => Stdin::Null,
            Stdio::File(p) => Stdin::File(p),
        }
    }
}

/// The exit a command is expected to have; any other fails the benchmark (see
/// `config::binary_io` for how it is checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitWith {
    /// Exit code 0 (the default).
    Success,
    /// Any exit code but 0.
    Failure,
    /// Exactly this exit code.
    Code(i32),
    /// Killed by this signal (gungraun 0.20), e.g. `libc::SIGABRT` (6).
    Signal(i32),
    /// Killed by any of these signals (gungraun 0.20).
    Signals(Vec<i32>),
}

/// Configuration of binary benchmarks, at `main!`, group, `#[binary_benchmark]` or `#[bench]`
/// level; the more specific level wins, `envs` and `raw_callgrind_args` add up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BinaryBenchmarkConfig {
    pub(crate) base: LibraryBenchmarkConfig,
    pub(crate) sandbox: Option<Sandbox>,
    pub(crate) exit_with: Option<ExitWith>,
    pub(crate) entry_point: Option<String>,
    /// The commands' working directory, for those that do not set their own.
    pub(crate) current_dir: Option<PathBuf>,
    /// Runs setups alongside the commands ([`Command::setup_parallel`]).
    pub(crate) setup_parallel: Option<bool>,
}

// From `raw_callgrind_args` on, a deliberate mirror of `LibraryBenchmarkConfig`'s builders: the
// same names for both kinds of benchmark (as the API users know has them), each delegating to
// the library config inside.
impl BinaryBenchmarkConfig {
    /// How long one run of the command may take; see
    /// [`LibraryBenchmarkConfig::timeout`].
    pub fn timeout(&mut self, limit: std::time::Duration) -> &mut Self {
        self.base.timeout(limit);
        self
    }

    /// Shows the counts of each process the command starts, and of each thread, besides their
    /// total; see [`LibraryBenchmarkConfig::separate_threads`].
    pub fn separate_threads(&mut self, value: bool) -> &mut Self {
        self.base.separate_threads(value);
        self
    }

    /// Runs setup, the command and teardown in a [`Sandbox`].
    pub fn sandbox<S: Into<Sandbox>>(&mut self, sandbox: S) -> &mut Self {
        self.sandbox = Some(sandbox.into());
        self
    }

    /// The exit the command is expected to have.
    pub fn exit_with<T: Into<ExitWith>>(&mut self, exit_with: T) -> &mut Self {
        self.exit_with = Some(exit_with.into());
        self
    }

    /// Counts only this function and what it calls (a name as Callgrind shows it, wildcards
    /// allowed, e.g. `my_crate::main`), instead of the whole process. Takes a name or an
    /// [`EntryPoint`]; `EntryPoint::None` and `Default` count the whole
    /// process.
    pub fn entry_point<S: Into<EntryPoint>>(&mut self, function: S) -> &mut Self {
        self.entry_point = match function.into() {
            EntryPoint::Custom(name) => Some(name),
            EntryPoint::None | EntryPoint::Default => None,
        };
        self
    }

    /// See [`LibraryBenchmarkConfig::raw_callgrind_args`](LibraryBenchmarkConfig::raw_callgrind_args).
    pub fn raw_callgrind_args<I, T>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        self.base.raw_callgrind_args(args);
        self
    }

    /// Sets an environment variable of the command.
    pub fn env<K: Into<OsString>, V: Into<OsString>>(&mut self, key: K, value: V) -> &mut Self {
        self.base.env(key, value);
        self
    }

    /// Sets environment variables of the command.
    pub fn envs<K, V, I>(&mut self, envs: I) -> &mut Self
    where
        K: Into<OsString>,
        V: Into<OsString>,
        I: IntoIterator<Item = (K, V)>,
    {
        self.base.envs(envs);
        self
    }

    /// Passes variables of the harness' environment through to the command.
    pub fn pass_through_envs<K, I>(&mut self, keys: I) -> &mut Self
    where
        K: Into<OsString>,
        I: IntoIterator<Item = K>,
    {
        self.base.pass_through_envs(keys);
        self
    }

    /// Passes one variable of the harness' environment through to the command.
    pub fn pass_through_env<K: Into<OsString>>(&mut self, key: K) -> &mut Self {
        self.base.pass_through_env(key);
        self
    }

    /// Whether the command starts with an empty environment (default: `true`).
    pub fn env_clear(&mut self, value: bool) -> &mut Self {
        self.base.env_clear(value);
        self
    }

    /// Regression limits, as for library benchmarks.
    pub fn regression<R: Into<RegressionConfig>>(&mut self, config: R) -> &mut Self {
        self.base.regression(config);
        self
    }

    /// Runs another Valgrind tool on the command too (DHAT totals cover the whole process, or
    /// the [`entry_point`](Self::entry_point) and what it calls).
    pub fn tool<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
        self.base.tool(tool);
        self
    }

    /// Runs other Valgrind tools on the command too.
    pub fn tools<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.base.tools(tools);
        self
    }

    /// Benchmarks the command with this tool instead of Callgrind; see
    /// [`LibraryBenchmarkConfig::default_tool`].
    pub fn default_tool<T: Into<ValgrindTool>>(&mut self, tool: T) -> &mut Self {
        self.base.default_tool(tool);
        self
    }

    /// Draws flamegraphs of the command's Callgrind profile.
    pub fn flamegraph<F: Into<FlamegraphConfig>>(&mut self, config: F) -> &mut Self {
        self.base.flamegraph(config);
        self
    }
}

impl From<&mut BinaryBenchmarkConfig> for BinaryBenchmarkConfig {
    fn from(value: &mut BinaryBenchmarkConfig) -> Self {
        value.clone()
    }
}

impl From<&BinaryBenchmarkConfig> for BinaryBenchmarkConfig {
    fn from(value: &BinaryBenchmarkConfig) -> Self {
        value.clone()
    }
}

/// A hook of a binary benchmark: setup or teardown, run in a child process of the bench binary
/// (in the sandbox when there is one).
pub type Hook = fn();

/// One benchmark of the low-level API: an id, a command, and optional config, setup and
/// teardown.
#[derive(Debug, Clone)]
pub struct Bench {
    pub(crate) id: Option<String>,
    pub(crate) commands: Vec<Command>,
    pub(crate) config: Option<BinaryBenchmarkConfig>,
    pub(crate) setup: Option<Hook>,
    pub(crate) teardown: Option<Hook>,
    /// The arguments as written in `#[bench]`, for the header.
    pub(crate) args_display: Option<String>,
    /// Made by an iai-callgrind 0.10 `Run`: the header shows the command as 0.10 did.
    pub(crate) legacy: bool,
}

impl Bench {
    /// A bench with this id.
    pub fn new<S: Into<String>>(id: S) -> Bench {
        Bench {
            id: Some(id.into()),
            commands: Vec::new(),
            config: None,
            setup: None,
            teardown: None,
            args_display: None,
            legacy: false,
        }
    }

    /// The command to measure; more than one makes benches `id_0`, `id_1`, ...
    pub fn command<C: Into<Command>>(&mut self, command: C) -> &mut Self {
        self.commands.push(command.into());
        self
    }

    /// Commands to measure.
    pub fn commands<I, C>(&mut self, commands: I) -> &mut Self
    where
        I: IntoIterator<Item = C>,
        C: Into<Command>,
    {
        self.commands.extend(commands.into_iter().map(Into::into));
        self
    }

    /// The bench's config.
    pub fn config<C: Into<BinaryBenchmarkConfig>>(&mut self, config: C) -> &mut Self {
        self.config = Some(config.into());
        self
    }

    /// Runs just before the command.
    pub fn setup(&mut self, setup: Hook) -> &mut Self {
        self.setup = Some(setup);
        self
    }

    /// Runs just after the command, when it exited as expected.
    pub fn teardown(&mut self, teardown: Hook) -> &mut Self {
        self.teardown = Some(teardown);
        self
    }
}

impl From<&mut Bench> for Bench {
    fn from(value: &mut Bench) -> Self {
        value.clone()
    }
}

/// A benchmark function of the low-level API: a name and its benches.
#[derive(Debug, Clone)]
pub struct BinaryBenchmark {
    pub(crate) name: String,
    pub(crate) config: Option<BinaryBenchmarkConfig>,
    pub(crate) benches: Vec<Bench>,
    pub(crate) setup: Option<Hook>,
    pub(crate) teardown: Option<Hook>,
}

// `config`, `setup` and `teardown` deliberately mirror `Bench`'s: a benchmark's value is the
// default of its benches.
impl BinaryBenchmark {
    /// A benchmark with this name (it takes the place of the function name in ids).
    pub fn new<S: Into<String>>(name: S) -> BinaryBenchmark {
        BinaryBenchmark {
            name: name.into(),
            config: None,
            benches: Vec::new(),
            setup: None,
            teardown: None,
        }
    }

    /// Adds a bench.
    pub fn bench<B: Into<Bench>>(&mut self, bench: B) -> &mut Self {
        self.benches.push(bench.into());
        self
    }

    /// The config of all its benches.
    pub fn config<C: Into<BinaryBenchmarkConfig>>(&mut self, config: C) -> &mut Self {
        self.config = Some(config.into());
        self
    }

    /// The setup of benches that have none.
    pub fn setup(&mut self, setup: Hook) -> &mut Self {
        self.setup = Some(setup);
        self
    }

    /// The teardown of benches that have none.
    pub fn teardown(&mut self, teardown: Hook) -> &mut Self {
        self.teardown = Some(teardown);
        self
    }
}

impl From<&mut BinaryBenchmark> for BinaryBenchmark {
    fn from(value: &mut BinaryBenchmark) -> Self {
        value.clone()
    }
}

impl ExitWith {
    /// Whether an exit code meets the expectation (an expected signal is never an exit code).
    pub fn accepts(&self, code: i32) -> bool {
        match self {
            ExitWith::Success => code == 0,
            ExitWith::Failure => code != 0,
            ExitWith::Code(c) => code == *c,
            ExitWith::Signal(_) | ExitWith::Signals(_) => false,
        }
    }

    /// Whether an end by this signal meets the expectation.
    pub fn accepts_signal(&self, signal: i32) -> bool {
        match self {
            ExitWith::Signal(s) => *s == signal,
            ExitWith::Signals(signals) => signals.contains(&signal),
            _ => false,
        }
    }

    /// The expectation in a message: `success (0)`, `signal 6`, ...
    pub(crate) fn describe(&self) -> String {
        match self {
            ExitWith::Success => "success (0)".to_owned(),
            ExitWith::Failure => "a failure (not 0)".to_owned(),
            ExitWith::Code(c) => format!("code {c}"),
            ExitWith::Signal(s) => format!("signal {s}"),
            ExitWith::Signals(signals) => {
                let list: Vec<String> = signals.iter().map(i32::to_string).collect();
                format!("one of the signals {}", list.join(", "))
            }
        }
    }
}
