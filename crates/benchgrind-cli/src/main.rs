//! The `benchgrind` command: parse the command line, run the command, exit.
//!
//! The commands live in the library (`lib.rs`). Every command (`cmd/`) has the same shape:
//! `USAGE`, `Config::parse` (the command line only, nothing read or run, so a usage mistake stops
//! before any work) and `run`, which returns an [`Outcome`] or an error. This file alone decides
//! the exit code ([`Exit`]): 0 done, 1 error or failure, 2 usage, 3 past a limit.

#![warn(missing_docs)]

use std::ffi::OsString;
use std::process::ExitCode;

use benchgrind_cli::cmd;
use benchgrind_cli::exit::{Exit, Outcome};
use benchgrind_cli::messages;
use benchgrind_cli::usage::UsageError;

/// The help text.
const USAGE: &str = "\
benchgrind: exact, repeatable benchmarks under Valgrind

USAGE:
    benchgrind <COMMAND> [ARGS...]

COMMANDS:
    ab         run the benchmarks of a git revision and of the working tree, and compare them
    suite      run and compare rebar-format benchmark suites (engines in any language)
    compare    compare two result sets: benchgrind summaries, Google Benchmark JSON or binaries
    gbench     exact counts of the Google Benchmark benchmarks of a C++ binary, under Callgrind
    merge      report the summaries of several runs (e.g. --partition shares) as one run
    explain    which functions and source lines changed the counts, between two profiles
    report     write a static HTML report: overview, history plots, flamegraphs

Run `benchgrind <COMMAND> --help` for the options of a command.
";

fn main() -> ExitCode {
    // Output piped into `head` that closes early ends the process quietly, as for other
    // command-line tools, instead of a panic in `println!`.
    // SAFETY: resetting a signal's disposition to the default, before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let result = Command::parse(args)
        .map_err(anyhow::Error::from)
        .and_then(|command| command.run());
    exit_code(result).into()
}

/// The command asked for.
#[derive(Debug)]
enum Command {
    /// `ab ...`.
    Ab(cmd::ab::Config),
    /// `suite ...`.
    Suite(cmd::suite::Config),
    /// `compare ...`.
    Compare(cmd::compare::Config),
    /// `merge ...`.
    Merge(cmd::merge::Config),
    /// `explain ...`.
    Explain(cmd::explain::Config),
    /// `gbench ...`.
    Gbench(cmd::gbench::Config),
    /// `report ...`.
    Report(cmd::report::Config),
    /// `-V`/`--version`.
    Version,
}

impl Command {
    /// Parses the whole command line (without the program name).
    fn parse(mut args: Vec<OsString>) -> Result<Command, UsageError> {
        if args.is_empty() {
            return Err(UsageError::Missing(USAGE));
        }
        let rest = args.split_off(1);
        let name = args.remove(0);
        let commands = [
            "ab", "suite", "compare", "merge", "explain", "gbench", "report",
        ];
        if let Some(command) = commands.into_iter().find(|c| name.to_str() == Some(c)) {
            messages::set_command(command);
        }
        match name.to_str() {
            Some("-h" | "--help" | "help") => Err(UsageError::Help(USAGE)),
            Some("-V" | "--version") => Ok(Command::Version),
            Some("ab") => cmd::ab::Config::parse(rest).map(Command::Ab),
            Some("suite") => cmd::suite::Config::parse(rest).map(Command::Suite),
            Some("compare") => cmd::compare::Config::parse(rest).map(Command::Compare),
            Some("merge") => cmd::merge::Config::parse(rest).map(Command::Merge),
            Some("explain") => cmd::explain::Config::parse(rest).map(Command::Explain),
            Some("gbench") => cmd::gbench::Config::parse(rest).map(Command::Gbench),
            Some("report") => cmd::report::Config::parse(rest).map(Command::Report),
            Some(other) => Err(UsageError::new(format!("unknown command `{other}`")).hint(USAGE)),
            None => Err(UsageError::new("the command is not valid UTF-8").hint(USAGE)),
        }
    }

    /// Runs the command.
    fn run(&self) -> anyhow::Result<Outcome> {
        match self {
            Command::Ab(config) => cmd::ab::run(config),
            Command::Suite(config) => cmd::suite::run(config),
            Command::Compare(config) => cmd::compare::run(config),
            Command::Merge(config) => cmd::merge::run(config),
            Command::Explain(config) => cmd::explain::run(config),
            Command::Gbench(config) => cmd::gbench::run(config),
            Command::Report(config) => cmd::report::run(config),
            Command::Version => {
                println!("benchgrind {}", env!("CARGO_PKG_VERSION"));
                Ok(Outcome::Done)
            }
        }
    }
}

/// The one place where a command's end becomes the exit code; usage texts and errors are
/// printed here too.
fn exit_code(result: anyhow::Result<Outcome>) -> Exit {
    match result {
        Ok(Outcome::Done) => Exit::Ok,
        Ok(Outcome::Failed) => Exit::Error,
        Ok(Outcome::PastLimit) => Exit::Threshold,
        Ok(Outcome::Uncompared) => Exit::Uncompared,
        Err(err) => match err.downcast::<UsageError>() {
            Ok(UsageError::Help(text)) => {
                print!("{text}");
                Exit::Ok
            }
            Ok(usage) => {
                messages::usage(&usage.to_string());
                Exit::Usage
            }
            Err(err) => {
                messages::say(messages::Kind::Error, format_args!("{err:#}"));
                Exit::Error
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn every_end_has_its_exit_code() {
        let table: [(anyhow::Result<Outcome>, Exit); 7] = [
            (Ok(Outcome::Done), Exit::Ok),
            (Ok(Outcome::Failed), Exit::Error),
            (Ok(Outcome::PastLimit), Exit::Threshold),
            (Ok(Outcome::Uncompared), Exit::Uncompared),
            (Err(UsageError::Help("").into()), Exit::Ok),
            (Err(UsageError::new("bad flag").into()), Exit::Usage),
            (Err(anyhow::anyhow!("cannot read x")), Exit::Error),
        ];
        for (result, want) in table {
            assert_eq!(exit_code(result), want);
        }
    }

    #[test]
    fn commands_are_parsed_before_anything_runs() {
        assert!(matches!(
            Command::parse(os(&["suite", "rank", "r.csv"])),
            Ok(Command::Suite(_))
        ));
        assert!(matches!(
            Command::parse(os(&["--version"])),
            Ok(Command::Version)
        ));
        assert!(matches!(
            Command::parse(os(&[])),
            Err(UsageError::Missing(_))
        ));
        assert!(matches!(
            Command::parse(os(&["merge", "--help"])),
            Err(UsageError::Help(_))
        ));
        let err = Command::parse(os(&["suite", "rank"])).unwrap_err();
        assert!(
            err.to_string().starts_with("error: no result files given"),
            "{err}"
        );
        assert!(err.to_string().contains("benchgrind suite --help"), "{err}");
    }
}
