//! The other Valgrind tools (DHAT, Massif, BBV, Memcheck, Helgrind, DRD, Cachegrind): their
//! configuration, their command lines and what the runner reads from their files.
//!
//! Each tool runs the benchmark in a Valgrind process of its own after Callgrind's, through the
//! same [`Executor`](crate::execute::Executor), and keeps its files next to Callgrind's
//! (`dhat.out`, `massif.out`, `memcheck.log`, ...), with the same `*.new`/`*.old` rotation.
//! None of these tools understands Callgrind's instrumentation requests, so each runs over the
//! whole measured process; what it reports is restricted to the benchmark afterwards where the
//! output allows it (DHAT: only allocation sites whose stack contains the benchmark function).

mod metrics;
pub mod run;

pub use metrics::{check, ToolMetric, ToolMetrics, ToolRegression};

use std::path::{Path, PathBuf};

use crate::config::normalize_valgrind_arg;
use crate::parse::{dhat, errors, massif, ParseError};
use crate::store::{BenchPaths, Which};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub(crate) kind: ValgrindTool,
    pub(crate) enable: bool,
    pub(crate) args: Vec<String>,
}

impl Tool {
    /// The tool with its default arguments.
    pub fn new(kind: ValgrindTool) -> Tool {
        Tool {
            kind,
            enable: true,
            args: Vec::new(),
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
        self.args
            .extend(args.into_iter().map(|a| normalize_valgrind_arg(a.as_ref())));
        self
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
}

/// The arguments benchgrind gives a tool, before the user's.
fn default_args(tool: ValgrindTool) -> Vec<String> {
    let mut args = Vec::new();
    if tool.reports_errors() {
        // Errors fail the benchmark; users restore Valgrind's 0 with their own argument.
        args.push("--error-exitcode=201".to_owned());
    }
    match tool {
        // Stacks long enough to reach the benchmark function from inside the allocator (inlined
        // frames count): the restriction to the benchmark looks for it in every stack.
        ValgrindTool::DHAT => args.push("--num-callers=500".into()),
        ValgrindTool::Cachegrind => {
            args.extend(crate::execute::CACHE_GEOMETRY.map(String::from));
        }
        _ => {}
    }
    args
}

/// The complete Valgrind arguments of one tool run (without the program).
pub fn valgrind_args(tool: &Tool, paths: &BenchPaths) -> Vec<String> {
    let kind = tool.kind;
    let mut args = vec![format!("--tool={}", kind.valgrind_name())];
    args.extend(default_args(kind));
    args.extend(tool.args.iter().cloned());
    // Last, so that no user argument can move the files the runner reads.
    let file = |name: &str| paths.file(name, Which::New).display().to_string();
    match kind {
        ValgrindTool::DHAT => args.push(format!("--dhat-out-file={}", file("dhat.out"))),
        ValgrindTool::Massif => args.push(format!("--massif-out-file={}", file("massif.out"))),
        ValgrindTool::Cachegrind => {
            args.push(format!("--cachegrind-out-file={}", file("cachegrind.out")));
        }
        ValgrindTool::BBV => {
            args.push(format!("--bb-out-file={}", file("bbv.out")));
            args.push(format!("--pc-out-file={}", file("bbv.pc.out")));
        }
        _ => {}
    }
    args.push(format!("--log-file={}", file(&kind.log_file())));
    args
}

/// How one tool's run of a benchmark ended.
#[derive(Debug, Clone)]
pub enum ToolOutcome {
    /// It ran; tools without metrics (BBV, Cachegrind) have empty ones.
    Ran {
        /// The new values.
        new: ToolMetrics,
        /// The values compared with.
        old: Option<ToolMetrics>,
    },
    /// It failed (errors found, a crash, an unreadable file); the benchmark fails.
    Failed {
        /// What happened.
        reason: String,
        /// The values, when the files could be read (the error counts of a failing Memcheck).
        new: Option<ToolMetrics>,
    },
}

/// One tool's part of a benchmark's result.
#[derive(Debug, Clone)]
pub struct ToolResult {
    /// The tool.
    pub tool: ValgrindTool,
    /// How it ended.
    pub outcome: ToolOutcome,
    /// Limits passed.
    pub regressions: Vec<ToolRegression>,
    /// The output file (absent for tools that write only a log).
    pub out: Option<PathBuf>,
    /// The log.
    pub log: PathBuf,
}

impl ToolResult {
    /// Whether the tool failed the benchmark.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, ToolOutcome::Failed { .. })
    }
}

/// What to look for when reading a tool's files.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The benchmark function's full path (`crate::module::function`), as Valgrind prints it
    /// in stacks.
    pub function: &'a str,
}

/// Reads the metrics of a tool from its metrics file (`dhat.out`, `massif.out`, or the log of
/// an error-reporting tool). Tools without metrics have none.
pub fn read_metrics(
    tool: ValgrindTool,
    path: &Path,
    cx: Context<'_>,
) -> Result<ToolMetrics, ParseError> {
    let values = match tool {
        ValgrindTool::DHAT => {
            let totals = dhat::parse_file(path)?.restricted_to(cx.function);
            vec![
                (ToolMetric::TotalBytes, totals.total_bytes),
                (ToolMetric::TotalBlocks, totals.total_blocks),
                (ToolMetric::PeakBytes, totals.max_bytes),
                (ToolMetric::PeakBlocks, totals.max_blocks),
                (ToolMetric::AtTEndBytes, totals.end_bytes),
                (ToolMetric::ReadsBytes, totals.read_bytes),
                (ToolMetric::WritesBytes, totals.write_bytes),
            ]
        }
        ValgrindTool::Massif => {
            let peak = massif::parse_file(path)?.peak();
            let mut values = vec![
                (ToolMetric::PeakHeapBytes, peak.heap),
                (ToolMetric::PeakHeapExtraBytes, peak.heap_extra),
            ];
            if peak.stacks > 0 {
                values.push((ToolMetric::PeakStacksBytes, peak.stacks));
            }
            values
        }
        t if t.reports_errors() => {
            let s = errors::parse_file(path)?;
            vec![
                (ToolMetric::Errors, s.errors),
                (ToolMetric::ErrorContexts, s.contexts),
                (ToolMetric::SuppressedErrors, s.suppressed),
                (ToolMetric::SuppressedContexts, s.suppressed_contexts),
            ]
        }
        _ => Vec::new(),
    };
    Ok(ToolMetrics { values })
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

/// Parses `--tools=dhat,memcheck`.
pub fn parse_tool_list(text: &str) -> Result<Vec<ValgrindTool>, String> {
    let mut tools = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let tool = ValgrindTool::from_name(name).ok_or_else(|| {
            format!(
                "unknown tool `{name}`; use any of: {}",
                ValgrindTool::OTHERS.map(ValgrindTool::id).join(", ")
            )
        })?;
        if tool == ValgrindTool::Callgrind {
            return Err("callgrind always runs; list only the other tools".into());
        }
        if !tools.contains(&tool) {
            tools.push(tool);
        }
    }
    Ok(tools)
}

/// A one-line description of a failing tool run, from its error counts.
pub fn describe_errors(tool: ValgrindTool, metrics: &ToolMetrics, how: &str) -> String {
    let errors = metrics.get(ToolMetric::Errors).unwrap_or(0);
    let contexts = metrics.get(ToolMetric::ErrorContexts).unwrap_or(0);
    let plural = |n: u64, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{} found {} in {} ({how})",
        tool.title(),
        plural(errors, "error"),
        plural(contexts, "context")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regression::{Limit, RegressionConfig};

    #[test]
    fn names_and_tool_lists() {
        assert_eq!(ValgrindTool::from_name("DHAT"), Some(ValgrindTool::DHAT));
        assert_eq!(ValgrindTool::from_name("exp-bbv"), Some(ValgrindTool::BBV));
        assert_eq!(
            parse_tool_list("dhat, memcheck,dhat").unwrap(),
            vec![ValgrindTool::DHAT, ValgrindTool::Memcheck]
        );
        assert!(parse_tool_list("callgrind").is_err());
        assert!(parse_tool_list("dhatt")
            .unwrap_err()
            .contains("unknown tool `dhatt`"));
        assert_eq!(
            ToolMetric::from_name("totalbytes"),
            Some(ToolMetric::TotalBytes)
        );
    }

    #[test]
    fn error_tools_fail_by_default_and_users_override_it() {
        let paths = BenchPaths {
            dir: PathBuf::from("/b"),
        };
        let args = valgrind_args(&Tool::new(ValgrindTool::Memcheck), &paths);
        assert_eq!(
            args,
            [
                "--tool=memcheck",
                "--error-exitcode=201",
                "--log-file=/b/memcheck.log.new"
            ]
        );
        let tool = Tool::new(ValgrindTool::Memcheck).args(["error-exitcode=0"]);
        let args = valgrind_args(&tool, &paths);
        let last = args.iter().rposition(|a| a.starts_with("--error-exitcode"));
        assert_eq!(args[last.unwrap()], "--error-exitcode=0");
        let args = valgrind_args(&Tool::new(ValgrindTool::BBV), &paths);
        assert_eq!(args[0], "--tool=exp-bbv");
        assert!(args.contains(&"--pc-out-file=/b/bbv.pc.out.new".to_owned()));
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

    #[test]
    fn tool_limits_relative_and_absolute() {
        let mut config = RegressionConfig::default();
        config
            .tool_limits([(ToolMetric::TotalBytes, 5.0)])
            .tool_hard_limits([(ToolMetric::Errors, 0)]);
        let m = |bytes, errors| ToolMetrics {
            values: vec![
                (ToolMetric::TotalBytes, bytes),
                (ToolMetric::Errors, errors),
            ],
        };
        let found = check(&config, &m(110, 0), Some(&m(100, 0)));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].describe(ValgrindTool::DHAT),
            "DHAT Total bytes (100 -> 110) changed by +10.00000%, past the limit of +5.00000%"
        );
        assert!(check(&config, &m(104, 0), Some(&m(100, 0))).is_empty());
        let found = check(&config, &m(1, 2), None);
        assert_eq!(found[0].limit, Limit::Absolute { cap: 0 });
    }
}
