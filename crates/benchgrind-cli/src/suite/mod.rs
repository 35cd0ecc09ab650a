//! `benchgrind suite`: run and compare suites of benchmarks in rebar's formats, with runner
//! programs in any language.
//!
//! Pipeline: `format` loads `engines.toml` and `definitions/` -> `klv` encodes one benchmark ->
//! `runner` feeds it to the engine's program (or `callgrind` runs it under Valgrind) and checks
//! every sample's count -> `stats` aggregates -> `results` writes rebar's CSV, full-precision
//! CSV or JSON -> `cmp`, `diff`, `rank`, `report` read those back. Each subcommand has its own
//! usage text and `run`; all exit codes are decided here: 0 ok, 1 error, 2 usage, 3 threshold.

mod args;
mod build;
mod callgrind;
mod cmp;
mod diff;
mod format;
mod grouped;
mod klv;
mod measure;
mod rank;
mod report;
mod results;
mod runner;
mod stats;
mod table;

use std::ffi::OsString;

const USAGE: &str = "\
Run and compare benchmark suites in rebar's formats, with runner programs in any language.

USAGE:
    benchgrind suite <COMMAND> [OPTIONS]

COMMANDS:
    klv        print one benchmark in the KLV format runners read on stdin
    build      check dependencies and build every engine (engines.toml)
    clean      run every engine's clean commands
    list       list the benchmark/engine pairs that `measure` would run
    measure    run benchmarks and write results (rebar CSV, full CSV or JSON)
    cmp        compare engines side by side from result files
    diff       compare the same engine across result files (e.g. before/after)
    rank       rank engines by the geometric mean of their speed ratios
    report     write a Markdown report from result files

The suite directory (-d/--dir, default ./benchmarks) holds engines.toml, definitions/**/*.toml,
haystacks/ and regexes/. Run `benchgrind suite <COMMAND> --help` for a command's options.
";

/// Runs `benchgrind suite` with the arguments after the command name; returns the exit code.
pub fn run(args: Vec<OsString>) -> u8 {
    match dispatch(args) {
        Ok(code) => code,
        Err(err) => {
            if let Some(usage) = err.downcast_ref::<args::UsageError>() {
                eprintln!("error: {usage}\n\nRun `benchgrind suite --help` or `benchgrind suite <COMMAND> --help` for usage.");
                2
            } else {
                eprintln!("error: {err:#}");
                1
            }
        }
    }
}

fn dispatch(args: Vec<OsString>) -> anyhow::Result<u8> {
    let mut p = lexopt::Parser::from_args(args);
    let cmd = match p.next().map_err(args::lex_err)? {
        None => {
            eprint!("{USAGE}");
            return Ok(2);
        }
        Some(lexopt::Arg::Short('h') | lexopt::Arg::Long("help")) => {
            print!("{USAGE}");
            return Ok(0);
        }
        Some(lexopt::Arg::Value(v)) => v,
        Some(other) => return Err(args::lex_err(other.unexpected())),
    };
    match cmd.to_str() {
        Some("klv") => klv::run(&mut p),
        Some("build") => build::run_build(&mut p),
        Some("clean") => build::run_clean(&mut p),
        Some("list") => measure::run_list(&mut p),
        Some("measure") => measure::run(&mut p),
        Some("cmp") => cmp::run(&mut p),
        Some("diff") => diff::run(&mut p),
        Some("rank") => rank::run(&mut p),
        Some("report") => report::run(&mut p),
        _ => Err(args::usage(format!(
            "unknown suite command '{}'",
            cmd.to_string_lossy()
        ))),
    }
}
