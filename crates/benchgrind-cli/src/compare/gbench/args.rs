//! `benchgrind gbench` arguments: raw values first, then the resolved [`Config`], checked before
//! anything runs. [`parse_metric`] is shared with `compare --metric`.

use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Result;
use benchgrind_runner::config::EventKind;

use crate::usage::UsageError;

/// The help text.
pub const USAGE: &str = "\
benchgrind gbench: exact counts of Google Benchmark benchmarks of a C++ binary, under Callgrind

USAGE:
    benchgrind gbench BINARY [OPTIONS]

Each benchmark that BINARY lists (`--benchmark_list_tests=true`) runs alone (an anchored
`--benchmark_filter`) under Valgrind's Callgrind, with the bench harness's fixed simulated caches
(I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines), ASLR off and a cleared environment
(plus LD_BIND_NOW=1 and PWD naming the working directory through a link of constant length;
LD_LIBRARY_PATH and VALGRIND_LIB are kept). Every Callgrind metric is reported: Ir, L1hits, LLhits, RamHits,
TotalRW, EstimatedCycles, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw. The same binary gives the
same counts on every run, from any directory.

WHAT IS COUNTED: the benchmark loop only (`for (auto _ : state)` or `while (state.KeepRunning())`),
from the return of Google Benchmark's `State::StartKeepRunning` to the entry of
`State::FinishKeepRunning`; not the code before or after the loop, nor timers or reporting.
    Google Benchmark 1.8+ (it accepts `--benchmark_min_time=<N>x`): each benchmark runs with 1
        and with 1+N iterations; the figure is (count(1+N) - count(1)) / N, one iteration
        exactly.
    older versions (e.g. Debian 12's 1.7.1), which cannot be told an iteration count: one run
        with `--benchmark_min_time=0`, which stops after Google Benchmark's first trial of one
        iteration; the figure is that loop (one iteration, cold caches, plus the loop's few
        instructions of counting) divided by the iterations run (1 unless the benchmark fixes
        `Iterations(n)` itself).
Which of the two applies is printed. The symbols of libbenchmark must be there (not stripped);
single-threaded benchmarks only.

OPTIONS:
    --benchmark_filter RE  only the benchmarks RE selects (Google Benchmark's regex syntax)
    --metric METRIC        what `--out` puts in real_time and cpu_time, shown first:
                           instructions (Ir, the default), cycles (EstimatedCycles) or any
                           metric name above
    --out FILE             also write the counts as Google Benchmark JSON (for compare.py or
                           `benchgrind compare`); `--benchmark_out=FILE` is the same, and
                           `--benchmark_out_format=json` is accepted
    --iterations N         Google Benchmark 1.8+: N of 1+N [default: 10]
    --valgrind-bin PATH    the `valgrind` to run (else BENCHGRIND_VALGRIND, else PATH's), as
                           for the bench binaries
    -h, --help             print this help

EXIT CODES:
    0 all measured, 1 error (a benchmark failed, the binary cannot be run), 2 usage
";

/// The resolved arguments.
#[derive(Debug, PartialEq)]
pub struct Config {
    /// The binary.
    pub binary: PathBuf,
    /// `--benchmark_filter`.
    pub filter: Option<String>,
    /// `--metric`.
    pub metric: EventKind,
    /// `--out` / `--benchmark_out`.
    pub out: Option<PathBuf>,
    /// `--iterations`.
    pub iterations: Option<u64>,
    /// `--valgrind-bin`, else `BENCHGRIND_VALGRIND`, else `PATH`'s.
    pub valgrind: benchgrind_runner::execute::valgrind::Choice,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// `--help`.
    Help,
    /// A measurement.
    Run(Config),
}

/// Parses the arguments after `gbench`.
pub fn parse(args: Vec<OsString>) -> Result<Parsed, UsageError> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args);
    let usage = UsageError::from;
    let mut binary = None;
    let (mut filter, mut metric, mut out, mut iterations) = (None, None, None, None);
    let mut valgrind_bin = None;
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Long("benchmark_filter") => {
                filter = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("metric") => {
                let value = parser.value().map_err(usage)?.string().map_err(usage)?;
                metric = Some(parse_metric(&value).map_err(UsageError::new)?);
            }
            Long("out" | "benchmark_out") => {
                out = Some(PathBuf::from(parser.value().map_err(usage)?))
            }
            Long("benchmark_out_format") => {
                let value = parser.value().map_err(usage)?.string().map_err(usage)?;
                if value != "json" {
                    return Err(UsageError::new(format!(
                        "`--benchmark_out_format={value}`: benchgrind writes json only"
                    )));
                }
            }
            Long("valgrind-bin") => {
                valgrind_bin = Some(PathBuf::from(parser.value().map_err(usage)?));
            }
            Long("iterations") => {
                let value = parser.value().map_err(usage)?.string().map_err(usage)?;
                iterations = Some(value.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(
                    || {
                        UsageError::new(format!(
                            "`--iterations {value}`: expected a whole number > 0"
                        ))
                    },
                )?);
            }
            Value(v) if binary.is_none() => binary = Some(PathBuf::from(v)),
            Value(v) => {
                return Err(UsageError::new(format!(
                    "one BINARY only; `{}` is one too many (to compare two builds: `benchgrind \
                     compare --metric instructions OLD NEW`)",
                    v.to_string_lossy()
                )))
            }
            other => return Err(usage(other.unexpected())),
        }
    }
    let binary = binary.ok_or_else(|| UsageError::new("expected a BINARY to measure"))?;
    Ok(Parsed::Run(Config {
        binary,
        filter,
        metric: metric.unwrap_or(EventKind::Ir),
        out,
        iterations,
        valgrind: match valgrind_bin {
            Some(binary) => benchgrind_runner::execute::valgrind::Choice {
                binary: Some(binary),
                runner: Vec::new(),
            },
            None => benchgrind_runner::execute::valgrind::Choice::from_env(),
        },
    }))
}

/// A `--metric` value: `instructions`, `cycles`, or a Callgrind metric name in any case (the
/// bench binaries' `--benchmark_metric` takes the same, [`EventKind::from_choice`]).
pub fn parse_metric(value: &str) -> Result<EventKind, Problem> {
    EventKind::from_choice(value).ok_or_else(|| {
        let names: Vec<_> = EventKind::CHOICES.iter().map(|k| k.name()).collect();
        problem!(
            "`--metric {value}`: expected instructions, cycles or one of {}",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_list(list: &[&str]) -> Result<Parsed, UsageError> {
        parse(list.iter().map(OsString::from).collect())
    }

    #[test]
    fn google_benchmark_spellings_and_our_own() {
        let Parsed::Run(c) = parse_list(&[
            "./b",
            "--benchmark_filter=BM_a/.*",
            "--benchmark_out=x.json",
            "--benchmark_out_format=json",
            "--metric",
            "cycles",
        ])
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!(c.binary, PathBuf::from("./b"));
        assert_eq!(c.filter.as_deref(), Some("BM_a/.*"));
        assert_eq!(c.out, Some(PathBuf::from("x.json")));
        assert_eq!(c.metric, EventKind::EstimatedCycles);
        assert_eq!(parse_list(&["-h"]).unwrap(), Parsed::Help);
    }

    #[test]
    fn mistakes_are_usage_errors_naming_the_flag() {
        for (args, needle) in [
            (&["./b", "--metric", "speed"][..], "`--metric speed`"),
            (&["./b", "--benchmark_out_format=csv"], "json only"),
            (&["./b", "--iterations", "0"], "`--iterations 0`"),
            (&["./b", "./c"], "one BINARY only"),
            (&[], "expected a BINARY"),
            (&["./b", "--frob"], "--frob"),
        ] {
            let err = parse_list(args).unwrap_err();
            assert!(err.to_string().contains(needle), "{args:?}: {err}");
        }
        assert_eq!(parse_metric("IR"), Ok(EventKind::Ir));
        assert_eq!(parse_metric("instructions"), Ok(EventKind::Ir));
        assert!(parse_metric("SysCount").is_err());
    }
}
