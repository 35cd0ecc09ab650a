//! Other tools' names for what benchgrind does: Google Benchmark's `--benchmark_*` flags (a
//! bench binary in a Google Benchmark suite's place) and gungraun's aliases of benchgrind's flags
//! (`--no-capture`, `--no-summary`, `--parallel`).

use std::path::PathBuf;

use super::flag::{nocapture, nosummary, yes_no, Category, Flag, Takes, UsageError};
use crate::cli::gbfilter::GbFilter;
use crate::cli::values::BenchmarkOutFormat;
use crate::config::EventKind;

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--no-capture",
        env: "BENCHGRIND_NO_CAPTURE",
        takes: Takes::Optional("true"),
        value: "[=true|false|stdout|stderr]",
        help: "the same as --nocapture",
        repeats: false,
        category: Category::Compatibility,
        set: nocapture,
    },
    Flag {
        name: "--no-summary",
        env: "BENCHGRIND_NO_SUMMARY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "the same as --nosummary",
        repeats: false,
        category: Category::Compatibility,
        set: nosummary,
    },
    Flag {
        name: "--parallel",
        env: "BENCHGRIND_PARALLEL",
        takes: Takes::Optional("auto"),
        value: "[=N|auto]",
        help: "the same as --jobs=N; auto (or no value): the available cores",
        repeats: false,
        category: Category::Compatibility,
        set: |cli, g| {
            let jobs = match g.lowercase().trim() {
                "auto" => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => match n.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(g.invalid("use a whole number of at least 1, or auto")),
                },
            };
            cli.jobs = Some(jobs);
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
        category: Category::Compatibility,
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
        category: Category::Compatibility,
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
        category: Category::Compatibility,
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
        category: Category::Compatibility,
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
        category: Category::Compatibility,
        set: |cli, g| {
            cli.benchmark_list_tests = yes_no(g)?;
            Ok(())
        },
    },
];
