//! `suite measure` (and `suite list`): plan the (benchmark, engine) jobs from the suite
//! directory, run each runner with KLV on stdin, check the count of every sample, and write
//! one result row per job as soon as it is done.
//!
//! Configuration problems (a broken definition file, an unknown engine, a missing count rule,
//! an engine without a version) are printed before anything runs; the jobs they affect become
//! error rows and everything else is still measured. The exit code is 1 when anything failed.

use std::{io::Write, path::PathBuf, time::Duration};

use super::{
    args::{self, Filters, HumanDuration},
    build::load_engines,
    callgrind,
    format::{
        definitions::{self, Definition},
        engines::Engine,
        Problem,
    },
    klv::{self, Limits},
    results::{self, Format, Measurement, Metric},
    runner, stats,
};

const USAGE: &str = "\
Run benchmarks and write one result row per benchmark and engine.

USAGE:
    benchgrind suite measure [OPTIONS] [> results.csv]

    Results go to stdout (or to -o FILE, rewritten atomically after each benchmark). A failed
    benchmark (count mismatch, crash, timeout, bad output) is a row with `err` set; failures are
    listed at the end and the exit code is then 1.

OPTIONS:
    -d, --dir <dir>                 the suite directory (default: ./benchmarks)
{filters}
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
    --format <rebar|csv|json>       rebar: rebar's CSV (default for time); csv: rebar's columns
                                    plus `metric`, full precision (default for instructions);
                                    json: lossless, versioned JSON
    -o, --output <file>             write results to this file instead of stdout
    -h, --help                      print this help
";

/// The tool version written in the `rebar_version` column.
pub fn tool_version() -> String {
    format!("{} (benchgrind)", env!("CARGO_PKG_VERSION"))
}

struct Config {
    dir: PathBuf,
    filters: Filters,
    limits: Limits,
    timeout: Duration,
    test: bool,
    list: bool,
    metric: Metric,
    format: Format,
    output: Option<PathBuf>,
}

impl Config {
    fn parse(p: &mut lexopt::Parser, list_only: bool) -> anyhow::Result<Option<Config>> {
        use lexopt::Arg::{Long, Short};
        let mut dir = PathBuf::from("benchmarks");
        let mut filters = Filters::default();
        let mut limits = Limits {
            max_iters: 1_000_000,
            max_warmup_iters: 1_000_000,
            max_time: Duration::from_secs(3),
            ..Limits::default()
        };
        let (mut warmup_time, mut timeout, mut format, mut output) = (None, None, None, None);
        let (mut test, mut list, mut metric) = (false, list_only, Metric::Time);
        while let Some(arg) = p.next().map_err(args::lex_err)? {
            if let Some(kind) = Filters::kind(&arg) {
                filters.take(kind, p)?;
                continue;
            }
            match arg {
                Short('h') | Long("help") => {
                    print!("{}", USAGE.replace("{filters}", args::FILTER_USAGE));
                    return Ok(None);
                }
                Short('d') | Long("dir") => dir = PathBuf::from(args::string(p, "-d/--dir")?),
                Short('t') | Long("test") => test = true,
                Long("list") => list = true,
                Long("max-iters") => limits.max_iters = args::parse(p, "--max-iters")?,
                Long("max-warmup-iters") => {
                    limits.max_warmup_iters = args::parse(p, "--max-warmup-iters")?
                }
                Long("max-time") => {
                    limits.max_time = args::parse::<HumanDuration>(p, "--max-time")?.0
                }
                Long("max-warmup-time") => {
                    warmup_time = Some(args::parse::<HumanDuration>(p, "--max-warmup-time")?.0)
                }
                Long("timeout") => timeout = Some(args::parse::<HumanDuration>(p, "--timeout")?.0),
                Long("metric") => {
                    metric = match args::string(p, "--metric")?.as_str() {
                        "time" => Metric::Time,
                        "instructions" => Metric::Instructions,
                        other => {
                            return Err(args::usage(format!(
                                "--metric: expected time or instructions, got '{other}'"
                            )))
                        }
                    }
                }
                Long("format") => format = Some(args::parse::<Format>(p, "--format")?),
                Short('o') | Long("output") => {
                    output = Some(PathBuf::from(args::string(p, "-o/--output")?))
                }
                other => return Err(args::lex_err(other.unexpected())),
            }
        }
        limits.max_warmup_time = warmup_time.unwrap_or(limits.max_time / 2);
        let timeout = timeout.unwrap_or(match metric {
            // Valgrind slows programs down 10-100x.
            Metric::Instructions => Duration::from_secs(120),
            Metric::Time => {
                Duration::from_secs(10).max(2 * (limits.max_time + limits.max_warmup_time))
            }
        });
        let format = match (format, metric) {
            (Some(Format::Rebar), Metric::Instructions) => {
                return Err(args::usage("--format rebar holds durations only; use --format csv or json with --metric instructions"))
            }
            (Some(f), _) => f,
            (None, Metric::Time) => Format::Rebar,
            (None, Metric::Instructions) => Format::Csv,
        };
        Ok(Some(Config {
            dir,
            filters,
            limits,
            timeout,
            test,
            list,
            metric,
            format,
            output,
        }))
    }
}

/// One benchmark to run with one engine, or the reason it cannot run.
struct Job<'a> {
    def: &'a Definition,
    engine: String,
    version: String,
    run: Result<(&'a Engine, u64), String>,
}

impl Job<'_> {
    fn error_row(&self, err: String) -> Measurement {
        Measurement {
            name: self.def.name.clone(),
            model: self.def.model.clone(),
            rebar_version: tool_version(),
            engine: self.engine.clone(),
            engine_version: self.version.clone(),
            err: Some(err),
            haystack_len: self.def.haystack_len(),
            ..Measurement::default()
        }
    }
}

fn plan<'a>(
    cfg: &Config,
    engines: &'a super::format::engines::Engines,
    defs: &'a [Definition],
    problems: &mut Vec<Problem>,
) -> Vec<Job<'a>> {
    let mut versions: std::collections::BTreeMap<&str, Result<String, String>> = Default::default();
    let mut jobs = vec![];
    for def in defs {
        if !cfg.filters.name.include(&def.name) || !cfg.filters.model.include(&def.model) {
            continue;
        }
        if def.engines.is_empty() {
            eprintln!(
                "note: {}: benchmark '{}' lists no engines, so nothing measures it",
                def.location, def.name
            );
        }
        for eref in def
            .engines
            .iter()
            .filter(|e| cfg.filters.engine.include(&e.name))
        {
            let mut job = Job {
                def,
                engine: eref.name.clone(),
                version: String::new(),
                run: Err(String::new()),
            };
            let Some(engine) = engines.by_name.get(&eref.name) else {
                let msg = format!(
                    "engine '{}' is not defined in {} (benchmark '{}'); add an [[engine]] with that name or remove it from `engines`",
                    eref.name,
                    engines.path.display(),
                    def.name
                );
                problems.push(Problem {
                    location: eref.location.clone(),
                    message: msg.clone(),
                });
                job.run = Err(msg);
                jobs.push(job);
                continue;
            };
            let version = versions
                .entry(engine.name.as_str())
                .or_insert_with(|| engine.version.get().map_err(|e| format!("{e:#}")));
            job.run = match (version, def.count_for(&engine.name)) {
                (Err(e), _) => {
                    job.version = "ERROR".into();
                    let msg = format!("cannot get the version of engine '{}': {e} (run `benchgrind suite build`?)", engine.name);
                    Err(msg)
                }
                (Ok(v), None) => {
                    job.version = v.clone();
                    let msg = format!(
                        "benchmark '{}' has no `count` entry matching engine '{}'",
                        def.name, engine.name
                    );
                    problems.push(Problem {
                        location: def.location.clone(),
                        message: msg.clone(),
                    });
                    Err(msg)
                }
                (Ok(v), Some(count)) => {
                    job.version = v.clone();
                    Ok((engine, count))
                }
            };
            jobs.push(job);
        }
    }
    for (name, v) in versions {
        if let Err(e) = v {
            problems.push(Problem {
                location: engines.by_name[name].location.clone(),
                message: format!("cannot get the version of engine '{name}': {e} (run `benchgrind suite build`?)"),
            });
        }
    }
    jobs
}

fn check_counts(samples: &[runner::Sample], expected: u64) -> Result<(), String> {
    if samples.is_empty() {
        return Err(
            "the runner printed no samples (does it honour max-iters and max-time?)".into(),
        );
    }
    match samples.iter().position(|s| s.count != expected) {
        Some(i) => Err(format!(
            "count mismatch: expected {expected}, got {} (sample {})",
            samples[i].count,
            i + 1
        )),
        None => Ok(()),
    }
}

fn measure_time(
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
) -> Result<Measurement, String> {
    let finished = runner::run(
        engine.run.to_std(),
        runner::Input::Pipe(klv::encode(job.def, limits)),
        timeout,
    )?;
    runner::check_status(&finished)?;
    let samples = runner::parse_samples(&finished.stdout)?;
    check_counts(&samples, expected)?;
    let xs: Vec<f64> = samples.iter().map(|s| s.nanos as f64).collect();
    let s = stats::summarize(&xs).expect("samples are not empty");
    Ok(Measurement {
        iters: xs.len() as u64,
        total: finished.elapsed.as_nanos() as f64,
        median: s.median,
        mad: s.mad,
        mean: s.mean,
        stddev: s.stddev,
        min: s.min,
        max: s.max,
        err: None,
        ..job.error_row(String::new())
    })
}

fn measure_instructions(
    job: &Job,
    engine: &Engine,
    expected: u64,
    limits: &Limits,
    timeout: Duration,
) -> Result<Measurement, String> {
    let one = Limits {
        max_iters: 1,
        max_warmup_iters: 0,
        max_time: limits.max_time,
        max_warmup_time: Duration::ZERO,
    };
    let zero = Limits {
        max_iters: 0,
        ..one
    };
    let (base, _) = callgrind::count(&engine.run, klv::encode(job.def, &zero), timeout)?;
    let (gross, finished) = callgrind::count(&engine.run, klv::encode(job.def, &one), timeout)?;
    let samples = runner::parse_samples(&finished.stdout)?;
    check_counts(&samples, expected)?;
    let net = gross.saturating_sub(base) as f64;
    Ok(Measurement {
        metric: Metric::Instructions,
        iters: 1,
        total: gross as f64,
        median: net,
        mean: net,
        min: net,
        max: net,
        err: None,
        ..job.error_row(String::new())
    })
}

fn report_problems(problems: &[Problem]) {
    if problems.is_empty() {
        return;
    }
    eprintln!("error: {} problem(s) in the suite; the benchmarks they affect are errors, the rest still run:", problems.len());
    for p in problems {
        eprintln!("  {p}");
    }
}

fn load(
    cfg: &Config,
) -> anyhow::Result<(super::format::engines::Engines, definitions::Definitions)> {
    let engines = load_engines(&cfg.dir)?;
    Ok((engines, definitions::load(&cfg.dir)))
}

/// Runs `suite list`: the (benchmark, model, engine, version) rows `measure` would run.
pub fn run_list(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    let Some(cfg) = Config::parse(p, true)? else {
        return Ok(0);
    };
    list(&cfg)
}

fn list(cfg: &Config) -> anyhow::Result<u8> {
    let (engines, defs) = load(cfg)?;
    let mut problems = defs.problems.clone();
    let jobs = plan(cfg, &engines, &defs.defs, &mut problems);
    for j in &jobs {
        println!("{},{},{},{}", j.def.name, j.def.model, j.engine, j.version);
    }
    report_problems(&problems);
    Ok(u8::from(!problems.is_empty()))
}

/// Runs `suite measure`.
pub fn run(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    let Some(cfg) = Config::parse(p, false)? else {
        return Ok(0);
    };
    if cfg.list {
        return list(&cfg);
    }
    if cfg.metric == Metric::Instructions && !cfg.test {
        callgrind::check_valgrind()?;
    }
    let (engines, defs) = load(&cfg)?;
    let mut problems = defs.problems.clone();
    let jobs = plan(&cfg, &engines, &defs.defs, &mut problems);
    report_problems(&problems);
    if cfg.test {
        return test(&cfg, &jobs, &problems);
    }
    let mut stdout = std::io::stdout().lock();
    let mut rows: Vec<Measurement> = vec![];
    let streaming = cfg.output.is_none() && cfg.format != Format::Json;
    if streaming {
        stdout.write_all(results::csv_header(cfg.format).as_bytes())?;
        stdout.flush()?;
    }
    for (i, job) in jobs.iter().enumerate() {
        let mut row = match &job.run {
            Err(e) => job.error_row(e.clone()),
            Ok((engine, count)) => {
                let r = match cfg.metric {
                    Metric::Time => measure_time(job, engine, *count, &cfg.limits, cfg.timeout),
                    Metric::Instructions => {
                        measure_instructions(job, engine, *count, &cfg.limits, cfg.timeout)
                    }
                };
                r.unwrap_or_else(|e| job.error_row(e))
            }
        };
        row.metric = cfg.metric;
        if streaming {
            stdout.write_all(results::csv_record(&row, cfg.format).as_bytes())?;
            stdout.flush()?;
        } else if cfg.output.is_some() {
            eprintln!(
                "[{}/{}] {} {}: {}",
                i + 1,
                jobs.len(),
                row.name,
                row.engine,
                if row.err.is_some() { "ERROR" } else { "ok" }
            );
        }
        rows.push(row);
        if let Some(path) = &cfg.output {
            results::save(path, &rows, cfg.format)?;
        }
    }
    if cfg.output.is_none() && cfg.format == Format::Json {
        results::write_all(&mut stdout, &rows, cfg.format)?;
    }
    let failed: Vec<&Measurement> = rows.iter().filter(|r| r.err.is_some()).collect();
    if !failed.is_empty() {
        eprintln!(
            "error: {} of {} benchmark(s) failed (their rows have `err` set):",
            failed.len(),
            rows.len()
        );
        for m in &failed {
            eprintln!(
                "  {} {}: {}",
                m.name,
                m.engine,
                m.err.as_deref().unwrap_or_default()
            );
        }
    }
    Ok(u8::from(!failed.is_empty() || !problems.is_empty()))
}

/// `-t/--test`: one iteration per job, count checked, one line per job.
fn test(cfg: &Config, jobs: &[Job], problems: &[Problem]) -> anyhow::Result<u8> {
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
                measure_time(job, engine, *count, &limits, cfg.timeout).map(|_| ())
            }
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
        eprintln!(
            "error: {failed} of {} benchmark(s) failed the test",
            jobs.len()
        );
    }
    Ok(u8::from(failed > 0 || !problems.is_empty()))
}
