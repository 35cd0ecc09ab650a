//! The Valgrind tools users can ask for besides Callgrind ([`Tool`]), their names, and the
//! `--tools` list ([`ToolList`]), and the settings a tool given as a value carries
//! ([`super::tool_values`]: arguments, metrics shown, limits, DHAT's frames). Running them is
//! [`crate::execute`]'s; reading their files [`crate::metrics`]'.

use super::entry_point::EntryPoint;
use super::metric::AnyMetric;
use super::regression::RegressionConfig;
use crate::error::Problem;
use crate::problem;
use std::str::FromStr;

/// A Valgrind tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(clippy::upper_case_acronyms)]
pub enum ValgrindTool {
    /// Instruction counts and the cache simulation; always runs, as the primary tool.
    Callgrind,
    /// Memory errors: uninitialised values, invalid accesses, leaks.
    Memcheck,
    /// Data races and lock order problems.
    Helgrind,
    /// Data races, another detector.
    DRD,
    /// Heap profile over time.
    Massif,
    /// Heap use per allocation site: bytes, blocks, lifetimes, accesses.
    DHAT,
    /// Basic block vectors (`exp-bbv`), for SimPoint.
    BBV,
    /// The cache simulation without call graph.
    Cachegrind,
}

impl ValgrindTool {
    /// Every tool besides Callgrind, in the order they run.
    pub const OTHERS: [ValgrindTool; 7] = [
        ValgrindTool::DHAT,
        ValgrindTool::Massif,
        ValgrindTool::Memcheck,
        ValgrindTool::Helgrind,
        ValgrindTool::DRD,
        ValgrindTool::BBV,
        ValgrindTool::Cachegrind,
    ];

    /// The lower-case name used in file names, `--tools` and JSON.
    pub fn id(self) -> &'static str {
        match self {
            ValgrindTool::Callgrind => "callgrind",
            ValgrindTool::Memcheck => "memcheck",
            ValgrindTool::Helgrind => "helgrind",
            ValgrindTool::DRD => "drd",
            ValgrindTool::Massif => "massif",
            ValgrindTool::DHAT => "dhat",
            ValgrindTool::BBV => "bbv",
            ValgrindTool::Cachegrind => "cachegrind",
        }
    }

    /// The name as Valgrind's `--tool=` wants it.
    pub fn valgrind_name(self) -> &'static str {
        match self {
            ValgrindTool::BBV => "exp-bbv",
            other => other.id(),
        }
    }

    /// The name in the report.
    pub fn title(self) -> &'static str {
        match self {
            ValgrindTool::Callgrind => "Callgrind",
            ValgrindTool::Memcheck => "Memcheck",
            ValgrindTool::Helgrind => "Helgrind",
            ValgrindTool::DRD => "DRD",
            ValgrindTool::Massif => "Massif",
            ValgrindTool::DHAT => "DHAT",
            ValgrindTool::BBV => "BBV",
            ValgrindTool::Cachegrind => "Cachegrind",
        }
    }

    /// The tool of a name (`dhat`, `DHAT`, `exp-bbv`), without regard to case.
    pub fn from_name(name: &str) -> Option<ValgrindTool> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("exp-bbv") {
            return Some(ValgrindTool::BBV);
        }
        std::iter::once(ValgrindTool::Callgrind)
            .chain(Self::OTHERS)
            .find(|t| t.id().eq_ignore_ascii_case(name))
    }

    /// Whether the tool ends with an `ERROR SUMMARY` (and so takes `--error-exitcode`).
    pub fn reports_errors(self) -> bool {
        matches!(
            self,
            ValgrindTool::Memcheck | ValgrindTool::Helgrind | ValgrindTool::DRD
        )
    }

    /// The tool's output file besides the log, if it writes one.
    pub fn out_file(self) -> Option<&'static str> {
        match self {
            ValgrindTool::DHAT => Some("dhat.out"),
            ValgrindTool::Massif => Some("massif.out"),
            ValgrindTool::BBV => Some("bbv.out"),
            ValgrindTool::Cachegrind => Some("cachegrind.out"),
            _ => None,
        }
    }

    /// The log file's name.
    pub fn log_file(self) -> String {
        format!("{}.log", self.id())
    }

    /// The files a run leaves, all rotated together.
    pub fn files(self) -> Vec<String> {
        let mut files = vec![self.log_file()];
        files.extend(self.out_file().map(String::from));
        if self == ValgrindTool::BBV {
            files.push("bbv.pc.out".into());
        }
        files
    }

    /// The file the metrics are read from (and the one saved as a baseline).
    pub fn metrics_file(self) -> String {
        self.out_file()
            .map_or_else(|| self.log_file(), String::from)
    }
}

/// Arguments for Valgrind as a user gives them: each normalized by [`normalize_valgrind_arg`],
/// blank ones left out (`raw_callgrind_args([""])`, a placeholder real benchmarks keep for
/// arguments they comment in and out, would otherwise reach Valgrind as `--`, the end of its
/// options).
pub fn valgrind_args<I, T>(args: I) -> impl Iterator<Item = String>
where
    I: IntoIterator<Item = T>,
    T: AsRef<str>,
{
    args.into_iter()
        .filter(|a| !a.as_ref().trim().is_empty())
        .map(|a| normalize_valgrind_arg(a.as_ref()))
}

/// Valgrind accepts only `--name=value`; users often leave the dashes out.
pub fn normalize_valgrind_arg(arg: &str) -> String {
    let arg = arg.trim();
    if arg.starts_with('-') {
        arg.to_owned()
    } else {
        format!("--{arg}")
    }
}

/// Runs a Valgrind tool besides Callgrind, with its own arguments.
///
/// ```rust
/// use benchgrind_runner::{LibraryBenchmarkConfig, Tool, ValgrindTool};
///
/// let mut config = LibraryBenchmarkConfig::default();
/// config
///     .tool(Tool::new(ValgrindTool::DHAT))
///     .tool(Tool::new(ValgrindTool::Memcheck).args(["--error-exitcode=0"]));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub(crate) kind: ValgrindTool,
    pub(crate) enable: bool,
    pub(crate) args: Vec<String>,
    /// The settings of a tool given as a value ([`super::tool_values`]): which metrics are shown,
    /// limits, DHAT's entry point and frames.
    pub(crate) value: Option<Box<OtherSettings>>,
    /// Under DHAT, the size of the block the measured process holds across the window (see
    /// [`crate::protocol::DHAT_BALLAST_ENV`]); 0 for none. Set by the harness, not by users.
    pub(crate) ballast: u64,
    /// How Valgrind names each process's files (`%p`, ...), see [`Tool::outfile_modifier`].
    pub(crate) modifier: Option<String>,
}

/// gungraun 0.20 names the tools `Tool::Callgrind`, `Tool::DHAT`, ... (an enum there, where
/// 0.13's `Tool` is this struct): each is a `Tool` of that kind with its default arguments, for
/// `default_tool(Tool::DHAT)`, `--tools` and the like.
#[allow(non_upper_case_globals)]
impl Tool {
    /// Callgrind.
    pub const Callgrind: Tool = Tool::of(ValgrindTool::Callgrind);
    /// Cachegrind.
    pub const Cachegrind: Tool = Tool::of(ValgrindTool::Cachegrind);
    /// DHAT.
    pub const DHAT: Tool = Tool::of(ValgrindTool::DHAT);
    /// Memcheck.
    pub const Memcheck: Tool = Tool::of(ValgrindTool::Memcheck);
    /// Helgrind.
    pub const Helgrind: Tool = Tool::of(ValgrindTool::Helgrind);
    /// DRD.
    pub const DRD: Tool = Tool::of(ValgrindTool::DRD);
    /// Massif.
    pub const Massif: Tool = Tool::of(ValgrindTool::Massif);
    /// BBV (`exp-bbv`).
    pub const BBV: Tool = Tool::of(ValgrindTool::BBV);

    const fn of(kind: ValgrindTool) -> Tool {
        Tool {
            kind,
            enable: true,
            args: Vec::new(),
            value: None,
            ballast: 0,
            modifier: None,
        }
    }
}

impl From<Tool> for ValgrindTool {
    fn from(tool: Tool) -> ValgrindTool {
        tool.kind
    }
}

impl From<&Tool> for ValgrindTool {
    fn from(tool: &Tool) -> ValgrindTool {
        tool.kind
    }
}

impl Tool {
    /// The tool with its default arguments.
    pub fn new(kind: ValgrindTool) -> Tool {
        Tool {
            kind,
            enable: true,
            args: Vec::new(),
            value: None,
            ballast: 0,
            modifier: None,
        }
    }

    /// Adds Valgrind arguments for this tool, with or without the leading `--`. They come after
    /// benchgrind's defaults (so `--error-exitcode=0` replaces the default of 201); the output
    /// file options are benchgrind's and cannot be moved.
    pub fn args<I, T>(mut self, args: I) -> Tool
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        self.args.extend(valgrind_args(args));
        self
    }

    /// Names each process's files with `modifier` as Valgrind expands it (`%p`: the process id,
    /// the default; `%q{VAR}`: an environment variable, `%%`: `%`). Every tool follows the
    /// processes a benchmark starts (`--trace-children=yes`, which `.args(["--trace-children=no"])`
    /// turns off), and each process writes its own files. The benchmark's own process's files
    /// keep the usual names, which the report reads; its children's go to `children/` in the
    /// benchmark's directory as `<file>.<expansion>` (`children/dhat.out.4242`), replaced by the
    /// next run of the tool, and their error counts (Memcheck, Helgrind, DRD) and, for a binary
    /// benchmark, their DHAT totals add to the benchmark's. Only `%p` tells the benchmark's
    /// process apart: without it the first file in name order is taken for its. An empty
    /// modifier means the default.
    ///
    /// ```rust
    /// use benchgrind_runner::{Tool, ValgrindTool};
    ///
    /// let tool = Tool::new(ValgrindTool::DHAT)
    ///     .args(["--trace-children=yes"])
    ///     .outfile_modifier("%p");
    /// # let _ = tool;
    /// ```
    pub fn outfile_modifier<S: Into<String>>(mut self, modifier: S) -> Tool {
        let modifier = modifier.into();
        self.modifier = (!modifier.is_empty()).then_some(modifier);
        self
    }

    /// The modifier of each process's file names: the configured one, else `%p`.
    pub(crate) fn modifier(&self) -> &str {
        self.modifier.as_deref().unwrap_or("%p")
    }

    /// Switches a tool that a more general level enabled off (or on again).
    pub fn enable(mut self, value: bool) -> Tool {
        self.enable = value;
        self
    }

    /// Which tool.
    pub fn kind(&self) -> ValgrindTool {
        self.kind
    }

    /// The same tool run with a ballast of `bytes` around the window (DHAT only).
    pub(crate) fn with_ballast(&self, bytes: u64) -> Tool {
        Tool {
            ballast: bytes,
            ..self.clone()
        }
    }
}

impl FromStr for ValgrindTool {
    type Err = Problem;

    /// A tool by name (`dhat`, `DHAT`, `exp-bbv`), without regard to case.
    fn from_str(name: &str) -> Result<ValgrindTool, Problem> {
        ValgrindTool::from_name(name).ok_or_else(|| {
            problem!(
                "unknown tool `{}`; use any of: {}",
                name.trim(),
                std::iter::once("callgrind")
                    .chain(ValgrindTool::OTHERS.map(ValgrindTool::id))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }
}

/// The tools of `--tools=dhat,memcheck`: each once, in the order given. Callgrind, which runs
/// anyway as the default tool, runs besides another default tool when listed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolList(pub Vec<ValgrindTool>);

impl FromStr for ToolList {
    type Err = Problem;

    fn from_str(text: &str) -> Result<ToolList, Problem> {
        let mut tools = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let tool: ValgrindTool = name.parse()?;
            if !tools.contains(&tool) {
                tools.push(tool);
            }
        }
        Ok(ToolList(tools))
    }
}

/// The tools one benchmark runs: those of its configuration, then those of `--tools` that the
/// configuration does not name; disabled ones left out.
pub fn selected(config_tools: &[Tool], cli_tools: &[ValgrindTool]) -> Vec<Tool> {
    let mut tools: Vec<Tool> = config_tools.iter().filter(|t| t.enable).cloned().collect();
    for &kind in cli_tools {
        if !config_tools.iter().any(|t| t.kind == kind) {
            tools.push(Tool::new(kind));
        }
    }
    tools.sort_by_key(|t| ValgrindTool::OTHERS.iter().position(|k| *k == t.kind));
    tools
}

/// Whether a tool's output files are rewritten to what was counted (gungraun 0.19+, DHAT). The
/// report's figures are restricted either way; benchgrind leaves DHAT's file as DHAT wrote it,
/// so the three settings differ only in whether that file is kept as `.orig` as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SanitizeOutput {
    /// Leave the file as the tool wrote it.
    No,
    /// Rewrite it and keep the original beside it.
    KeepOrig,
    /// Rewrite it (the default).
    #[default]
    Yes,
}

/// The settings of a tool other than Callgrind given as a value.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct OtherSettings {
    pub args: Vec<String>,
    pub enable: Option<bool>,
    pub entry_point: Option<EntryPoint>,
    pub frames: Vec<String>,
    pub sanitize: Option<SanitizeOutput>,
    pub format: Option<Vec<AnyMetric>>,
    pub limits: RegressionConfig,
    pub has_limits: bool,
}

/// Merges `specific` into `general`, the settings of two values of the same tool: what the
/// specific one sets replaces (the arguments are the [`Tool`](super::tool::Tool)'s).
pub(crate) fn merge_other(general: &mut OtherSettings, specific: &OtherSettings) {
    if specific.enable.is_some() {
        general.enable = specific.enable;
    }
    if specific.entry_point.is_some() {
        general.entry_point.clone_from(&specific.entry_point);
    }
    general.frames.extend(specific.frames.iter().cloned());
    if specific.sanitize.is_some() {
        general.sanitize = specific.sanitize;
    }
    if specific.format.is_some() {
        general.format.clone_from(&specific.format);
    }
    if specific.has_limits {
        general.limits.merge(&specific.limits);
        general.has_limits = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ToolMetric;

    #[test]
    fn blank_arguments_are_left_out_and_the_rest_get_their_dashes() {
        let args: Vec<String> =
            valgrind_args(["", "  ", "fair-sched=yes", "--time-stamp=yes"]).collect();
        assert_eq!(args, ["--fair-sched=yes", "--time-stamp=yes"]);
        let mut config = crate::LibraryBenchmarkConfig::default();
        config.raw_callgrind_args([""]);
        assert!(config.raw_callgrind_args.is_empty());
    }

    fn parse_tool_list(text: &str) -> Result<Vec<ValgrindTool>, Problem> {
        text.parse::<ToolList>().map(|l| l.0)
    }

    #[test]
    fn names_and_tool_lists() {
        assert_eq!(ValgrindTool::from_name("DHAT"), Some(ValgrindTool::DHAT));
        assert_eq!(ValgrindTool::from_name("exp-bbv"), Some(ValgrindTool::BBV));
        assert_eq!(
            parse_tool_list("dhat, memcheck,dhat").unwrap(),
            vec![ValgrindTool::DHAT, ValgrindTool::Memcheck]
        );
        assert_eq!(
            parse_tool_list("callgrind").unwrap(),
            [ValgrindTool::Callgrind]
        );
        assert!(parse_tool_list("dhatt")
            .unwrap_err()
            .contains("unknown tool `dhatt`"));
        assert_eq!(
            ToolMetric::from_name("totalbytes"),
            Some(ToolMetric::TotalBytes)
        );
    }

    #[test]
    fn config_tools_come_first_and_disabled_ones_stay_off() {
        let config = [
            Tool::new(ValgrindTool::Memcheck).args(["--leak-check=full"]),
            Tool::new(ValgrindTool::Massif).enable(false),
        ];
        let tools = selected(
            &config,
            &[
                ValgrindTool::DHAT,
                ValgrindTool::Memcheck,
                ValgrindTool::Massif,
            ],
        );
        let kinds: Vec<_> = tools.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, [ValgrindTool::DHAT, ValgrindTool::Memcheck]);
        assert_eq!(tools[1].args, ["--leak-check=full"]);
    }
}
