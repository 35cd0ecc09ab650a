//! The flags of a bench binary, each defined once: name, environment variable, how it takes its
//! value, its line in the help, and how its value becomes part of [`Cli`]. The parser and the
//! help text are built from [`FLAGS`]; a flag cannot lack a variable, a help line or a
//! conversion.

use std::path::PathBuf;

use super::flag::{baseline_name, shell_words, yes_no, Flag, Given, Takes, UsageError};
use super::gbfilter::GbFilter;
use super::values::{
    BenchmarkOutFormat, Cli, Isolation, JsonStyle, Labels, Nocapture, ReportFormat,
};
use crate::config::{normalize_valgrind_arg, EventKind, ExplainPolicy, RegressionConfig, ToolList};

/// Every flag, in the order of the help: [`FLAGS`], then those of the report
/// ([`super::report_flags::REPORT_FLAGS`]).
pub(crate) static ALL: std::sync::LazyLock<Vec<&'static Flag>> = std::sync::LazyLock::new(|| {
    FLAGS
        .iter()
        .chain(super::report_flags::REPORT_FLAGS)
        .collect()
});

/// The flags of this table, in the order of the help.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        name: "--exact",
        env: "BENCHGRIND_EXACT",
        takes: Takes::Switch,
        value: "",
        help: "a FILTER must match the whole id",
        repeats: false,
        set: |cli, g| {
            cli.exact = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--skip",
        env: "BENCHGRIND_SKIP",
        takes: Takes::Value,
        value: " FILTER",
        help: "do not run benchmarks matching FILTER",
        repeats: true,
        set: |cli, g| {
            cli.skip.push(g.value.clone());
            Ok(())
        },
    },
    Flag {
        name: "--list",
        env: "BENCHGRIND_LIST",
        takes: Takes::Switch,
        value: "",
        help: "list the benchmarks without running them",
        repeats: false,
        set: |cli, g| {
            cli.list = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--callgrind-args",
        env: "BENCHGRIND_CALLGRIND_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "extra Callgrind arguments, split as a shell would",
        repeats: false,
        set: |cli, g| {
            let args = shell_words(g)?;
            cli.callgrind_args = args.iter().map(|a| normalize_valgrind_arg(a)).collect();
            Ok(())
        },
    },
    Flag {
        name: "--valgrind-args",
        env: "BENCHGRIND_VALGRIND_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "extra Valgrind core arguments for every tool, split as a shell would",
        repeats: false,
        set: |cli, g| {
            let args = shell_words(g)?;
            cli.valgrind_args = args.iter().map(|a| normalize_valgrind_arg(a)).collect();
            Ok(())
        },
    },
    Flag {
        name: "--tool-runner",
        env: "BENCHGRIND_TOOL_RUNNER",
        takes: Takes::Value,
        value: "=CMD",
        help: "start Valgrind through CMD and its arguments (split as a shell would): a container \
               runner (templates/container/valgrind-in-docker.sh), sudo, a wrapper",
        repeats: false,
        set: |cli, g| {
            cli.tool_runner = shell_words(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--tool-runner-args",
        env: "BENCHGRIND_TOOL_RUNNER_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "arguments of the --tool-runner command (gungraun's spelling), after those in CMD",
        repeats: false,
        set: |cli, g| {
            cli.tool_runner_args = shell_words(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--tools",
        env: "BENCHGRIND_TOOLS",
        takes: Takes::Value,
        value: "=TOOLS",
        help: "also run these Valgrind tools on every benchmark, comma-separated: dhat, massif, \
               memcheck, helgrind, drd, bbv, cachegrind; callgrind where another is the default \
               tool",
        repeats: false,
        set: |cli, g| {
            cli.tools = g.parse::<ToolList>()?.0;
            Ok(())
        },
    },
    Flag {
        name: "--regression",
        env: "BENCHGRIND_REGRESSION",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "fail past these limits, over the code's: METRIC=PERCENT or METRIC<=COUNT, \
               comma-separated (ir=5%,estimatedcycles=10%); other tools' metrics too \
               (totalbytes=2%,errors<=0)",
        repeats: false,
        set: |cli, g| {
            cli.regression = Some(g.parse::<RegressionConfig>()?);
            Ok(())
        },
    },
    Flag {
        name: "--regression-fail-fast",
        env: "BENCHGRIND_REGRESSION_FAIL_FAST",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "stop at the first regression",
        repeats: false,
        set: |cli, g| {
            cli.regression_fail_fast = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--fail-on-empty",
        env: "BENCHGRIND_FAIL_ON_EMPTY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "fail benchmarks that measure almost nothing (under 10 instructions)",
        repeats: false,
        set: |cli, g| {
            cli.fail_on_empty = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--save-baseline",
        env: "BENCHGRIND_SAVE_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "compare with baseline NAME, then save this run as NAME [default NAME: default]",
        repeats: false,
        set: |cli, g| {
            cli.save_baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--baseline",
        env: "BENCHGRIND_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "compare with baseline NAME instead of the previous run",
        repeats: false,
        set: |cli, g| {
            cli.baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--load-baseline",
        env: "BENCHGRIND_LOAD_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "with --baseline: compare baseline NAME with it, without running",
        repeats: false,
        set: |cli, g| {
            cli.load_baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--uncompared",
        env: "BENCHGRIND_UNCOMPARED",
        takes: Takes::Value,
        value: "=notice|fail",
        help: "with --baseline: a benchmark without a baseline of its own machine and revision \
               (none saved, another machine's, another revision's) is reported; fail exits 4",
        repeats: false,
        set: |cli, g| {
            cli.uncompared_fails = match g.value.as_str() {
                "notice" => false,
                "fail" => true,
                other => {
                    return Err(UsageError(format!(
                        "{}: `{other}` is not a choice; use notice or fail",
                        g.source
                    )))
                }
            };
            Ok(())
        },
    },
    Flag {
        name: "--baseline-revision",
        env: "BENCHGRIND_BASELINE_REVISION",
        takes: Takes::Value,
        value: "=REV",
        help: "the git commit the --baseline must have measured (a pull request's merge base); \
               one saved at another is uncompared",
        repeats: false,
        set: |cli, g| {
            let rev = g.value.trim();
            if rev.len() < 4 || !rev.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(UsageError(format!(
                    "{}: `{rev}` is not a commit id; give its hexadecimal name \
                     (git rev-parse REV prints it)",
                    g.source
                )));
            }
            cli.baseline_revision = Some(rev.to_ascii_lowercase());
            Ok(())
        },
    },
    Flag {
        name: "--output-format",
        env: "BENCHGRIND_OUTPUT_FORMAT",
        takes: Takes::Value,
        value: "=FORMAT",
        help: "default, json (a summary per line), pretty-json, markdown, bmf (Bencher's \
               format) or gungraun-json (gungraun 0.20's summaries, a line each)",
        repeats: false,
        set: |cli, g| {
            cli.output_format = ReportFormat::from_name(&g.lowercase())
                .ok_or_else(|| g.invalid_lowercase(&format!("use {}", ReportFormat::NAMES)))?;
            Ok(())
        },
    },
    Flag {
        name: "--output-file",
        env: "BENCHGRIND_OUTPUT_FILE",
        takes: Takes::Value,
        value: "=PATH",
        help: "write the report of --output-format into PATH instead of stdout, replaced at the \
               end of the run (relative to the package's directory under cargo bench)",
        repeats: false,
        set: |cli, g| {
            if g.value.is_empty() {
                return Err(g.invalid("give the file to write: --output-file=bmf.json"));
            }
            cli.output_file = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--explain",
        env: "BENCHGRIND_EXPLAIN",
        takes: Takes::Value,
        value: "=N|always|never",
        help: "show which functions changed the counts (top 5) when Ir changed by more than N% \
               or a limit was passed; JSON and Markdown get every changed benchmark [default: 1]",
        repeats: false,
        set: |cli, g| {
            cli.explain = ExplainPolicy::parse(&g.lowercase())
                .map_err(|_| g.invalid("use a percentage (e.g. 1 or 0.5), always or never"))?;
            Ok(())
        },
    },
    Flag {
        name: "--labels",
        env: "BENCHGRIND_LABELS",
        takes: Takes::Value,
        value: "=NAMES",
        help: "the metric lines' names: iai-callgrind (L2 Hits, the default) or benchgrind \
               (LL Hits)",
        repeats: false,
        set: |cli, g| {
            cli.labels = match g.lowercase().as_str() {
                "iai-callgrind" => Labels::IaiCallgrind,
                "benchgrind" => Labels::Benchgrind,
                _ => return Err(g.invalid_lowercase("use iai-callgrind or benchgrind")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--save-summary",
        env: "BENCHGRIND_SAVE_SUMMARY",
        takes: Takes::Optional("json"),
        value: "[=json|pretty-json]",
        help: "write summary.json next to each benchmark's files",
        repeats: false,
        set: |cli, g| {
            cli.save_summary = match g.lowercase().as_str() {
                "json" | "yes" | "true" => Some(JsonStyle::Compact),
                "pretty-json" => Some(JsonStyle::Pretty),
                "no" | "false" => None,
                _ => return Err(g.invalid_lowercase("use json or pretty-json")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--history",
        env: "BENCHGRIND_HISTORY",
        takes: Takes::Optional("on"),
        value: "[=on|off]",
        help: "append this run's values to <home>/history/ for `benchgrind report` [default: on]",
        repeats: false,
        set: |cli, g| {
            cli.no_history = match g.lowercase().as_str() {
                "on" | "yes" | "true" => false,
                "off" | "no" | "false" => true,
                _ => return Err(g.invalid_lowercase("use on or off")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--nocapture",
        env: "BENCHGRIND_NOCAPTURE",
        takes: Takes::Optional("true"),
        value: "[=true|false|stdout|stderr]",
        help: "show the benchmark's output",
        repeats: false,
        set: nocapture,
    },
    Flag {
        name: "--home",
        env: "BENCHGRIND_HOME",
        takes: Takes::Value,
        value: "=DIR",
        help: "the root of all output files [default: target/benchgrind]",
        repeats: false,
        set: |cli, g| {
            cli.home = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--separate-targets",
        env: "BENCHGRIND_SEPARATE_TARGETS",
        takes: Takes::Switch,
        value: "",
        help: "one tree per target triple below the home",
        repeats: false,
        set: |cli, g| {
            cli.separate_targets = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--deterministic-random",
        env: "BENCHGRIND_DETERMINISTIC_RANDOM",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "serve getrandom from a fixed stream in benchmark processes, so HashMap seeds do \
               not move the counts [default: yes]",
        repeats: false,
        set: |cli, g| {
            cli.deterministic_random = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--realtime",
        env: "BENCHGRIND_REALTIME",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "run each measured process on one processor under SCHED_FIFO where that is \
               permitted, so that threads take turns the same way on every run [default: yes]",
        repeats: false,
        set: |cli, g| {
            cli.no_realtime = !yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--random-seed",
        env: "BENCHGRIND_RANDOM_SEED",
        takes: Takes::Value,
        value: "=N",
        help: "the seed of that stream [default: 0]",
        repeats: false,
        set: |cli, g| {
            let seed = g
                .value
                .parse::<u64>()
                .map_err(|_| g.invalid(&format!("use a whole number from 0 to {}", u64::MAX)))?;
            cli.random_seed = Some(seed);
            Ok(())
        },
    },
    Flag {
        name: "--jobs",
        env: "BENCHGRIND_JOBS",
        takes: Takes::Value,
        value: "=N",
        help: "run N benchmarks at once [default: the available cores]",
        repeats: false,
        set: |cli, g| match g.value.parse::<usize>() {
            Ok(n) if n > 0 => {
                cli.jobs = Some(n);
                Ok(())
            }
            _ => Err(g.invalid("use a whole number of at least 1")),
        },
    },
    Flag {
        name: "--separate-threads",
        env: "BENCHGRIND_SEPARATE_THREADS",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "show each thread's and process's counts besides their total; overrides the \
               config's `separate_threads` [default: no]",
        repeats: false,
        set: |cli, g| {
            cli.separate_threads = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--timeout",
        env: "BENCHGRIND_TIMEOUT",
        takes: Takes::Value,
        value: "=DURATION",
        help: "kill a benchmark run that takes longer and report it failed: seconds or with a \
               unit (600, 2.5, 10s, 5m); overrides the config's `timeout` [default: 300]",
        repeats: false,
        set: |cli, g| match crate::duration::parse(&g.value) {
            Ok(limit) if !limit.is_zero() => {
                cli.timeout = Some(limit);
                Ok(())
            }
            Ok(_) => Err(g.invalid("use a duration above 0, like 600, 2.5, 10s or 5m")),
            Err(e) => Err(g.invalid(&e)),
        },
    },
    Flag {
        name: "--isolation",
        env: "BENCHGRIND_ISOLATION",
        takes: Takes::Value,
        value: "=fork|process",
        help: "fork: one Valgrind process per class of benchmarks, forking a child per benchmark \
               (fast); process: one per benchmark [default: fork]",
        repeats: false,
        set: |cli, g| {
            cli.isolation = match g.lowercase().as_str() {
                "fork" => Isolation::Fork,
                "process" => Isolation::Process,
                _ => return Err(g.invalid("use fork or process")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--partition",
        env: "BENCHGRIND_PARTITION",
        takes: Takes::Value,
        value: "=K/N",
        help: "run only the K-th of N shares of the benchmarks (split by id, the same on every \
               machine), e.g. in CI matrix jobs",
        repeats: false,
        set: |cli, g| {
            let parsed = g.value.split_once('/').and_then(|(k, n)| {
                Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?))
            });
            match parsed {
                Some((k, n)) if n >= 1 && (1..=n).contains(&k) => {
                    cli.partition = Some((k, n));
                    Ok(())
                }
                _ => Err(g.invalid("write K/N with 1 <= K <= N, e.g. 1/2")),
            }
        },
    },
    Flag {
        name: "--test-mode",
        env: "BENCHGRIND_TEST_MODE",
        takes: Takes::Switch,
        value: "",
        help: "run every benchmark once natively, without Valgrind; the default under \
               `cargo test --benches`",
        repeats: false,
        set: |cli, g| {
            cli.test_mode = yes_no(g)?;
            Ok(())
        },
    },
    // Google Benchmark's flags, so that its tools (compare.py) read a bench binary's run.
    Flag {
        name: "--benchmark_out",
        env: "BENCHGRIND_BENCHMARK_OUT",
        takes: Takes::Value,
        value: "=FILE",
        help: "also write the run to FILE as Google Benchmark does, for its compare.py",
        repeats: false,
        set: |cli, g| {
            cli.benchmark_out = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--benchmark_out_format",
        env: "BENCHGRIND_BENCHMARK_OUT_FORMAT",
        takes: Takes::Value,
        value: "=json|csv|console",
        help: "the format of that file: Google Benchmark's JSON or CSV, or the terminal report \
               [default: json]",
        repeats: false,
        set: |cli, g| {
            cli.benchmark_out_format = match g.lowercase().as_str() {
                "json" => BenchmarkOutFormat::Json,
                "csv" => BenchmarkOutFormat::Csv,
                "console" => BenchmarkOutFormat::Console,
                _ => return Err(g.invalid("use json, csv or console")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--benchmark_metric",
        env: "BENCHGRIND_BENCHMARK_METRIC",
        takes: Takes::Value,
        value: "=METRIC",
        help: "what that file's real_time and cpu_time hold: ir (instructions), estimatedcycles \
               (cycles), l1hits, llhits, ramhits, totalrw, or a cache event from dr to dlmw; every \
               metric is also a counter [default: ir]",
        repeats: false,
        set: |cli, g| {
            let metric = EventKind::from_choice(&g.value).ok_or_else(|| {
                let names: Vec<&str> = EventKind::CHOICES.iter().map(|k| k.name()).collect();
                g.invalid(&format!(
                    "use instructions, cycles or one of {}",
                    names.join(", ")
                ))
            })?;
            cli.benchmark_metric = Some(metric);
            Ok(())
        },
    },
    Flag {
        name: "--benchmark_filter",
        env: "BENCHGRIND_BENCHMARK_FILTER",
        takes: Takes::Value,
        value: "=REGEX",
        help: "run only benchmarks whose id REGEX matches a part of, as Google Benchmark \
               filters (`-REGEX`: those it does not match); REGEX may use . [a-z] [^:] \\d \\w \
               \\s (a|b) * + ? {m,n} ^ $",
        repeats: false,
        set: |cli, g| {
            let filter =
                GbFilter::parse(&g.value).map_err(|e| UsageError(format!("{}: {e}", g.source)))?;
            cli.benchmark_filter = Some(filter);
            Ok(())
        },
    },
    Flag {
        name: "--benchmark_list_tests",
        env: "BENCHGRIND_BENCHMARK_LIST_TESTS",
        takes: Takes::Optional("true"),
        value: "[=true|false]",
        help: "print the ids of the benchmarks, one per line, without running them",
        repeats: false,
        set: |cli, g| {
            cli.benchmark_list_tests = yes_no(g)?;
            Ok(())
        },
    },
];

/// libtest's flags, passed by cargo or typed out of habit: accepted; `--format terse` and
/// `--ignored` matter for `--list` (nextest), the rest has no effect here.
pub(crate) const LIBTEST_SWITCHES: &[&str] = &[
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

/// libtest's flags that take a value.
pub(crate) const LIBTEST_VALUES: &[&str] =
    &["--test-threads", "--format", "--color", "-Z", "--logfile"];

/// `--nocapture` and `--no-capture`: which of the benchmark's streams to show.
pub(crate) fn nocapture(cli: &mut Cli, g: &Given) -> Result<(), UsageError> {
    cli.nocapture = match g.lowercase().trim() {
        "true" | "yes" | "y" | "t" | "on" | "1" | "" => Nocapture::All,
        "false" | "no" | "n" | "f" | "off" | "0" => Nocapture::None,
        "stdout" => Nocapture::Stdout,
        "stderr" => Nocapture::Stderr,
        _ => return Err(g.invalid_lowercase("use true, false, stdout or stderr")),
    };
    Ok(())
}
