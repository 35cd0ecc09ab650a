//! The flags iai-callgrind 0.15+ and gungraun have that [`super::flags`] has not: each tool's
//! `--*-args`, `--default-tool`, `--nosummary`, `--show-intermediate`, `--truncate-description`,
//! `--env-clear`, `--envs`, `--allow-aslr`, `--valgrind-bin`, `--no-capture` and `--parallel`;
//! and libtest's switches that cargo and nextest may pass, accepted and ignored. Defined as the
//! flags of [`super::flags`] are; the parser and the help read both tables.

use std::path::PathBuf;

use super::flag::{shell_words, yes_no, Flag, Given, Takes, UsageError};
use super::values::Cli;
use crate::config::compat::DEFAULT_TRUNCATE;
use crate::config::{normalize_valgrind_arg, ValgrindTool};

/// Puts a tool's `--*-args` into the [`Cli`], replacing an earlier value of the same tool.
fn tool_args(cli: &mut Cli, tool: ValgrindTool, given: &Given) -> Result<(), UsageError> {
    let args: Vec<String> = shell_words(given)?
        .iter()
        .map(|a| normalize_valgrind_arg(a))
        .collect();
    cli.tool_args.retain(|(t, _)| *t != tool);
    cli.tool_args.push((tool, args));
    Ok(())
}

/// A `--*-args` flag of one tool.
macro_rules! tool_args_flag {
    ($name:literal, $env:literal, $tool:ident, $help:literal) => {
        Flag {
            name: $name,
            env: $env,
            takes: Takes::Value,
            value: "=ARGS",
            help: $help,
            repeats: false,
            set: |cli, g| tool_args(cli, ValgrindTool::$tool, g),
        }
    };
}

/// A summary switch of the end of the run: `--nosummary` and its alias.
fn nosummary(cli: &mut Cli, given: &Given) -> Result<(), UsageError> {
    cli.nosummary = yes_no(given)?;
    Ok(())
}

/// The flags of this module, in the order of the help (after those of [`super::flags`]).
pub(crate) const MORE_FLAGS: &[Flag] = &[
    tool_args_flag!(
        "--cachegrind-args",
        "BENCHGRIND_CACHEGRIND_ARGS",
        Cachegrind,
        "extra Cachegrind arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--dhat-args",
        "BENCHGRIND_DHAT_ARGS",
        DHAT,
        "extra DHAT arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--memcheck-args",
        "BENCHGRIND_MEMCHECK_ARGS",
        Memcheck,
        "extra Memcheck arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--helgrind-args",
        "BENCHGRIND_HELGRIND_ARGS",
        Helgrind,
        "extra Helgrind arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--drd-args",
        "BENCHGRIND_DRD_ARGS",
        DRD,
        "extra DRD arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--massif-args",
        "BENCHGRIND_MASSIF_ARGS",
        Massif,
        "extra Massif arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--bbv-args",
        "BENCHGRIND_BBV_ARGS",
        BBV,
        "extra BBV (exp-bbv) arguments, split as a shell would"
    ),
    Flag {
        name: "--default-tool",
        env: "BENCHGRIND_DEFAULT_TOOL",
        takes: Takes::Value,
        value: "=TOOL",
        help: "benchmark with this tool instead of Callgrind (which then runs only if the code \
               enables it or --tools names it): callgrind, cachegrind, dhat, memcheck, helgrind, \
               drd, massif or exp-bbv; overrides the code's `default_tool`",
        repeats: false,
        set: |cli, g| {
            if g.lowercase().trim() == "perf" {
                return Err(g.invalid(
                    "benchgrind does not run perf; use callgrind (instruction counts) or \
                     cachegrind",
                ));
            }
            cli.default_tool = Some(g.parse::<ValgrindTool>()?);
            Ok(())
        },
    },
    Flag {
        name: "--nosummary",
        env: "BENCHGRIND_NOSUMMARY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "leave out the line that sums up the run at its end",
        repeats: false,
        set: nosummary,
    },
    Flag {
        name: "--no-summary",
        env: "BENCHGRIND_NO_SUMMARY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "the same as --nosummary",
        repeats: false,
        set: nosummary,
    },
    Flag {
        name: "--show-intermediate",
        env: "BENCHGRIND_SHOW_INTERMEDIATE",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "the same as --separate-threads (its name in iai-callgrind and gungraun)",
        repeats: false,
        set: |cli, g| {
            cli.separate_threads = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--truncate-description",
        env: "BENCHGRIND_TRUNCATE_DESCRIPTION",
        takes: Takes::Optional("yes"),
        value: "[=N|yes|no]",
        help: "cut the arguments in the header after N characters (yes: 50; no: never); \
               overrides the code's `truncate_description`",
        repeats: false,
        set: |cli, g| {
            cli.truncate_description = Some(match g.lowercase().trim() {
                "yes" | "true" | "on" | "y" | "t" => Some(DEFAULT_TRUNCATE),
                "no" | "false" | "off" | "none" | "n" | "f" => None,
                n => Some(n.parse::<usize>().map_err(|_| {
                    g.invalid_lowercase("use a number of characters, yes (50) or no (never cut)")
                })?),
            });
            Ok(())
        },
    },
    Flag {
        name: "--env-clear",
        env: "BENCHGRIND_ENV_CLEAR",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "start benchmark processes with an empty environment (yes) or the harness' (no); \
               overrides the code's `env_clear`",
        repeats: false,
        set: |cli, g| {
            cli.env_clear = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--envs",
        env: "BENCHGRIND_ENVS",
        takes: Takes::Value,
        value: "=VARS",
        help: "set KEY=VALUE or pass KEY through in benchmark processes, after the code's \
               variables; several separated by spaces; repeatable",
        repeats: true,
        set: |cli, g| {
            for word in shell_words(g)? {
                let (key, value) = match word.split_once('=') {
                    Some((k, v)) => (k.to_owned(), Some(v.to_owned())),
                    None => (word.clone(), None),
                };
                if key.is_empty() {
                    return Err(g.invalid(&format!(
                        "`{word}` has no variable name; write KEY=VALUE or KEY"
                    )));
                }
                cli.envs.push((key, value));
            }
            Ok(())
        },
    },
    Flag {
        name: "--allow-aslr",
        env: "BENCHGRIND_ALLOW_ASLR",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "leave address space layout randomization on in benchmark processes (off by \
               default, so that addresses and with them the counts repeat)",
        repeats: false,
        set: |cli, g| {
            cli.allow_aslr = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--valgrind-bin",
        env: "BENCHGRIND_VALGRIND_BIN",
        takes: Takes::Value,
        value: "=PATH",
        help: "the valgrind launcher to run; over BENCHGRIND_VALGRIND and PATH",
        repeats: false,
        set: |cli, g| {
            if g.value.trim().is_empty() {
                return Err(g.invalid("give the path of a valgrind binary"));
            }
            cli.valgrind_bin = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--no-capture",
        env: "BENCHGRIND_NO_CAPTURE",
        takes: Takes::Optional("true"),
        value: "[=true|false|stdout|stderr]",
        help: "the same as --nocapture",
        repeats: false,
        set: super::flags::nocapture,
    },
    Flag {
        name: "--parallel",
        env: "BENCHGRIND_PARALLEL",
        takes: Takes::Optional("auto"),
        value: "[=N|auto]",
        help: "the same as --jobs=N; auto (or no value): the available cores",
        repeats: false,
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
];

/// libtest's switches that cargo, nextest or habit pass and iai-callgrind and gungraun accept:
/// accepted and ignored (benchgrind runs every selected benchmark in its own order, has no
/// `should_panic` benchmarks and no time limits of that kind).
pub(crate) const MORE_LIBTEST_SWITCHES: &[&str] = &[
    "--fail-fast",
    "--shuffle",
    "--exclude-should-panic",
    "--ensure-time",
];

/// libtest's options with a value in the same case: `--shuffle-seed N`.
pub(crate) const MORE_LIBTEST_VALUES: &[&str] = &["--shuffle-seed"];

/// Every flag: those of [`super::flags`], then these.
pub(crate) fn all_flags() -> impl Iterator<Item = &'static Flag> {
    super::flags::ALL.iter().copied().chain(MORE_FLAGS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str], env: &[(&str, &str)]) -> Result<Cli, UsageError> {
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        crate::cli::parse(&args, &|k| {
            env.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn every_flag_works_by_flag_and_by_variable_and_does_something() {
        let cases: &[(&str, &str)] = &[
            ("--cachegrind-args", "--branch-sim=yes"),
            ("--dhat-args", "mode=copy"),
            ("--memcheck-args", "--leak-check=full '--suppressions=a b'"),
            ("--helgrind-args", "--history-level=none"),
            ("--drd-args", "--check-stack-var=yes"),
            ("--massif-args", "--stacks=yes"),
            ("--bbv-args", "--interval-size=1000"),
            ("--default-tool", "exp-bbv"),
            ("--nosummary", "yes"),
            ("--no-summary", "yes"),
            ("--show-intermediate", "yes"),
            ("--truncate-description", "12"),
            ("--env-clear", "no"),
            ("--envs", "A=1 B"),
            ("--allow-aslr", "yes"),
            ("--valgrind-bin", "/opt/valgrind/bin/valgrind"),
            ("--no-capture", "stderr"),
            ("--parallel", "3"),
        ];
        assert_eq!(cases.len(), MORE_FLAGS.len());
        for (name, value) in cases {
            let flag = MORE_FLAGS.iter().find(|f| f.name == *name).unwrap();
            let by_flag = parse(&[&format!("{name}={value}")], &[]).unwrap();
            let by_env = parse(&[], &[(flag.env, value)]).unwrap();
            assert_eq!(by_flag, by_env, "{name}");
            assert_ne!(by_flag, Cli::default(), "{name} has an effect");
        }
        let cli = parse(
            &["--memcheck-args=--leak-check=full '--suppressions=a b'"],
            &[],
        )
        .unwrap();
        assert_eq!(
            cli.tool_args,
            [(
                ValgrindTool::Memcheck,
                vec![
                    "--leak-check=full".to_owned(),
                    "--suppressions=a b".to_owned()
                ]
            )]
        );
        // `--callgrind-args` and `--valgrind-args` split the same way.
        let cli = parse(
            &[r#"--callgrind-args=--dump-instr=yes "--toggle-collect=a b""#],
            &[("BENCHGRIND_VALGRIND_ARGS", "'--log-fd=2' x\\ y")],
        )
        .unwrap();
        assert_eq!(
            cli.callgrind_args,
            ["--dump-instr=yes", "--toggle-collect=a b"]
        );
        assert_eq!(cli.valgrind_args, ["--log-fd=2", "--x y"]);
        let cli = parse(&["--envs=A=1 B", "--envs", "C=x=y"], &[]).unwrap();
        let envs: Vec<(&str, Option<&str>)> = cli
            .envs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_deref()))
            .collect();
        assert_eq!(envs, [("A", Some("1")), ("B", None), ("C", Some("x=y"))]);
        let cli = parse(&["--truncate-description", "--parallel=2"], &[]).unwrap();
        assert_eq!(cli.truncate_description, Some(Some(DEFAULT_TRUNCATE)));
        assert_eq!(cli.jobs, Some(2));
        let cli = parse(&["--truncate-description=none"], &[]).unwrap();
        assert_eq!(cli.truncate_description, Some(None));
        let cli = parse(&["--default-tool=callgrind"], &[]).unwrap();
        assert_eq!(cli.default_tool, Some(ValgrindTool::Callgrind));
    }

    #[test]
    fn nocapture_and_no_capture_take_the_same_words() {
        for value in [
            "", "1", "y", "on", "true", "0", "off", "false", "stdout", "stderr",
        ] {
            let one = parse(&[&format!("--nocapture={value}")], &[]).unwrap();
            let other = parse(&[&format!("--no-capture={value}")], &[]).unwrap();
            assert_eq!(one.nocapture, other.nocapture, "{value:?}");
        }
        assert!(parse(&["--nocapture=maybe"], &[]).is_err());
        assert!(parse(&["--no-capture=maybe"], &[]).is_err());
        // The tool runner's command splits as a shell would, as the other `--*-args`.
        let cli = parse(&["--tool-runner='/opt/my tools/run' -q"], &[]).unwrap();
        assert_eq!(cli.tool_runner, ["/opt/my tools/run", "-q"]);
    }

    #[test]
    fn bad_values_name_the_flag_and_what_to_write() {
        let err = |args: &[&str]| parse(args, &[]).unwrap_err().0;
        assert!(err(&["--default-tool=valgrind"]).contains("unknown tool `valgrind`"));
        assert!(err(&["--default-tool=Perf"]).contains("does not run perf"));
        assert!(err(&["--truncate-description=x"]).starts_with("--truncate-description is `x`"));
        assert!(err(&["--envs==1"]).contains("`=1` has no variable name"));
        assert!(err(&[r"--dhat-args=\"]).starts_with(r"--dhat-args is `\`"));
        assert!(err(&["--parallel=-1"]).starts_with("--parallel is `-1`"));
        assert!(err(&["--valgrind-bin="]).starts_with("--valgrind-bin is ``"));
        assert!(err(&["--nosummary=maybe"]).contains("use yes or no"));
        // libtest's switches are accepted; `--shuffle-seed` takes its value along.
        let cli = parse(
            &["--shuffle", "--shuffle-seed", "7", "--fail-fast", "fib"],
            &[],
        )
        .unwrap();
        assert_eq!(cli.filters, ["fib"]);
    }
}
