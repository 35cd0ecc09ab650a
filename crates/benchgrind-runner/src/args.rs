//! Stage 2a of the pipeline: the bench binary's command line (after `cargo bench -- ...`) and its
//! `BENCHGRIND_*` environment variables, validated into raw values. The command line wins over
//! the environment, which wins over the code.
//!
//! The flags libtest knows and cargo may pass (`--bench`, `--exact`, ...) are accepted, so that
//! `cargo bench -- <filter>` never stops at "Unrecognized option".

use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::normalize_valgrind_arg;

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
    /// `--callgrind-args`: extra arguments for Callgrind, after those from the code.
    pub callgrind_args: Vec<String>,
    /// `--list`: print the benchmarks instead of running them.
    pub list: bool,
    /// `--help`.
    pub help: bool,
    /// Colored output.
    pub color: Color,
    /// `--deterministic-random`: overrides the code's `deterministic_random`.
    pub deterministic_random: Option<bool>,
    /// `--random-seed`: overrides the code's `random_seed`.
    pub random_seed: Option<u64>,
}

/// Which output of the benchmark process is shown instead of captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nocapture {
    /// Both captured (the default); shown only when a benchmark fails.
    #[default]
    None,
    /// Both shown.
    All,
    /// Stdout shown, stderr captured.
    Stdout,
    /// Stderr shown, stdout captured.
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

/// The help text of a bench binary.
pub const USAGE: &str = "\
Usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER]...

Runs the benchmarks of this file under Valgrind and compares every one with its previous run.

Arguments:
  [FILTER]...                   run only benchmarks whose id (file::group::function::id)
                                contains FILTER; `*` and `?` are wildcards

Options:
      --exact                   a FILTER must match the whole id
      --skip FILTER             do not run benchmarks matching FILTER (repeatable)
      --callgrind-args=ARGS     extra Callgrind arguments, separated by spaces
                                [env: BENCHGRIND_CALLGRIND_ARGS]
      --nocapture[=WHICH]       show the benchmark's output: true, false, stdout or stderr
                                [env: BENCHGRIND_NOCAPTURE]
      --home=DIR                the root of all output files [default: target/benchgrind]
                                [env: BENCHGRIND_HOME]
      --deterministic-random[=yes|no]
                                serve getrandom from a fixed stream in benchmark processes, so
                                HashMap seeds do not move the counts [default: yes]
                                [env: BENCHGRIND_DETERMINISTIC_RANDOM]
      --random-seed=N           the seed of that stream [default: 0]
                                [env: BENCHGRIND_RANDOM_SEED]
      --list                    list the benchmarks without running them
  -h, --help                    print this help

Environment:
  BENCHGRIND_COLOR              always, never or auto (else CARGO_TERM_COLOR)
  BENCHGRIND_VALGRIND           the valgrind binary to use [default: valgrind on PATH]
";

/// A usage error: the message names the flag or value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Parses the arguments (without the program name) over the given environment lookup.
pub fn parse(args: &[OsString], env: &dyn Fn(&str) -> Option<String>) -> Result<Cli, UsageError> {
    let mut cli = Cli::default();
    let mut nocapture = None;
    let mut home = None;
    let mut callgrind_args = None;
    let (mut deterministic_random, mut random_seed) = (None, None);
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
        let mut value = |flag: &str| -> Result<String, UsageError> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => iter
                    .next()
                    .and_then(|v| v.to_str().map(str::to_owned))
                    .ok_or_else(|| UsageError(format!("{flag} needs a value"))),
            }
        };
        match name {
            "-h" | "--help" => cli.help = true,
            "--exact" => cli.exact = true,
            "--list" => cli.list = true,
            "--skip" => cli.skip.push(value("--skip")?),
            "--nocapture" => {
                nocapture = Some(parse_nocapture(
                    inline.as_deref().unwrap_or("true"),
                    "--nocapture",
                )?)
            }
            "--home" => home = Some(PathBuf::from(value("--home")?)),
            "--callgrind-args" => callgrind_args = Some(value("--callgrind-args")?),
            "--deterministic-random" => {
                deterministic_random = Some(inline.clone().unwrap_or_else(|| "yes".into()))
            }
            "--random-seed" => random_seed = Some(value("--random-seed")?),
            // libtest's flags, passed by cargo or typed out of habit: accepted, no effect here.
            "--bench"
            | "--test"
            | "--quiet"
            | "-q"
            | "--show-output"
            | "--ignored"
            | "--include-ignored"
            | "--force-run-in-process"
            | "--report-time" => {}
            "--test-threads" | "--format" | "--color" | "-Z" | "--logfile" => {
                if inline.is_none() {
                    value(name)?;
                }
            }
            _ => {
                return Err(UsageError(format!(
                    "unknown option `{name}`; run with --help for the options"
                )))
            }
        }
    }

    cli.nocapture = match nocapture {
        Some(n) => n,
        None => match env("BENCHGRIND_NOCAPTURE") {
            Some(v) => parse_nocapture(&v, "BENCHGRIND_NOCAPTURE")?,
            None => Nocapture::None,
        },
    };
    cli.home = home.or_else(|| {
        env("BENCHGRIND_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    });
    let callgrind_args = callgrind_args.or_else(|| env("BENCHGRIND_CALLGRIND_ARGS"));
    cli.callgrind_args = callgrind_args
        .iter()
        .flat_map(|a| a.split_whitespace())
        .map(normalize_valgrind_arg)
        .collect();
    cli.deterministic_random = deterministic_random
        .map(|v| parse_yes_no(&v, "--deterministic-random"))
        .or_else(|| {
            env("BENCHGRIND_DETERMINISTIC_RANDOM")
                .map(|v| parse_yes_no(&v, "BENCHGRIND_DETERMINISTIC_RANDOM"))
        })
        .transpose()?;
    cli.random_seed = random_seed
        .map(|v| parse_seed(&v, "--random-seed"))
        .or_else(|| env("BENCHGRIND_RANDOM_SEED").map(|v| parse_seed(&v, "BENCHGRIND_RANDOM_SEED")))
        .transpose()?;
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
    Ok(cli)
}

fn parse_nocapture(value: &str, source: &str) -> Result<Nocapture, UsageError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "" => Ok(Nocapture::All),
        "false" | "no" => Ok(Nocapture::None),
        "stdout" => Ok(Nocapture::Stdout),
        "stderr" => Ok(Nocapture::Stderr),
        other => Err(UsageError(format!(
            "{source} is `{other}`; use true, false, stdout or stderr"
        ))),
    }
}

fn parse_yes_no(value: &str, source: &str) -> Result<bool, UsageError> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "" => Ok(true),
        "no" | "false" => Ok(false),
        other => Err(UsageError(format!("{source} is `{other}`; use yes or no"))),
    }
}

fn parse_seed(value: &str, source: &str) -> Result<u64, UsageError> {
    value.trim().parse().map_err(|e| {
        UsageError(format!(
            "{source} is `{value}`: {e}; use a number from 0 to {}",
            u64::MAX
        ))
    })
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

    #[test]
    fn bad_input_names_the_flag() {
        let e = parse_with(&["--frobnicate"], &[]).unwrap_err();
        assert!(e.0.contains("`--frobnicate`"), "{}", e.0);
        let e = parse_with(&["--nocapture=maybe"], &[]).unwrap_err();
        assert!(e.0.contains("--nocapture is `maybe`"), "{}", e.0);
        let e = parse_with(&["--home"], &[]).unwrap_err();
        assert!(e.0.contains("--home needs a value"), "{}", e.0);
        let e = parse_with(&[], &[("BENCHGRIND_COLOR", "pink")]).unwrap_err();
        assert!(e.0.contains("`pink`"), "{}", e.0);
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
        let cli = parse_with(&["--deterministic-random=no"], &[]).unwrap();
        assert_eq!(cli.deterministic_random, Some(false));
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
