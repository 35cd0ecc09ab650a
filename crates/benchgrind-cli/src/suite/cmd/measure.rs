//! `suite measure`: plan the (benchmark, engine) jobs from the suite directory, run each runner
//! with KLV on stdin, check the count of every sample, and write one result row per job as soon
//! as it is done.
//!
//! Configuration problems are printed before anything runs; the jobs they affect become error
//! rows and everything else is still measured. The outcome is a failure when anything failed.

use std::{io::Write, path::PathBuf, sync::LazyLock, time::Duration};

use crate::exit::Outcome;
use crate::suite::{
    callgrind, execute,
    flags::{self, Filters, HumanDuration},
    format::Problem,
    klv::Limits,
    plan::{self, Job},
    results::{self, Format, Measurement, Metric},
};
use crate::usage::{self, Opt, UsageError};

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Run benchmarks and write one result row per benchmark and engine.

USAGE:
    benchgrind suite measure [OPTIONS] [> results.csv]

    Results go to stdout (or to -o FILE, rewritten atomically after each benchmark). A failed
    benchmark (count mismatch, crash, timeout, bad output) is a row with `err` set; failures are
    listed at the end and the exit code is then 1.

",
        &[
            &[flags::DIR_OPT],
            flags::FILTER_OPTS,
            OPTS,
            &[flags::HELP_OPT],
        ],
    )
});

/// The help line of `-i/--ignore-missing-engines` (`list` takes it too).
pub const IGNORE_MISSING_OPT: Opt = Opt::new(
    "-i, --ignore-missing-engines",
    "leave out engines whose version cannot be had (not built),\n\
     instead of making their benchmarks errors",
);

/// The help lines of `measure`'s own flags.
const OPTS: &[Opt] = &[
    IGNORE_MISSING_OPT,
    Opt::new(
        "--verify",
        "run every benchmark once and check its count instead of\n\
         measuring; print a `benchmark,model,engine,version,error`\n\
         line per failure (nothing when all pass)",
    ),
    Opt::new(
        "--verbose",
        "with --verify, an `...,OK` line per benchmark that passes too;\n\
         when measuring, each runner's stderr once it is done",
    ),
    Opt::new("-t, --test", "--verify --verbose"),
    Opt::new("--list", "list the benchmarks and engines that would run"),
    Opt::new(
        "--max-iters <n>",
        "maximum measured iterations (default: 1000000)",
    ),
    Opt::new(
        "--max-warmup-iters <n>",
        "maximum warm-up iterations (default: 1000000)",
    ),
    Opt::new(
        "--max-time <duration>",
        "time budget per benchmark (default: 3s)",
    ),
    Opt::new(
        "--max-warmup-time <duration>",
        "warm-up budget (default: 1.5s, whatever --max-time is, as\nrebar does)",
    ),
    Opt::new(
        "--timeout <duration>",
        "kill a runner after this long (default: 10s, as rebar; 120s\nwith --metric instructions)",
    ),
    Opt::new(
        "--metric <time|instructions>",
        "time (default): the runner's own timings. instructions: run\n\
         each runner under Callgrind, one iteration, no warm-up, and\n\
         record the instructions of that iteration (exact, repeatable)",
    ),
    Opt::new(
        "--valgrind-bin <path>",
        "the `valgrind` to run for instructions (else\n\
         BENCHGRIND_VALGRIND, else PATH's), as for the bench binaries",
    ),
    Opt::new(
        "--format <rebar|csv|json>",
        "rebar: rebar's CSV (default for time); csv: rebar's columns\n\
         plus `metric`, full precision (default for instructions);\n\
         json: lossless, versioned JSON",
    ),
    Opt::new(
        "-o, --output <file>",
        "write results to this file instead of stdout",
    ),
];

/// The warm-up budget without `--max-warmup-time`: rebar's (half its default `--max-time`).
pub const DEFAULT_WARMUP_TIME: Duration = Duration::from_millis(1500);

/// The timeout without `--timeout` when measuring time: rebar's.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// What `suite measure` (or `suite list`) was asked.
#[derive(Debug)]
pub struct Config {
    /// `-d/--dir`.
    pub dir: PathBuf,
    /// The benchmark, model and engine filters.
    pub filters: Filters,
    /// Iteration and time limits per benchmark.
    limits: Limits,
    /// `--timeout`, or its default for the metric.
    timeout: Duration,
    /// Whether `--timeout` was given.
    timeout_given: bool,
    /// `--verify` (or `-t/--test`): check each benchmark once instead of measuring.
    verify: bool,
    /// `--verbose` (or `-t/--test`): OK lines when verifying, runners' stderr when measuring.
    verbose: bool,
    /// `--list`: only list the jobs.
    list: bool,
    /// `--metric`.
    metric: Metric,
    /// `--format`, or the metric's default.
    format: Format,
    /// `-o/--output`: the results file, rewritten after each benchmark.
    output: Option<PathBuf>,
    /// `--valgrind-bin`, else the bench binaries' `BENCHGRIND_VALGRIND`, else `PATH`'s.
    valgrind: benchgrind_runner::execute::valgrind::Choice,
}

/// The flags as given, before defaults that depend on each other are applied.
#[derive(Default)]
struct Given {
    /// `--max-warmup-time`.
    warmup_time: Option<Duration>,
    /// `--timeout`.
    timeout: Option<Duration>,
    /// `--format`.
    format: Option<Format>,
    /// `-o/--output`.
    output: Option<PathBuf>,
    /// `--verify`, or `-t/--test`.
    verify: bool,
    /// `--verbose`, or `-t/--test`.
    verbose: bool,
    /// `--list`.
    list: bool,
    /// `--metric`.
    metric: Option<Metric>,
    /// `--valgrind-bin`.
    valgrind_bin: Option<PathBuf>,
}

impl Config {
    /// Parses the flags after `suite measure`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        Config::parse_with_help(p, USAGE.as_str())
    }

    /// Parses `measure`'s flags; `help` is the usage shown for `-h/--help`.
    pub fn parse_with_help(
        p: &mut lexopt::Parser,
        help: &'static str,
    ) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short};
        let mut dir = PathBuf::from("benchmarks");
        let mut filters = Filters::default();
        let mut limits = Limits {
            max_iters: 1_000_000,
            max_warmup_iters: 1_000_000,
            max_time: Duration::from_secs(3),
            ..Limits::default()
        };
        let mut given = Given::default();
        while let Some(arg) = p.next()? {
            if let Some(kind) = Filters::kind(&arg) {
                filters.take(kind, p)?;
                continue;
            }
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(help)),
                Short('d') | Long("dir") => dir = PathBuf::from(usage::string(p, "-d/--dir")?),
                Short('t') | Long("test") => (given.verify, given.verbose) = (true, true),
                Long("verify") => given.verify = true,
                Long("verbose") => given.verbose = true,
                Short('i') | Long("ignore-missing-engines") => {
                    filters.ignore_missing_engines = true
                }
                Long("list") => given.list = true,
                Long("max-iters") => limits.max_iters = usage::parse(p, "--max-iters")?,
                Long("max-warmup-iters") => {
                    limits.max_warmup_iters = usage::parse(p, "--max-warmup-iters")?
                }
                Long("max-time") => limits.max_time = duration(p, "--max-time")?,
                Long("max-warmup-time") => {
                    given.warmup_time = Some(duration(p, "--max-warmup-time")?)
                }
                Long("timeout") => given.timeout = Some(duration(p, "--timeout")?),
                Long("metric") => given.metric = Some(metric(p)?),
                Long("valgrind-bin") => {
                    given.valgrind_bin = Some(PathBuf::from(usage::string(p, "--valgrind-bin")?));
                }
                Long("format") => given.format = Some(usage::parse::<Format>(p, "--format")?),
                Short('o') | Long("output") => {
                    given.output = Some(PathBuf::from(usage::string(p, "-o/--output")?))
                }
                other => return Err(other.unexpected().into()),
            }
        }
        Config::resolve(dir, filters, limits, given)
    }

    /// Applies the defaults that depend on other flags and checks the combination.
    fn resolve(
        dir: PathBuf,
        filters: Filters,
        mut limits: Limits,
        given: Given,
    ) -> Result<Config, UsageError> {
        let metric = given.metric.unwrap_or(Metric::Time);
        // rebar's defaults, as its code has them: half of the default 3s budget, and a 10s
        // timeout, neither following --max-time.
        limits.max_warmup_time = given.warmup_time.unwrap_or(DEFAULT_WARMUP_TIME);
        let timeout = given.timeout.unwrap_or(match metric {
            // Valgrind slows programs down 10-100x.
            Metric::Instructions => Duration::from_secs(120),
            Metric::Time => DEFAULT_TIMEOUT,
        });
        let format = match (given.format, metric) {
            (Some(Format::Rebar), Metric::Instructions) => {
                return Err(UsageError::new("--format rebar holds durations only; use --format csv or json with --metric instructions"))
            }
            (Some(f), _) => f,
            (None, Metric::Time) => Format::Rebar,
            (None, Metric::Instructions) => Format::Csv,
        };
        Ok(Config {
            dir,
            filters,
            limits,
            timeout,
            timeout_given: given.timeout.is_some(),
            verify: given.verify,
            verbose: given.verbose,
            list: given.list,
            metric,
            format,
            output: given.output,
            valgrind: match given.valgrind_bin {
                Some(binary) => benchgrind_runner::execute::valgrind::Choice {
                    binary: Some(binary),
                    runner: Vec::new(),
                },
                None => benchgrind_runner::execute::valgrind::Choice::from_env(),
            },
        })
    }
}

/// A duration flag's value.
fn duration(p: &mut lexopt::Parser, flag: &str) -> Result<Duration, UsageError> {
    Ok(usage::parse::<HumanDuration>(p, flag)?.0)
}

/// `--metric`'s value.
fn metric(p: &mut lexopt::Parser) -> Result<Metric, UsageError> {
    match usage::string(p, "--metric")?.as_str() {
        "time" => Ok(Metric::Time),
        "instructions" => Ok(Metric::Instructions),
        other => Err(UsageError::new(format!(
            "--metric: expected time or instructions, got '{other}'"
        ))),
    }
}

/// Runs `suite measure`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    if config.list {
        return Ok(outcome(plan::list(&config.dir, &config.filters)?));
    }
    let budgets = config.limits.max_time + config.limits.max_warmup_time;
    let timed = config.metric == Metric::Time && !config.verify && !config.list;
    if timed && !config.timeout_given && budgets >= config.timeout {
        crate::messages::warning!(
            "--max-time and --max-warmup-time add up to {:.2}s, and runners are killed after the default --timeout of {:.0}s (rebar's); pass a longer --timeout",
            budgets.as_secs_f64(),
            config.timeout.as_secs_f64()
        );
    }
    let launcher = (config.metric == Metric::Instructions && !config.verify)
        .then(|| callgrind::launcher(&config.valgrind))
        .transpose()?;
    let (engines, defs) = plan::load(&config.dir, &config.filters)?;
    let mut problems = defs.problems.clone();
    let jobs = plan::plan(&config.filters, &engines, &defs.defs, &mut problems);
    plan::report_problems(&problems);
    if config.verify {
        return verify(config, &jobs, &problems);
    }
    let rows = measure(config, &jobs, launcher.as_ref())?;
    let failed: Vec<&Measurement> = rows.iter().filter(|r| r.err.is_some()).collect();
    if !failed.is_empty() {
        crate::messages::error!(
            "{} of {} benchmark(s) failed (their rows have `err` set):",
            failed.len(),
            rows.len()
        );
        for m in &failed {
            crate::messages::item!(
                "{} {}: {}",
                m.name,
                m.engine,
                m.err.as_deref().unwrap_or_default()
            );
        }
    }
    Ok(outcome(failed.is_empty() && problems.is_empty()))
}

/// Done when everything went well, else failed.
fn outcome(ok: bool) -> Outcome {
    if ok {
        Outcome::Done
    } else {
        Outcome::Failed
    }
}

/// Runs every job and writes its row as soon as it is done: streamed CSV on stdout, or the
/// whole file rewritten after each job with `-o`, or JSON on stdout at the end.
fn measure(
    config: &Config,
    jobs: &[Job],
    launcher: Option<&benchgrind_runner::execute::Launcher>,
) -> anyhow::Result<Vec<Measurement>> {
    let mut stdout = std::io::stdout().lock();
    let mut rows: Vec<Measurement> = vec![];
    let streaming = config.output.is_none() && config.format != Format::Json;
    if streaming {
        stdout.write_all(results::csv_header(config.format).as_bytes())?;
        stdout.flush()?;
    }
    // Engines whose runner was warned about as several processes: the reason and the remedy
    // are said once per engine, the figures for every benchmark.
    let mut warned: Vec<String> = vec![];
    for (i, job) in jobs.iter().enumerate() {
        let mut row = match &job.run {
            Err(e) => job.error_row(e.clone()),
            Ok((engine, count)) => {
                let (limits, timeout) = (&config.limits, config.timeout);
                let r = match (config.metric, launcher) {
                    (Metric::Instructions, Some(launcher)) => execute::instructions(
                        launcher, job, engine, *count, limits, timeout,
                    )
                    .map(|(row, several)| {
                        if let Some(several) = several {
                            warn_several(&several, &row, &mut warned);
                        }
                        row
                    }),
                    _ => execute::time(job, engine, *count, limits, timeout, config.verbose),
                };
                r.unwrap_or_else(|e| job.error_row(e.into()))
            }
        };
        row.metric = config.metric;
        if streaming {
            stdout.write_all(results::csv_record(&row, config.format).as_bytes())?;
            stdout.flush()?;
        } else if config.output.is_some() {
            crate::messages::note!(
                "[{}/{}] {} {}: {}",
                i + 1,
                jobs.len(),
                row.name,
                row.engine,
                if row.err.is_some() { "ERROR" } else { "ok" }
            );
        }
        rows.push(row);
        if let Some(path) = &config.output {
            results::save(path, &rows, config.format)?;
        }
    }
    if config.output.is_none() && config.format == Format::Json {
        results::write_all(&mut stdout, &rows, config.format)?;
    }
    Ok(rows)
}

/// Says that `row`'s runner ran as several processes whose count may move: the figures every
/// time, why and what to do the first time for its engine.
fn warn_several(several: &callgrind::Several, row: &Measurement, warned: &mut Vec<String>) {
    crate::messages::warning!("{}", several.headline(&row.name, &row.engine));
    for line in several.figures() {
        crate::messages::item!("{line}");
    }
    if !warned.contains(&row.engine) {
        for line in several.remedy() {
            crate::messages::item!("{line}");
        }
        warned.push(row.engine.clone());
    }
}

/// `--verify` (`-t/--test`): one iteration per job, count checked, a line per failure (and, with
/// `--verbose`, per success), as rebar prints them.
fn verify(config: &Config, jobs: &[Job], problems: &[Problem]) -> anyhow::Result<Outcome> {
    // One iteration, no warm-up, no time budget: just enough to check the count.
    let limits = Limits {
        max_iters: 1,
        ..Limits::default()
    };
    let mut failed = 0;
    let mut stdout = std::io::stdout().lock();
    for job in jobs {
        let result = match &job.run {
            Err(e) => Err(e.clone()),
            Ok((engine, count)) => {
                execute::time(job, engine, *count, &limits, config.timeout, false)
                    .map(|_| ())
                    .map_err(String::from)
            }
        };
        let status = match result {
            Ok(()) if !config.verbose => continue,
            Ok(()) => "OK".to_string(),
            Err(e) => {
                failed += 1;
                results::csv_field(&e)
            }
        };
        writeln!(
            stdout,
            "{},{},{},{},{status}",
            job.def.name, job.def.model, job.engine, job.version
        )?;
        stdout.flush()?;
    }
    if failed > 0 {
        crate::messages::error!("{failed} of {} benchmark(s) failed the test", jobs.len());
    }
    Ok(outcome(failed == 0 && problems.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Config {
        Config::parse(&mut lexopt::Parser::from_args(args.iter().copied())).unwrap()
    }

    #[test]
    fn defaults_are_rebars() {
        let c = parse(&[]);
        assert_eq!(c.limits.max_time, Duration::from_secs(3));
        assert_eq!(c.limits.max_warmup_time, Duration::from_millis(1500));
        assert_eq!(
            (c.limits.max_iters, c.limits.max_warmup_iters),
            (1_000_000, 1_000_000)
        );
        assert_eq!(c.timeout, Duration::from_secs(10));
        // --max-time alone changes neither the warm-up nor the timeout, as in rebar's code.
        for t in ["1s", "20s"] {
            let c = parse(&["--max-time", t]);
            assert_eq!(c.limits.max_warmup_time, Duration::from_millis(1500), "{t}");
            assert_eq!(c.timeout, Duration::from_secs(10), "{t}");
            assert!(!c.timeout_given);
        }
        let c = parse(&["--max-warmup-time", "200ms", "--timeout", "3s"]);
        assert_eq!(c.limits.max_warmup_time, Duration::from_millis(200));
        assert_eq!(c.timeout, Duration::from_secs(3));
        assert!(c.timeout_given);
        let c = parse(&["--metric", "instructions"]);
        assert_eq!(c.timeout, Duration::from_secs(120));
    }
}
