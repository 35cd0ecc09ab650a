//! The `benchgrind` command: one subcommand per module, each with its own usage and `run`.
//!
//! The pipeline here is only dispatch; every subcommand parses its own arguments, does its work
//! and returns the process exit code (0 ok, 1 error, 2 usage, 3 regression or threshold).

mod compare;
mod merge;
mod report;
mod suite;

use std::process::ExitCode;

const USAGE: &str = "\
benchgrind: exact, repeatable benchmarks under Valgrind

USAGE:
    benchgrind <COMMAND> [ARGS...]

COMMANDS:
    suite      run and compare rebar-format benchmark suites (engines in any language)
    compare    compare two result sets: benchgrind summaries, Google Benchmark JSON or binaries
    merge      report the summaries of several runs (e.g. --partition shares) as one run
    report     write a static HTML report: overview, history plots, flamegraphs

Run `benchgrind <COMMAND> --help` for the options of a command.
";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(cmd) = args.next() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest: Vec<_> = args.collect();
    let code = match cmd.to_str() {
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            0
        }
        Some("suite") => suite::run(rest),
        Some("compare") => compare::run(rest),
        Some("merge") => merge::run(rest),
        Some("report") => report::run(rest),
        Some("-V" | "--version") => {
            println!("benchgrind {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(other) => {
            eprintln!("error: unknown command `{other}`\n\n{USAGE}");
            2
        }
        None => {
            eprintln!("error: the command is not valid UTF-8\n\n{USAGE}");
            2
        }
    };
    ExitCode::from(code)
}
