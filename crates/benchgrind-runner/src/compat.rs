//! The parts of iai-callgrind's 0.13/0.14 configuration API that benchgrind's own API names
//! differently or did not have: [`BenchmarkId`], [`EntryPoint`], [`OutputFormat`], and the
//! methods `truncate_description`, `entry_point`, `tool_override`, `callgrind_args`,
//! `valgrind_args`, ... of [`LibraryBenchmarkConfig`] and [`BinaryBenchmarkConfig`].
//!
//! Stage 1 of the pipeline (register): everything here is folded by [`crate::config::resolve`]
//! with the rest of a level's configuration, so benchmark code written for iai-callgrind builds
//! unchanged and means what it meant there.

use std::fmt;
use std::path::PathBuf;

use crate::binary::{BinaryBenchmark, BinaryBenchmarkConfig, BinaryBenchmarkGroup};
use crate::config::{normalize_valgrind_arg, LibraryBenchmarkConfig};
use crate::tools::Tool;

/// How many characters of a bench's arguments the header shows by default, as in iai-callgrind
/// 0.13.
pub const DEFAULT_TRUNCATE: usize = 50;

/// The settings of one configuration level that only the iai-callgrind-compatible methods set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra {
    /// `Some(None)`: never cut the header's description; `Some(Some(n))`: cut after `n`.
    pub(crate) truncate_description: Option<Option<usize>>,
    /// The tools of `tool_override`/`tools_override`: they replace the tools of more general
    /// levels and those given with `tool` at this level.
    pub(crate) tools_override: Option<Vec<Tool>>,
    /// Where Callgrind's collection is restricted to.
    pub(crate) entry_point: Option<EntryPoint>,
    /// Valgrind core arguments for Callgrind and every other tool.
    pub(crate) valgrind_args: Vec<String>,
}

/// The id of a bench of the low-level API, with iai-callgrind's constructors.
///
/// `Bench::new` and `BinaryBenchmark::new` take it as they take a `&str`.
///
/// ```rust
/// use benchgrind_runner::compat::BenchmarkId;
///
/// assert_eq!(BenchmarkId::with_parameter("sort", 100).to_string(), "sort_100");
/// assert!(BenchmarkId::new("with space").validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BenchmarkId {
    id: String,
}

impl BenchmarkId {
    /// An id as given.
    pub fn new<T: AsRef<str>>(id: T) -> BenchmarkId {
        BenchmarkId {
            id: id.as_ref().to_owned(),
        }
    }

    /// `id_parameter`, for benches made in a loop.
    pub fn with_parameter<T: AsRef<str>, P: fmt::Display>(id: T, parameter: P) -> BenchmarkId {
        BenchmarkId {
            id: format!("{}_{parameter}", id.as_ref()),
        }
    }

    /// Whether the id can name a benchmark: not empty, starting with a letter or `_`, and made
    /// of letters, digits and `_` only (it becomes a directory name and part of filters).
    pub fn validate(&self) -> Result<(), String> {
        let mut chars = self.id.chars();
        match chars.next() {
            None => Err("a benchmark id must not be empty".to_owned()),
            Some(c) if !(c.is_ascii_alphabetic() || c == '_') => Err(format!(
                "the benchmark id {:?} must start with a letter or `_`",
                self.id
            )),
            Some(_) => match chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
                Some(c) => Err(format!(
                    "the benchmark id {:?} contains {c:?}; use letters, digits and `_`",
                    self.id
                )),
                None => Ok(()),
            },
        }
    }
}

impl fmt::Display for BenchmarkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

impl From<&str> for BenchmarkId {
    fn from(value: &str) -> Self {
        BenchmarkId::new(value)
    }
}

impl From<String> for BenchmarkId {
    fn from(id: String) -> Self {
        BenchmarkId { id }
    }
}

impl From<BenchmarkId> for String {
    fn from(value: BenchmarkId) -> Self {
        value.id
    }
}

impl From<&BenchmarkId> for String {
    fn from(value: &BenchmarkId) -> Self {
        value.id.clone()
    }
}

/// Where Callgrind counts, as iai-callgrind's `EntryPoint`.
///
/// In library benchmarks benchgrind always counts the call of the benchmark function and
/// nothing else ([`EntryPoint::Default`]). [`EntryPoint::Custom`] restricts the count further to
/// a function called from it (a name as Callgrind shows it, wildcards allowed), with Callgrind's
/// `--toggle-collect`. [`EntryPoint::None`] keeps the default window: iai-callgrind counted the
/// whole process then, which the measured window of benchgrind never includes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum EntryPoint {
    /// The benchmark function's call (library benchmarks) or the whole process (binaries).
    None,
    /// The default of the benchmark kind.
    #[default]
    Default,
    /// Only this function and what it calls.
    Custom(String),
}

impl<T: Into<String>> From<T> for EntryPoint {
    fn from(value: T) -> Self {
        EntryPoint::Custom(value.into())
    }
}

/// How the terminal report shows a benchmark, as iai-callgrind 0.14's `OutputFormat`.
///
/// Only [`truncate_description`](Self::truncate_description) changes benchgrind's output:
/// benchgrind has no intermediate (per-thread or per-subprocess) parts to show and prints no
/// grid, so [`show_intermediate`](Self::show_intermediate) and [`show_grid`](Self::show_grid)
/// are accepted and kept for the summary but do not change the terminal report.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutputFormat {
    pub(crate) truncate_description: Option<Option<usize>>,
    pub(crate) show_intermediate: Option<bool>,
    pub(crate) show_grid: Option<bool>,
}

impl OutputFormat {
    /// Cuts the description after the bench id after `n` characters (`None`: never; default
    /// 50).
    pub fn truncate_description(&mut self, value: Option<usize>) -> &mut Self {
        self.truncate_description = Some(value);
        self
    }

    /// Accepted for compatibility; see the type's documentation.
    pub fn show_intermediate(&mut self, value: bool) -> &mut Self {
        self.show_intermediate = Some(value);
        self
    }

    /// Accepted for compatibility; see the type's documentation.
    pub fn show_grid(&mut self, value: bool) -> &mut Self {
        self.show_grid = Some(value);
        self
    }
}

impl From<&mut OutputFormat> for OutputFormat {
    fn from(value: &mut OutputFormat) -> Self {
        value.clone()
    }
}

impl LibraryBenchmarkConfig {
    /// A config with these Callgrind arguments (iai-callgrind 0.13).
    pub fn with_raw_callgrind_args<I, T>(args: T) -> LibraryBenchmarkConfig
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        let mut config = LibraryBenchmarkConfig::default();
        config.raw_callgrind_args(args);
        config
    }

    /// A config with these Callgrind arguments (iai-callgrind 0.14).
    pub fn with_callgrind_args<I, T>(args: T) -> LibraryBenchmarkConfig
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        Self::with_raw_callgrind_args(args)
    }

    /// Adds Callgrind arguments: [`raw_callgrind_args`](Self::raw_callgrind_args) under its
    /// iai-callgrind 0.13 name for iterators.
    pub fn raw_callgrind_args_iter<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.raw_callgrind_args(args)
    }

    /// Adds Callgrind arguments (iai-callgrind 0.14's name of
    /// [`raw_callgrind_args`](Self::raw_callgrind_args)).
    pub fn callgrind_args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.raw_callgrind_args(args)
    }

    /// Adds Valgrind core arguments (`--trace-children=yes`, ...) given to Callgrind and every
    /// other tool.
    pub fn valgrind_args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.compat
            .valgrind_args
            .extend(args.into_iter().map(|a| normalize_valgrind_arg(a.as_ref())));
        self
    }

    /// Cuts the header's description (the arguments) after `n` characters; `None` never cuts.
    /// The default is 50, as in iai-callgrind.
    pub fn truncate_description(&mut self, value: Option<usize>) -> &mut Self {
        self.compat.truncate_description = Some(value);
        self
    }

    /// The terminal output's format; see [`OutputFormat`].
    pub fn output_format<T: Into<OutputFormat>>(&mut self, format: T) -> &mut Self {
        let format = format.into();
        if let Some(value) = format.truncate_description {
            self.compat.truncate_description = Some(value);
        }
        self
    }

    /// Where Callgrind counts; see [`EntryPoint`].
    pub fn entry_point<T: Into<EntryPoint>>(&mut self, entry_point: T) -> &mut Self {
        self.compat.entry_point = Some(entry_point.into());
        self
    }

    /// Runs this tool instead of the tools of more general levels and of this level's `tool`.
    pub fn tool_override(&mut self, tool: Tool) -> &mut Self {
        self.tools_override([tool])
    }

    /// Runs these tools instead of the tools of more general levels and of this level's `tool`
    /// (an empty list runs none).
    pub fn tools_override<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        let list = self.compat.tools_override.get_or_insert_with(Vec::new);
        for tool in tools {
            list.retain(|t| t.kind() != tool.kind());
            list.push(tool);
        }
        self
    }
}

impl BinaryBenchmarkConfig {
    /// A config with these Callgrind arguments (iai-callgrind 0.13).
    pub fn with_raw_callgrind_args<I, T>(args: T) -> BinaryBenchmarkConfig
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        let mut config = BinaryBenchmarkConfig::default();
        config.raw_callgrind_args(args);
        config
    }

    /// A config with these Callgrind arguments (iai-callgrind 0.14).
    pub fn with_callgrind_args<I, T>(args: T) -> BinaryBenchmarkConfig
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        Self::with_raw_callgrind_args(args)
    }

    /// See [`LibraryBenchmarkConfig::raw_callgrind_args_iter`].
    pub fn raw_callgrind_args_iter<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.raw_callgrind_args(args)
    }

    /// See [`LibraryBenchmarkConfig::callgrind_args`].
    pub fn callgrind_args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.raw_callgrind_args(args)
    }

    /// See [`LibraryBenchmarkConfig::valgrind_args`].
    pub fn valgrind_args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.base.valgrind_args(args);
        self
    }

    /// See [`LibraryBenchmarkConfig::truncate_description`].
    pub fn truncate_description(&mut self, value: Option<usize>) -> &mut Self {
        self.base.truncate_description(value);
        self
    }

    /// See [`LibraryBenchmarkConfig::output_format`].
    pub fn output_format<T: Into<OutputFormat>>(&mut self, format: T) -> &mut Self {
        self.base.output_format(format);
        self
    }

    /// See [`LibraryBenchmarkConfig::tool_override`].
    pub fn tool_override(&mut self, tool: Tool) -> &mut Self {
        self.base.tool_override(tool);
        self
    }

    /// See [`LibraryBenchmarkConfig::tools_override`].
    pub fn tools_override<I: IntoIterator<Item = Tool>>(&mut self, tools: I) -> &mut Self {
        self.base.tools_override(tools);
        self
    }

    /// The working directory of the commands that do not set their own (relative paths start
    /// at the sandbox, or at the package's directory without one).
    pub fn current_dir<T: Into<PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Runs the setups alongside the commands; see
    /// [`Command::setup_parallel`](crate::binary::Command::setup_parallel).
    pub fn setup_parallel(&mut self, value: bool) -> &mut Self {
        self.setup_parallel = Some(value);
        self
    }
}

impl crate::flamegraph::FlamegraphConfig {
    /// The subtitle of every flamegraph (iai-callgrind 0.13); differential ones otherwise say
    /// what they compare.
    pub fn subtitle<T: Into<String>>(&mut self, subtitle: T) -> &mut Self {
        self.subtitle = Some(subtitle.into());
        self
    }

    /// Colors differential flamegraphs by the old run's widths instead of the new one's
    /// (inferno's `--negate`).
    pub fn negate_differential(&mut self, value: bool) -> &mut Self {
        self.negate_differential = Some(value);
        self
    }
}

impl crate::binary::Sandbox {
    /// Whether fixtures' symbolic links are copied as what they point to (the default) or, with
    /// `false`, as links (iai-callgrind 0.13).
    pub fn follow_symlinks(&mut self, value: bool) -> &mut Self {
        self.follow_symlinks = Some(value);
        self
    }
}

impl BinaryBenchmarkGroup {
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
}

/// Stands for what benchgrind cannot take: an argument of a method that iai-callgrind had and
/// benchgrind keeps only to name the alternative in a compile error.
#[diagnostic::on_unimplemented(
    message = "Tool::outfile_modifier is not supported by benchgrind: each tool writes one \
               out file per benchmark, which benchgrind reads",
    label = "remove `.outfile_modifier(...)`",
    note = "for a tool's view of child processes, pass `--trace-children=yes` in Tool::args and \
            measure the children as binary benchmarks of their own"
)]
pub trait OutfileModifierUnsupported {}

impl Tool {
    /// iai-callgrind's `outfile_modifier` (`%p`, ...): not supported, a compile error naming the
    /// alternative (see [`OutfileModifierUnsupported`]).
    pub fn outfile_modifier<T: OutfileModifierUnsupported>(self, _modifier: T) -> Tool {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::resolve;
    use crate::tools::ValgrindTool;

    #[test]
    fn benchmark_ids_are_validated_like_identifiers() {
        assert!(BenchmarkId::new("bench_1").validate().is_ok());
        assert!(BenchmarkId::new("").validate().is_err());
        assert!(BenchmarkId::new("1x").validate().is_err());
        assert!(BenchmarkId::new("a-b").validate().is_err());
        let id: String = BenchmarkId::with_parameter("n", 3).into();
        assert_eq!(id, "n_3");
    }

    #[test]
    fn tool_override_drops_general_tools_and_valgrind_args_reach_every_tool() {
        let mut main = LibraryBenchmarkConfig::default();
        main.tool(Tool::new(ValgrindTool::DHAT));
        let mut bench = LibraryBenchmarkConfig::default();
        bench
            .tool(Tool::new(ValgrindTool::Massif))
            .tool_override(Tool::new(ValgrindTool::Memcheck))
            .valgrind_args(["trace-children=yes"]);
        let r = resolve([Some(&main), Some(&bench)]);
        let kinds: Vec<_> = r.tools.iter().map(Tool::kind).collect();
        assert_eq!(kinds, [ValgrindTool::Memcheck]);
        assert_eq!(r.tools[0].args, ["--trace-children=yes"]);
        assert!(r
            .raw_callgrind_args
            .contains(&"--trace-children=yes".to_owned()));
    }

    #[test]
    fn truncation_defaults_to_fifty_and_levels_override() {
        assert_eq!(resolve([None]).truncate_description, Some(50));
        let mut never = LibraryBenchmarkConfig::default();
        never.truncate_description(None);
        let mut format = OutputFormat::default();
        format.truncate_description(Some(7));
        let mut seven = LibraryBenchmarkConfig::default();
        seven.output_format(&mut format);
        assert_eq!(resolve([Some(&never)]).truncate_description, None);
        assert_eq!(
            resolve([Some(&never), Some(&seven)]).truncate_description,
            Some(7)
        );
    }
}
