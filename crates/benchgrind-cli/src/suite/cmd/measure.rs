//! `suite measure`: plan the (benchmark, engine) jobs from the suite directory, run each runner
//! with KLV on stdin, check the count of every sample, and write one result row per job as soon
//! as it is done.
//!
//! Configuration problems are printed before anything runs; the jobs they affect become error
//! rows and everything else is still measured. The outcome is a failure when anything failed.

use std::{io::Write, path::PathBuf, time::Duration};

use crate::exit::Outcome;
use crate::suite::{
    callgrind, execute,
    flags::{filter_usage, Filters, HumanDuration},
    format::Problem,
    klv::Limits,
    plan::{self, Job},
    results::{self, Format, Measurement, Metric},
};
use crate::usage::{self, UsageError};

/// The help text (`suite list` shows it too: it takes the same flags).
pub const USAGE: &str = concat!(
    "\
Run benchmarks and write one result row per benchmark and engine.

USAGE:
    benchgrind suite measure [OPTIONS] [> results.csv]

    Results go to stdout (or to -o FILE, rewritten atomically after each benchmark). A failed
    benchmark (count mismatch, crash, timeout, bad output) is a row with `err` set; failures are
    listed at the end and the exit code is then 1.

OPTIONS:
    -d, --dir <dir>                 the suite directory (default: ./benchmarks)
",
    filter_usage!(),
    "
    -t, --test                      run every benchmark once and check its count; print OK or
                                    the error per benchmark instead of measuring
    --list                          list the benchmarks and engines that would run
    --max-iters <n>                 maximum measured iterations (default: 1000000)
    --max-warmup-iters <n>          maximum warm-up iterations (default: 1000000)
    --max-time <duration>           time budget per benchmark (default: 3s)
    --max-warmup-time <duration>    warm-up budget (default: half of --max-time)
    --timeout <duration>            kill a runner after this long (default: the larger of 10s and
                                    twice the two budgets; 120s with --metric instructions)
    --metric <time|instructions>    time (default): the runner's own timings. instructions: run
                                    each runner under Callgrind, one iteration, no warm-up, and
                                    record the instructions of that iteration (exact, repeatable)
    --valgrind-bin <path>           the `valgrind` to run for instructions (else
                                    BENCHGRIND_VALGRIND, else PATH's), as for the bench binaries
    --format <rebar|csv|json>       rebar: rebar's CSV (default for time); csv: rebar's columns
                                    plus `metric`, full precision (default for instructions);
                                    json: lossless, versioned JSON
    -o, --output <file>             write results to this file instead of stdout
    -h, --help                      print this help
"
);

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
    /// `-t/--test`: check each benchmark once instead of measuring.
    test: bool,
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
    /// `-t/--test`.
    test: bool,
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
        Config::parse_with_help(p, USAGE)
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
                Short('t') | Long("test") => given.test = true,
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
        limits.max_warmup_time = given.warmup_time.unwrap_or(limits.max_time / 2);
        let timeout = given.timeout.unwrap_or(match metric {
            // Valgrind slows programs down 10-100x.
            Metric::Instructions => Duration::from_secs(120),
            Metric::Time => {
                Duration::from_secs(10).max(2 * (limits.max_time + limits.max_warmup_time))
            }
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
            test: given.test,
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
    let launcher = (config.metric == Metric::Instructions && !config.test)
        .then(|| callgrind::launcher(&config.valgrind))
        .transpose()?;
    let (engines, defs) = plan::load(&config.dir)?;
    let mut problems = defs.problems.clone();
    let jobs = plan::plan(&config.filters, &engines, &defs.defs, &mut problems);
    plan::report_problems(&problems);
    if config.test {
        return test(config, &jobs, &problems);
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
    for (i, job) in jobs.iter().enumerate() {
        let mut row = match &job.run {
            Err(e) => job.error_row(e.clone()),
            Ok((engine, count)) => {
                let (limits, timeout) = (&config.limits, config.timeout);
                let r = match (config.metric, launcher) {
                    (Metric::Instructions, Some(launcher)) => {
                        execute::instructions(launcher, job, engine, *count, limits, timeout)
                    }
                    _ => execute::time(job, engine, *count, limits, timeout),
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

/// `-t/--test`: one iteration per job, count checked, one line per job.
fn test(config: &Config, jobs: &[Job], problems: &[Problem]) -> anyhow::Result<Outcome> {
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
            Ok((engine, count)) => execute::time(job, engine, *count, &limits, config.timeout)
                .map(|_| ())
                .map_err(String::from),
        };
        let status = match result {
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
