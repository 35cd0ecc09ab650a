//! iai-callgrind 0.13/0.14's config methods on benchgrind's config types:
//! `with_raw_callgrind_args`, `callgrind_args`, `valgrind_args`, `truncate_description`,
//! `output_format`, `entry_point`, `tool_override` on [`LibraryBenchmarkConfig`] and
//! [`BinaryBenchmarkConfig`] (the latter also `current_dir` and `setup_parallel`),
//! [`FlamegraphConfig::subtitle`] and [`Sandbox::follow_symlinks`].
//!
//! Part of configure, the first stage: these methods only set values ([`Extra`](crate::config::library::Extra)
//! and the types' own fields) that [`crate::config::resolve()`] and the plan read. Nothing imports this
//! module; its impl blocks are found through the types.

use std::path::PathBuf;

use super::v0_13::OutputFormat;
use crate::config::binary::{BinaryBenchmarkConfig, Sandbox};
use crate::config::entry_point::EntryPoint;
use crate::config::flamegraph::FlamegraphConfig;
use crate::config::library::LibraryBenchmarkConfig;
use crate::config::tool::{valgrind_args, Tool};
use crate::config::tool_values::ToolSpec;

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
        self.compat.valgrind_args.extend(valgrind_args(args));
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
        if let Some(value) = format.show_intermediate {
            self.separate_threads = Some(value);
        }
        if format.tolerance.is_some() {
            self.compat.tolerance = format.tolerance;
        }
        if format.show_grid.is_some() {
            self.compat.show_grid = format.show_grid;
        }
        self
    }

    /// Where Callgrind counts; see [`EntryPoint`].
    pub fn entry_point<T: Into<EntryPoint>>(&mut self, entry_point: T) -> &mut Self {
        self.compat.entry_point = Some(entry_point.into());
        self
    }

    /// Runs this tool instead of the tools of more general levels and of this level's `tool`
    /// (a [`Callgrind`](crate::config::Callgrind) value configures Callgrind, which always runs).
    pub fn tool_override<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
        match tool.into() {
            ToolSpec::Callgrind(callgrind) => {
                self.compat.tools_override.get_or_insert_with(Vec::new);
                self.callgrind(*callgrind);
                self
            }
            ToolSpec::Other(tool) => self.tools_override([tool]),
            ToolSpec::Perf(perf) => {
                self.perf = Some(*perf);
                self
            }
        }
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
    pub fn tool_override<T: Into<ToolSpec>>(&mut self, tool: T) -> &mut Self {
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
    /// [`Command::setup_parallel`](crate::config::Command::setup_parallel).
    pub fn setup_parallel(&mut self, value: bool) -> &mut Self {
        self.setup_parallel = Some(value);
        self
    }
}

impl FlamegraphConfig {
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

impl Sandbox {
    /// Whether fixtures' symbolic links are copied as what they point to (the default) or, with
    /// `false`, as links (iai-callgrind 0.13).
    pub fn follow_symlinks(&mut self, value: bool) -> &mut Self {
        self.follow_symlinks = Some(value);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{resolve, Tool, ValgrindTool};

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
