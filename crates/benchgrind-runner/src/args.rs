//! Stage 2a of the pipeline: the bench binary's command line (after `cargo bench -- ...`) and its
//! `BENCHGRIND_*` environment variables, validated into raw values. The command line wins over
//! the environment, which wins over the code.
//!
//! Every flag is declared once in [`FLAGS`] together with its variable, so none can lack one.
//! The flags libtest knows and cargo may pass (`--bench`, `--exact`, ...) are accepted, so that
//! `cargo bench -- <filter>` never stops at "Unrecognized option".

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::normalize_valgrind_arg;
use crate::regression::{parse_spec, RegressionConfig};
use crate::tools::{parse_tool_list, ValgrindTool};

/// What the command line and environment ask for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cli {
    /// Positional filters: a benchmark runs when its id matches any of them (all when empty).
    pub filters: Vec<String>,
    /// `--skip`: benchmarks matching any of these do not run.
    pub skip: Vec<String>,
    /// `--exact`: filters match the whole id instead of a part of it.
    pub exact: bool,
    /// `--nocapture`: which streams of the benchmark process to show.
    pub nocapture: Nocapture,
    /// `--home`: the root of all output files.
    pub home: Option<PathBuf>,
    /// `--separate-targets`: one directory tree per target triple below the home.
    pub separate_targets: bool,
    /// `--callgrind-args`: extra arguments for Callgrind, after those from the code.
    pub callgrind_args: Vec<String>,
    /// `--tools`: other Valgrind tools to run on every benchmark, besides the code's.
    pub tools: Vec<ValgrindTool>,
    /// `--regression`: limits for every benchmark, over the code's.
    pub regression: Option<RegressionConfig>,
    /// `--regression-fail-fast`.
    pub regression_fail_fast: Option<bool>,
    /// `--save-baseline`: save the run under this name.
    pub save_baseline: Option<String>,
    /// `--baseline`: compare with this baseline instead of the previous run.
    pub baseline: Option<String>,
    /// `--load-baseline`: take the new values from this baseline instead of running.
    pub load_baseline: Option<String>,
    /// `--output-format`.
    pub output_format: OutputFormat,
    /// `--save-summary`: write `summary.json` next to each benchmark's files.
    pub save_summary: Option<JsonStyle>,
    /// `--list`: print the benchmarks instead of running them.
    pub list: bool,
    /// `--ignored` (with `--list`): list the ignored benchmarks, of which there are none.
    pub ignored: bool,
    /// `--help`.
    pub help: bool,
    /// Colored output.
    pub color: Color,
    /// `BENCHGRIND_LOG`.
    pub log: LogLevel,
    /// `--deterministic-random`: overrides the code's `deterministic_random`.
    pub deterministic_random: Option<bool>,
    /// `--random-seed`: overrides the code's `random_seed`.
    pub random_seed: Option<u64>,
    /// `--jobs`: how many benchmarks run at once (default: the available cores).
    pub jobs: Option<usize>,
    /// `--isolation`: a fork server per class of benchmarks, or a process per benchmark.
    pub isolation: Isolation,
    /// `--partition=K/N`: run only the K-th of N deterministic shares of the benchmarks.
    pub partition: Option<(u32, u32)>,
    /// `--test-mode`: run every benchmark once natively, without Valgrind.
    pub test_mode: bool,
    /// `--bench` was given (cargo passes it to bench targets under `cargo bench`).
    pub bench_flag: bool,
    /// `--labels`: the names of the terminal report's metric lines.
    pub labels: crate::report::terminal::Labels,
}

/// How measured processes are started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// One Valgrind process per class of benchmarks, forking a child per benchmark.
    #[default]
    Fork,
    /// One Valgrind process per benchmark.
    Process,
}

/// Which output of the benchmark process is shown instead of captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nocapture {
    /// Both captured (the default); shown with `BENCHGRIND_LOG=info` or when a benchmark fails.
    #[default]
    None,
    /// Both shown.
    All,
    /// Stdout shown, stderr discarded.
    Stdout,
    /// Stderr shown, stdout discarded.
    Stderr,
}

/// When to color the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Color {
    /// When stdout is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// What the run prints on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// The terminal report.
    #[default]
    Default,
    /// One JSON summary per benchmark and line.
    Json,
    /// Indented JSON summaries.
    PrettyJson,
    /// The terminal report, then a Markdown table (for pull-request comments).
    Markdown,
}

/// Compact or indented JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonStyle {
    /// One line.
    Compact,
    /// Indented.
    Pretty,
}

/// How much the harness logs to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum LogLevel {
    /// Errors only.
    Error,
    /// Warnings (the default).
    #[default]
    Warn,
    /// Also the captured output of every benchmark.
    Info,
    /// Also the Valgrind command lines.
    Debug,
    /// Everything.
    Trace,
}

/// How a flag takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// `--flag`; the variable takes yes/no.
    Switch,
    /// `--flag` or `--flag=VALUE`; without a value it means `default`.
    Optional(&'static str),
    /// `--flag=VALUE` or `--flag VALUE`.
    Value,
}

/// A flag of benchgrind and its environment variable.
struct Flag {
    name: &'static str,
    env: &'static str,
    takes: Takes,
}

const fn flag(name: &'static str, env: &'static str, takes: Takes) -> Flag {
    Flag { name, env, takes }
}

/// Every flag with its variable.
const FLAGS: &[Flag] = &[
    flag("--exact", "BENCHGRIND_EXACT", Takes::Switch),
    flag("--list", "BENCHGRIND_LIST", Takes::Switch),
    flag("--skip", "BENCHGRIND_SKIP", Takes::Value),
    flag(
        "--nocapture",
        "BENCHGRIND_NOCAPTURE",
        Takes::Optional("true"),
    ),
    flag("--home", "BENCHGRIND_HOME", Takes::Value),
    flag(
        "--separate-targets",
        "BENCHGRIND_SEPARATE_TARGETS",
        Takes::Switch,
    ),
    flag(
        "--callgrind-args",
        "BENCHGRIND_CALLGRIND_ARGS",
        Takes::Value,
    ),
    flag("--tools", "BENCHGRIND_TOOLS", Takes::Value),
    flag("--regression", "BENCHGRIND_REGRESSION", Takes::Value),
    flag(
        "--regression-fail-fast",
        "BENCHGRIND_REGRESSION_FAIL_FAST",
        Takes::Optional("yes"),
    ),
    flag(
        "--save-baseline",
        "BENCHGRIND_SAVE_BASELINE",
        Takes::Optional("default"),
    ),
    flag(
        "--baseline",
        "BENCHGRIND_BASELINE",
        Takes::Optional("default"),
    ),
    flag(
        "--load-baseline",
        "BENCHGRIND_LOAD_BASELINE",
        Takes::Optional("default"),
    ),
    flag("--output-format", "BENCHGRIND_OUTPUT_FORMAT", Takes::Value),
    flag(
        "--save-summary",
        "BENCHGRIND_SAVE_SUMMARY",
        Takes::Optional("json"),
    ),
    flag(
        "--deterministic-random",
        "BENCHGRIND_DETERMINISTIC_RANDOM",
        Takes::Optional("yes"),
    ),
    flag("--random-seed", "BENCHGRIND_RANDOM_SEED", Takes::Value),
    flag("--jobs", "BENCHGRIND_JOBS", Takes::Value),
    flag("--isolation", "BENCHGRIND_ISOLATION", Takes::Value),
    flag("--partition", "BENCHGRIND_PARTITION", Takes::Value),
    flag("--test-mode", "BENCHGRIND_TEST_MODE", Takes::Switch),
    flag("--labels", "BENCHGRIND_LABELS", Takes::Value),
];

/// libtest's flags, passed by cargo or typed out of habit: accepted; `--format terse` and
/// `--ignored` matter for `--list` (nextest), the rest has no effect here.
const LIBTEST_SWITCHES: &[&str] = &[
    "--bench",
    "--test",
    "--quiet",
    "-q",
    "--show-output",
    "--ignored",
    "--include-ignored",
    "--force-run-in-process",
    "--report-time",
];
const LIBTEST_VALUES: &[&str] = &["--test-threads", "--format", "--color", "-Z", "--logfile"];

/// The help text of a bench binary.
pub const USAGE: &str = "\
Usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER]...

Runs the benchmarks of this file under Valgrind and compares every one with its previous run
(or a baseline). Exit status: 0 ok, 1 a benchmark failed or another error, 2 usage, 3 a
regression limit was passed.

Arguments:
  [FILTER]...                    run benchmarks whose id (file::group::function::id) contains
                                 FILTER; `*` and `?` make it a pattern of the whole id
                                 [env: BENCHGRIND_FILTER]

Options:
      --exact                    a FILTER must match the whole id [env: BENCHGRIND_EXACT]
      --skip FILTER              do not run benchmarks matching FILTER [env: BENCHGRIND_SKIP]
      --list                     list the benchmarks without running them [env: BENCHGRIND_LIST]
      --callgrind-args=ARGS      extra Callgrind arguments, separated by spaces
                                 [env: BENCHGRIND_CALLGRIND_ARGS]
      --tools=TOOLS              also run these Valgrind tools on every benchmark, comma-
                                 separated: dhat, massif, memcheck, helgrind, drd, bbv,
                                 cachegrind [env: BENCHGRIND_TOOLS]
      --regression=LIMITS        fail past these limits, over the code's: METRIC=PERCENT or
                                 METRIC<=COUNT, comma-separated (ir=5%,estimatedcycles=10%);
                                 other tools' metrics too (totalbytes=2%,errors<=0)
                                 [env: BENCHGRIND_REGRESSION]
      --regression-fail-fast[=yes|no]
                                 stop at the first regression [env: BENCHGRIND_REGRESSION_FAIL_FAST]
      --save-baseline[=NAME]     compare with baseline NAME, then save this run as NAME
                                 [default NAME: default] [env: BENCHGRIND_SAVE_BASELINE]
      --baseline[=NAME]          compare with baseline NAME instead of the previous run
                                 [env: BENCHGRIND_BASELINE]
      --load-baseline[=NAME]     with --baseline: compare baseline NAME with it, without running
                                 [env: BENCHGRIND_LOAD_BASELINE]
      --output-format=FORMAT     default, json (a summary per line), pretty-json or markdown
                                 [env: BENCHGRIND_OUTPUT_FORMAT]
      --labels=NAMES             the metric lines' names: iai-callgrind (L2 Hits, the default)
                                 or benchgrind (LL Hits) [env: BENCHGRIND_LABELS]
      --save-summary[=json|pretty-json]
                                 write summary.json next to each benchmark's files
                                 [env: BENCHGRIND_SAVE_SUMMARY]
      --nocapture[=true|false|stdout|stderr]
                                 show the benchmark's output [env: BENCHGRIND_NOCAPTURE]
      --home=DIR                 the root of all output files [default: target/benchgrind]
                                 [env: BENCHGRIND_HOME]
      --separate-targets         one tree per target triple below the home
                                 [env: BENCHGRIND_SEPARATE_TARGETS]
      --deterministic-random[=yes|no]
                                 serve getrandom from a fixed stream in benchmark processes, so
                                 HashMap seeds do not move the counts [default: yes]
                                 [env: BENCHGRIND_DETERMINISTIC_RANDOM]
      --random-seed=N            the seed of that stream [default: 0]
                                 [env: BENCHGRIND_RANDOM_SEED]
      --jobs=N                   run N benchmarks at once [default: the available cores]
                                 [env: BENCHGRIND_JOBS]
      --isolation=fork|process   fork: one Valgrind process per class of benchmarks, forking a
                                 child per benchmark (fast); process: one per benchmark
                                 [default: fork] [env: BENCHGRIND_ISOLATION]
      --partition=K/N            run only the K-th of N shares of the benchmarks (split by id,
                                 the same on every machine), e.g. in CI matrix jobs
                                 [env: BENCHGRIND_PARTITION]
      --test-mode                run every benchmark once natively, without Valgrind; the
                                 default under `cargo test --benches` [env: BENCHGRIND_TEST_MODE]
  -h, --help                     print this help

Environment:
  BENCHGRIND_COLOR               always, never or auto (else CARGO_TERM_COLOR)
  BENCHGRIND_LOG                 error, warn (default), info (captured output), debug, trace
  BENCHGRIND_VALGRIND            the valgrind binary [default: valgrind on PATH]
";

/// A usage error: the message names the flag, variable or value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// A value and where it came from, for messages.
struct Given {
    value: String,
    source: String,
}

/// Parses the arguments (without the program name) over the given environment lookup.
pub fn parse(args: &[OsString], env: &dyn Fn(&str) -> Option<String>) -> Result<Cli, UsageError> {
    let mut cli = Cli::default();
    let mut given: HashMap<&'static str, Given> = HashMap::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let arg = arg
            .to_str()
            .ok_or_else(|| UsageError(format!("argument {arg:?} is not valid UTF-8")))?;
        if !arg.starts_with('-') || arg == "-" {
            cli.filters.push(arg.to_owned());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg, None),
        };
        let mut next_value = |flag: &str| -> Result<String, UsageError> {
            iter.next()
                .and_then(|v| v.to_str().map(str::to_owned))
                .ok_or_else(|| UsageError(format!("{flag} needs a value")))
        };
        if name == "-h" || name == "--help" {
            cli.help = true;
        } else if let Some(flag) = FLAGS.iter().find(|f| f.name == name) {
            let value = match (flag.takes, inline) {
                (Takes::Switch, Some(_)) => {
                    return Err(UsageError(format!("{name} takes no value")));
                }
                (Takes::Switch, None) => "yes".to_owned(),
                (Takes::Optional(default), v) => v.unwrap_or_else(|| default.to_owned()),
                (Takes::Value, Some(v)) => v,
                (Takes::Value, None) => next_value(name)?,
            };
            if flag.name == "--skip" {
                cli.skip.push(value);
                continue;
            }
            given.insert(
                flag.name,
                Given {
                    value,
                    source: flag.name.to_owned(),
                },
            );
        } else if LIBTEST_SWITCHES.contains(&name) {
            cli.ignored |= name == "--ignored";
            cli.bench_flag |= name == "--bench";
        } else if LIBTEST_VALUES.contains(&name) {
            if inline.is_none() {
                next_value(name)?;
            }
        } else {
            return Err(UsageError(format!(
                "unknown option `{name}`; run with --help for the options"
            )));
        }
    }
    for flag in FLAGS {
        if given.contains_key(flag.name) {
            continue;
        }
        if let Some(value) = env(flag.env).filter(|v| !v.is_empty()) {
            if flag.name == "--skip" {
                cli.skip.push(value);
                continue;
            }
            given.insert(
                flag.name,
                Given {
                    value,
                    source: flag.env.to_owned(),
                },
            );
        }
    }
    if cli.filters.is_empty() {
        cli.filters
            .extend(env("BENCHGRIND_FILTER").filter(|f| !f.is_empty()));
    }

    let get = |name: &str| given.get(name);
    cli.exact = get("--exact").map(yes_no).transpose()?.unwrap_or(false);
    cli.list = get("--list").map(yes_no).transpose()?.unwrap_or(false);
    cli.separate_targets = get("--separate-targets")
        .map(yes_no)
        .transpose()?
        .unwrap_or(false);
    cli.regression_fail_fast = get("--regression-fail-fast").map(yes_no).transpose()?;
    cli.deterministic_random = get("--deterministic-random").map(yes_no).transpose()?;
    cli.test_mode = get("--test-mode").map(yes_no).transpose()?.unwrap_or(false);
    cli.jobs = get("--jobs")
        .map(|g| match g.value.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(UsageError(format!(
                "{} is `{}`; use a whole number of at least 1",
                g.source, g.value
            ))),
        })
        .transpose()?;
    cli.isolation = match get("--isolation").map(|g| (g, g.value.to_ascii_lowercase())) {
        None => Isolation::Fork,
        Some((_, v)) if v == "fork" => Isolation::Fork,
        Some((_, v)) if v == "process" => Isolation::Process,
        Some((g, _)) => {
            return Err(UsageError(format!(
                "{} is `{}`; use fork or process",
                g.source, g.value
            )))
        }
    };
    cli.partition = get("--partition")
        .map(|g| {
            let parsed = g.value.split_once('/').and_then(|(k, n)| {
                Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?))
            });
            match parsed {
                Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
                _ => Err(UsageError(format!(
                    "{} is `{}`; write K/N with 1 <= K <= N, e.g. 1/2",
                    g.source, g.value
                ))),
            }
        })
        .transpose()?;
    cli.random_seed = get("--random-seed")
        .map(|g| {
            g.value.parse::<u64>().map_err(|_| {
                UsageError(format!(
                    "{} is `{}`; use a whole number from 0 to {}",
                    g.source,
                    g.value,
                    u64::MAX
                ))
            })
        })
        .transpose()?;
    cli.nocapture = get("--nocapture")
        .map(parse_nocapture)
        .transpose()?
        .unwrap_or_default();
    cli.home = get("--home").map(|g| PathBuf::from(&g.value));
    cli.callgrind_args = get("--callgrind-args")
        .iter()
        .flat_map(|g| g.value.split_whitespace())
        .map(normalize_valgrind_arg)
        .collect();
    cli.tools = get("--tools")
        .map(|g| parse_tool_list(&g.value).map_err(|e| UsageError(format!("{}: {e}", g.source))))
        .transpose()?
        .unwrap_or_default();
    cli.regression = get("--regression")
        .map(|g| parse_spec(&g.value).map_err(|e| UsageError(format!("{}: {e}", g.source))))
        .transpose()?;
    cli.save_baseline = get("--save-baseline").map(baseline_name).transpose()?;
    cli.baseline = get("--baseline").map(baseline_name).transpose()?;
    cli.load_baseline = get("--load-baseline").map(baseline_name).transpose()?;
    if cli.load_baseline.is_some() && cli.baseline.is_none() {
        return Err(UsageError(
            "--load-baseline needs --baseline: it compares two saved baselines".into(),
        ));
    }
    if let (Some(load), Some(_)) = (&cli.load_baseline, &cli.save_baseline) {
        return Err(UsageError(format!(
            "--load-baseline={load} runs nothing, so there is nothing for --save-baseline to save"
        )));
    }
    cli.labels = match get("--labels") {
        None => crate::report::terminal::Labels::IaiCallgrind,
        Some(g) => match g.value.to_ascii_lowercase().as_str() {
            "iai-callgrind" => crate::report::terminal::Labels::IaiCallgrind,
            "benchgrind" => crate::report::terminal::Labels::Benchgrind,
            other => {
                return Err(UsageError(format!(
                    "{} is `{other}`; use iai-callgrind or benchgrind",
                    g.source
                )))
            }
        },
    };
    cli.output_format = match get("--output-format") {
        None => OutputFormat::Default,
        Some(g) => match g.value.to_ascii_lowercase().as_str() {
            "default" => OutputFormat::Default,
            "json" => OutputFormat::Json,
            "pretty-json" => OutputFormat::PrettyJson,
            "markdown" => OutputFormat::Markdown,
            other => {
                return Err(UsageError(format!(
                    "{} is `{other}`; use default, json, pretty-json or markdown",
                    g.source
                )))
            }
        },
    };
    cli.save_summary = match get("--save-summary") {
        None => None,
        Some(g) => match g.value.to_ascii_lowercase().as_str() {
            "json" | "yes" | "true" => Some(JsonStyle::Compact),
            "pretty-json" => Some(JsonStyle::Pretty),
            "no" | "false" => None,
            other => {
                return Err(UsageError(format!(
                    "{} is `{other}`; use json or pretty-json",
                    g.source
                )))
            }
        },
    };
    let color = env("BENCHGRIND_COLOR").or_else(|| env("CARGO_TERM_COLOR"));
    cli.color = match color.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("auto") | Some("") => Color::Auto,
        Some("always") => Color::Always,
        Some("never") => Color::Never,
        Some(other) => {
            return Err(UsageError(format!(
                "BENCHGRIND_COLOR (or CARGO_TERM_COLOR) is `{other}`; use always, never or auto"
            )))
        }
    };
    cli.log = match env("BENCHGRIND_LOG")
        .map(|l| l.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("") | Some("warn") => LogLevel::Warn,
        Some("error") => LogLevel::Error,
        Some("info") => LogLevel::Info,
        Some("debug") => LogLevel::Debug,
        Some("trace") => LogLevel::Trace,
        Some(other) => {
            return Err(UsageError(format!(
                "BENCHGRIND_LOG is `{other}`; use error, warn, info, debug or trace"
            )))
        }
    };
    Ok(cli)
}

fn yes_no(given: &Given) -> Result<bool, UsageError> {
    match given.value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" => Ok(true),
        "no" | "false" | "0" | "off" => Ok(false),
        other => Err(UsageError(format!(
            "{} is `{other}`; use yes or no",
            given.source
        ))),
    }
}

fn parse_nocapture(given: &Given) -> Result<Nocapture, UsageError> {
    match given.value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "" => Ok(Nocapture::All),
        "false" | "no" => Ok(Nocapture::None),
        "stdout" => Ok(Nocapture::Stdout),
        "stderr" => Ok(Nocapture::Stderr),
        other => Err(UsageError(format!(
            "{} is `{other}`; use true, false, stdout or stderr",
            given.source
        ))),
    }
}

/// Baseline names become file names: letters, digits, `-`, `_` and `.` only.
fn baseline_name(given: &Given) -> Result<String, UsageError> {
    let name = &given.value;
    let valid = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if valid {
        Ok(name.clone())
    } else {
        Err(UsageError(format!(
            "{} is `{name}`; a baseline name may use letters, digits, `-`, `_` and `.`",
            given.source
        )))
    }
}

impl Cli {
    /// Whether a benchmark with this id (`file::group::function::id`) is selected.
    pub fn selects(&self, id: &str) -> bool {
        let hit = |f: &String| {
            if f.contains(['*', '?']) {
                glob(f, id)
            } else if self.exact {
                f == id
            } else {
                id.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(hit)) && !self.skip.iter().any(hit)
    }
}

/// `*` matches any run of characters, `?` one character; the whole id must match.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::EventKind;

    fn parse_with(args: &[&str], env: &[(&str, &str)]) -> Result<Cli, UsageError> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        parse(&args, &|k| {
            env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn flags_and_env_with_the_command_line_winning() {
        let cli = parse_with(
            &[
                "--bench",
                "fib",
                "--nocapture=stdout",
                "--callgrind-args=cache-sim=no --dump-instr=yes",
            ],
            &[
                ("BENCHGRIND_NOCAPTURE", "true"),
                ("BENCHGRIND_HOME", "/tmp/h"),
            ],
        )
        .unwrap();
        assert_eq!(cli.filters, ["fib"]);
        assert_eq!(cli.nocapture, Nocapture::Stdout);
        assert_eq!(cli.home, Some(PathBuf::from("/tmp/h")));
        assert_eq!(cli.callgrind_args, ["--cache-sim=no", "--dump-instr=yes"]);

        let cli = parse_with(&[], &[("BENCHGRIND_NOCAPTURE", "stderr")]).unwrap();
        assert_eq!(cli.nocapture, Nocapture::Stderr);
        let cli = parse_with(&["--nocapture"], &[]).unwrap();
        assert_eq!(cli.nocapture, Nocapture::All);
    }

    /// Every flag given as its variable has the same effect as on the command line.
    #[test]
    fn every_flag_has_a_variable_with_the_same_effect() {
        let cases: &[(&str, &str)] = &[
            ("--exact", "yes"),
            ("--list", "yes"),
            ("--skip", "x"),
            ("--nocapture", "stderr"),
            ("--home", "/tmp/h"),
            ("--separate-targets", "yes"),
            ("--callgrind-args", "--dump-instr=yes"),
            ("--tools", "dhat,memcheck"),
            ("--regression", "ir=5%"),
            ("--regression-fail-fast", "yes"),
            ("--save-baseline", "main"),
            ("--baseline", "main"),
            ("--load-baseline", "new"),
            ("--output-format", "json"),
            ("--save-summary", "pretty-json"),
            ("--deterministic-random", "no"),
            ("--random-seed", "7"),
            ("--jobs", "3"),
            ("--isolation", "process"),
            ("--partition", "2/3"),
            ("--test-mode", "yes"),
            ("--labels", "benchgrind"),
        ];
        assert_eq!(cases.len(), FLAGS.len());
        for (flag, value) in cases {
            let def = FLAGS.iter().find(|f| f.name == *flag).unwrap();
            let mut args = vec![if def.takes == Takes::Switch {
                flag.to_string()
            } else {
                format!("{flag}={value}")
            }];
            let mut env = vec![(def.env, *value)];
            if *flag == "--load-baseline" {
                args.push("--baseline=main".into());
                env.push(("BENCHGRIND_BASELINE", "main"));
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let by_flag = parse_with(&args, &[]).unwrap();
            let by_env = parse_with(&[], &env).unwrap();
            assert_eq!(by_flag, by_env, "{flag} vs {}", def.env);
            assert_ne!(by_flag, Cli::default(), "{flag} has an effect");
        }
        let by_env = parse_with(&[], &[("BENCHGRIND_FILTER", "fib")]).unwrap();
        assert_eq!(by_env.filters, ["fib"]);
    }

    #[test]
    fn regression_and_baseline_flags() {
        let cli = parse_with(
            &[
                "--regression=ir=5%,estimatedcycles=10",
                "--regression-fail-fast",
            ],
            &[],
        )
        .unwrap();
        let r = cli.regression.unwrap();
        assert_eq!(
            r.effective_limits(),
            vec![(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, 10.0)]
        );
        assert_eq!(cli.regression_fail_fast, Some(true));

        let cli = parse_with(&["--save-baseline", "--baseline=main"], &[]).unwrap();
        assert_eq!(cli.save_baseline.as_deref(), Some("default"));
        assert_eq!(cli.baseline.as_deref(), Some("main"));
        let e = parse_with(&["--load-baseline=new"], &[]).unwrap_err();
        assert!(e.0.contains("--load-baseline needs --baseline"), "{}", e.0);
        let e = parse_with(&["--baseline=../etc"], &[]).unwrap_err();
        assert!(e.0.contains("--baseline is `../etc`"), "{}", e.0);
        let e = parse_with(&[], &[("BENCHGRIND_REGRESSION", "ir=lots")]).unwrap_err();
        assert!(e.0.starts_with("BENCHGRIND_REGRESSION: "), "{}", e.0);
    }

    #[test]
    fn bad_input_names_the_flag() {
        let e = parse_with(&["--frobnicate"], &[]).unwrap_err();
        assert!(e.0.contains("`--frobnicate`"), "{}", e.0);
        let e = parse_with(&["--nocapture=maybe"], &[]).unwrap_err();
        assert!(e.0.contains("--nocapture is `maybe`"), "{}", e.0);
        let e = parse_with(&["--home"], &[]).unwrap_err();
        assert!(e.0.contains("--home needs a value"), "{}", e.0);
        let e = parse_with(&["--exact=yes"], &[]).unwrap_err();
        assert!(e.0.contains("--exact takes no value"), "{}", e.0);
        let e = parse_with(&[], &[("BENCHGRIND_COLOR", "pink")]).unwrap_err();
        assert!(e.0.contains("`pink`"), "{}", e.0);
        let e = parse_with(&[], &[("BENCHGRIND_EXACT", "perhaps")]).unwrap_err();
        assert!(e.0.contains("BENCHGRIND_EXACT is `perhaps`"), "{}", e.0);
        let e = parse_with(&["--tools=dhat,valgrind"], &[]).unwrap_err();
        assert!(
            e.0.starts_with("--tools: unknown tool `valgrind`"),
            "{}",
            e.0
        );
        let e = parse_with(&["--output-format=xml"], &[]).unwrap_err();
        assert!(e.0.contains("--output-format is `xml`"), "{}", e.0);
    }

    #[test]
    fn libtest_flags_are_accepted() {
        let cli = parse_with(
            &[
                "--bench",
                "--format",
                "terse",
                "--list",
                "--ignored",
                "--test-threads=1",
            ],
            &[],
        )
        .unwrap();
        assert!(cli.list && cli.ignored);
        assert!(cli.filters.is_empty());
    }

    #[test]
    fn scheduling_flags() {
        let cli = parse_with(
            &["--jobs=4", "--isolation=process", "--partition", "1/2"],
            &[],
        )
        .unwrap();
        assert_eq!(cli.jobs, Some(4));
        assert_eq!(cli.isolation, Isolation::Process);
        assert_eq!(cli.partition, Some((1, 2)));
        for bad in [
            "--jobs=0",
            "--isolation=thread",
            "--partition=3/2",
            "--partition=0/2",
            "--partition=1",
        ] {
            assert!(parse_with(&[bad], &[]).is_err(), "{bad}");
        }
        let cli = parse_with(&["--bench"], &[]).unwrap();
        assert!(cli.bench_flag && !cli.test_mode);
    }

    #[test]
    fn random_flags_override_the_environment() {
        let cli = parse_with(&[], &[]).unwrap();
        assert_eq!((cli.deterministic_random, cli.random_seed), (None, None));
        let env = [
            ("BENCHGRIND_DETERMINISTIC_RANDOM", "no"),
            ("BENCHGRIND_RANDOM_SEED", "5"),
        ];
        let cli = parse_with(&[], &env).unwrap();
        assert_eq!(
            (cli.deterministic_random, cli.random_seed),
            (Some(false), Some(5))
        );
        let cli = parse_with(&["--deterministic-random", "--random-seed=6"], &env).unwrap();
        assert_eq!(
            (cli.deterministic_random, cli.random_seed),
            (Some(true), Some(6))
        );
        let e = parse_with(&["--deterministic-random=maybe"], &[]).unwrap_err();
        assert!(e.0.contains("--deterministic-random is `maybe`"), "{}", e.0);
        let e = parse_with(&[], &[("BENCHGRIND_RANDOM_SEED", "-1")]).unwrap_err();
        assert!(e.0.contains("BENCHGRIND_RANDOM_SEED is `-1`"), "{}", e.0);
    }

    #[test]
    fn filters_match_parts_exact_ids_or_wildcards() {
        let id = "bench::group::fib::short";
        let cli = |f: &[&str], exact| Cli {
            filters: f.iter().map(|s| s.to_string()).collect(),
            exact,
            ..Cli::default()
        };
        assert!(cli(&[], false).selects(id));
        assert!(cli(&["fib"], false).selects(id));
        assert!(!cli(&["fib"], true).selects(id));
        assert!(cli(&[id], true).selects(id));
        assert!(cli(&["*::fib::*"], false).selects(id));
        assert!(!cli(&["*::fob::*"], false).selects(id));
        assert!(cli(&["bench::group::fib::sh?rt"], false).selects(id));
        let mut skip = cli(&[], false);
        skip.skip.push("short".into());
        assert!(!skip.selects(id));
    }
}
