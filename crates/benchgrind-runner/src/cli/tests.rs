//! The command line and environment, parsed: every flag, its variable, and bad input.

use std::ffi::OsString;
use std::path::PathBuf;

use super::flags::flag::Takes;
use super::flags::ALL;
use super::*;
use crate::config::DEFAULT_TRUNCATE;
use crate::config::{EventKind, ValgrindTool};

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

/// Every flag given as its variable has the same effect as on the command line.
#[test]
fn every_flag_has_a_variable_with_the_same_effect() {
    let cases: &[(&str, &str)] = &[
        ("--exact", "yes"),
        ("--list", "yes"),
        ("--no-match", "fail"),
        ("--skip", "x"),
        ("--nocapture", "stderr"),
        ("--home", "/tmp/h"),
        ("--separate-targets", "yes"),
        ("--callgrind-args", "--dump-instr=yes"),
        ("--valgrind-args", "--trace-children=no"),
        ("--tools", "dhat,memcheck"),
        ("--regression", "ir=5%"),
        ("--regression-fail-fast", "yes"),
        ("--fail-on-empty", "yes"),
        ("--limit-layout", "yes"),
        ("--layout-spread", "3"),
        ("--save-baseline", "main"),
        ("--baseline", "main"),
        ("--load-baseline", "new"),
        ("--uncompared", "fail"),
        ("--baseline-revision", "0123abcd"),
        ("--output-format", "json"),
        ("--explain", "always"),
        ("--labels", "benchgrind"),
        ("--save-summary", "pretty-json"),
        ("--history", "off"),
        ("--deterministic-random", "no"),
        ("--realtime", "no"),
        ("--random-seed", "7"),
        ("--jobs", "3"),
        ("--separate-threads", "yes"),
        ("--timeout", "2.5"),
        ("--stall-limit", "30s"),
        ("--isolation", "process"),
        ("--fresh", "yes"),
        ("--verify-reuse", "yes"),
        ("--partition", "2/3"),
        ("--test-mode", "yes"),
        ("--benchmark_out", "out.json"),
        ("--benchmark_out_format", "csv"),
        ("--benchmark_metric", "estimatedcycles"),
        ("--benchmark_filter", "^e2e::.*fib"),
        ("--benchmark_list_tests", "true"),
        ("--callgrind-limits", "ir=5%,@hits=100"),
        ("--cachegrind-limits", "ir=5%"),
        ("--dhat-limits", "@all=3%,tb=10"),
        ("--callgrind-metrics", "@all"),
        ("--cachegrind-metrics", "@cachesim"),
        ("--dhat-metrics", "tb,gb"),
        ("--memcheck-metrics", "errors"),
        ("--helgrind-metrics", "@all"),
        ("--drd-metrics", "ctx"),
        ("--tolerance", "0.5"),
        ("--show-grid", "yes"),
        ("--show-only-comparison", "yes"),
        ("--output-file", "bencher.json"),
        ("--tool-runner", "sudo -E"),
        ("--tool-runner-args", "--preserve-env"),
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
        ("--perf", "yes"),
        ("--perf-events", "cycles,instructions"),
        ("--perf-limits", "task-clock*=40%|2.5ms"),
        ("--perf-sampling", "250ms"),
        ("--perf-run-mode", "calibrate=2s"),
        ("--perf-args", "--all-user"),
        ("--perf-noise", "0.5"),
        ("--perf-margin", "2.5"),
        ("--perf-fail-inconclusive", "yes"),
        ("--perf-round", "/tmp/round.txt"),
    ];
    assert_eq!(cases.len(), ALL.len());
    for (flag, value) in cases {
        let def = ALL.iter().find(|f| f.name == *flag).unwrap();
        let mut args = vec![format!("{flag}={value}")];
        let mut env = vec![(def.env, *value)];
        if *flag == "--load-baseline" {
            args.push("--baseline=main".into());
            env.push(("BENCHGRIND_BASELINE", "main"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let by_flag = parse_with(&args, &[]).unwrap();
        let by_env = parse_with(&[], &env).unwrap();
        assert_eq!(by_flag, by_env, "{flag} vs {}", def.env);
        assert_ne!(by_flag, Cli::default(), "{flag} has an effect");
    }
    let by_env = parse_with(&[], &[("BENCHGRIND_FILTER", "fib")]).unwrap();
    assert_eq!(by_env.filters, ["fib"]);
}

#[test]
fn regression_and_baseline_flags() {
    let cli = parse_with(
        &[
            "--regression=ir=5%,estimatedcycles=10",
            "--regression-fail-fast",
        ],
        &[],
    )
    .unwrap();
    let r = cli.regression.unwrap();
    assert_eq!(
        r.effective_limits(),
        vec![(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, 10.0)]
    );
    assert_eq!(cli.regression_fail_fast, Some(true));

    let cli = parse_with(&["--save-baseline", "--baseline=main"], &[]).unwrap();
    assert_eq!(cli.save_baseline.as_deref(), Some("default"));
    assert_eq!(cli.baseline.as_deref(), Some("main"));
    let e = parse_with(&["--load-baseline=new"], &[]).unwrap_err();
    assert!(e.0.contains("--load-baseline needs --baseline"), "{}", e.0);
    let e = parse_with(&["--baseline=../etc"], &[]).unwrap_err();
    assert!(e.0.contains("--baseline is `../etc`"), "{}", e.0);
    let e = parse_with(&[], &[("BENCHGRIND_REGRESSION", "ir=lots")]).unwrap_err();
    assert!(e.0.starts_with("BENCHGRIND_REGRESSION: "), "{}", e.0);
}

#[test]
fn bad_input_names_the_flag() {
    let e = parse_with(&["--frobnicate"], &[]).unwrap_err();
    assert_eq!(e.0, "unknown flag --frobnicate");
    let e = parse_with(&["--nocapture=maybe"], &[]).unwrap_err();
    assert!(e.0.contains("--nocapture is `maybe`"), "{}", e.0);
    let e = parse_with(&["--home"], &[]).unwrap_err();
    assert!(e.0.contains("--home needs a value"), "{}", e.0);
    let e = parse_with(&["--exact=perhaps"], &[]).unwrap_err();
    assert!(
        e.0.contains("--exact is `perhaps`; use yes or no"),
        "{}",
        e.0
    );
    let e = parse_with(&[], &[("BENCHGRIND_COLOR", "pink")]).unwrap_err();
    assert!(e.0.contains("`pink`"), "{}", e.0);
    let e = parse_with(&[], &[("BENCHGRIND_EXACT", "perhaps")]).unwrap_err();
    assert!(e.0.contains("BENCHGRIND_EXACT is `perhaps`"), "{}", e.0);
    let e = parse_with(&["--tools=dhat,valgrind"], &[]).unwrap_err();
    assert!(
        e.0.starts_with("--tools: unknown tool `valgrind`"),
        "{}",
        e.0
    );
    let e = parse_with(&["--output-format=xml"], &[]).unwrap_err();
    assert!(e.0.contains("--output-format is `xml`"), "{}", e.0);
    let e = parse_with(&["--labels=LL"], &[]).unwrap_err();
    assert!(
        e.0.contains("--labels is `ll`; use iai-callgrind or benchgrind"),
        "{}",
        e.0
    );
}

#[test]
fn libtest_flags_are_accepted() {
    let cli = parse_with(
        &[
            "--bench",
            "--format",
            "terse",
            "--list",
            "--ignored",
            "--test-threads=1",
        ],
        &[],
    )
    .unwrap();
    assert!(cli.list && cli.ignored);
    assert!(cli.filters.is_empty());
}

#[test]
fn scheduling_flags() {
    let cli = parse_with(
        &["--jobs=4", "--isolation=process", "--partition", "1/2"],
        &[],
    )
    .unwrap();
    assert_eq!(cli.jobs, Some(4));
    assert_eq!(cli.isolation, Isolation::Process);
    assert_eq!(cli.partition, Some((1, 2)));
    for bad in [
        "--jobs=0",
        "--isolation=thread",
        "--partition=3/2",
        "--partition=0/2",
        "--partition=1",
    ] {
        assert!(parse_with(&[bad], &[]).is_err(), "{bad}");
    }
    let cli = parse_with(&["--bench"], &[]).unwrap();
    assert!(cli.bench_flag && !cli.test_mode);
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

#[test]
fn google_benchmark_flags() {
    let cli = parse_with(
        &[
            "--benchmark_out",
            "a.json",
            "--benchmark_out_format=CONSOLE",
            "--benchmark_metric=cycles",
        ],
        &[],
    )
    .unwrap();
    assert_eq!(cli.benchmark_out, Some(PathBuf::from("a.json")));
    assert_eq!(cli.benchmark_out_format, BenchmarkOutFormat::Console);
    assert_eq!(cli.benchmark_metric(), EventKind::EstimatedCycles);
    let cli = parse_with(&["--benchmark_list_tests"], &[]).unwrap();
    assert!(cli.benchmark_list_tests && !cli.list);
    assert_eq!(cli.benchmark_metric(), EventKind::Ir);
    assert_eq!(cli.benchmark_out_format, BenchmarkOutFormat::Json);
    for (metric, kind) in [("IR", EventKind::Ir), ("l1hits", EventKind::L1hits)] {
        let flag = format!("--benchmark_metric={metric}");
        assert_eq!(parse_with(&[&flag], &[]).unwrap().benchmark_metric(), kind);
    }
    let bad = [
        ("--benchmark_out_format=xml", "use json, csv or console"),
        (
            "--benchmark_metric=speed",
            "use instructions, cycles or one of Ir, L1hits",
        ),
        ("--benchmark_metric=SysCount", "`SysCount`"),
        (
            "--benchmark_filter=fib(",
            "--benchmark_filter: `fib(` has an unclosed `(`",
        ),
        ("--benchmark_list_tests=maybe", "use yes or no"),
    ];
    for (arg, message) in bad {
        let e = parse_with(&[arg], &[]).unwrap_err().0;
        assert!(e.contains(message), "{arg}: {e}");
    }
    let e = parse_with(&[], &[("BENCHGRIND_BENCHMARK_FILTER", "a\\b")]).unwrap_err();
    assert!(
        e.0.starts_with("BENCHGRIND_BENCHMARK_FILTER: `a\\b` has `\\b`"),
        "{}",
        e.0
    );
}

#[test]
fn benchmark_filter_applies_beside_the_positional_filters() {
    let ids = [
        "e2e::fib::fib::short",
        "e2e::fib::fib::long",
        "e2e::sort::bubble::short",
    ];
    let selected = |args: &[&str]| -> Vec<&str> {
        let cli = parse_with(args, &[]).unwrap();
        ids.iter().copied().filter(|id| cli.selects(id)).collect()
    };
    assert_eq!(selected(&["--benchmark_filter=short$"]), [ids[0], ids[2]]);
    assert_eq!(selected(&["--benchmark_filter=-short$"]), [ids[1]]);
    assert_eq!(selected(&["--benchmark_filter=all"]), ids);
    assert_eq!(selected(&["fib", "--benchmark_filter=short"]), [ids[0]]);
    assert_eq!(
        selected(&["--skip=bubble", "--benchmark_filter=(fib|sort)::"]),
        ids[..2]
    );
}

#[test]
fn the_tools_arguments_split_as_a_shell_would_and_aliases_fold() {
    let cli = parse_with(
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
    let cli = parse_with(
        &[r#"--callgrind-args=--dump-instr=yes "--toggle-collect=a b""#],
        &[("BENCHGRIND_VALGRIND_ARGS", "'--log-fd=2' x\\ y")],
    )
    .unwrap();
    assert_eq!(
        cli.callgrind_args,
        ["--dump-instr=yes", "--toggle-collect=a b"]
    );
    assert_eq!(cli.valgrind_args, ["--log-fd=2", "--x y"]);
    let cli = parse_with(&["--envs=A=1 B", "--envs", "C=x=y"], &[]).unwrap();
    let envs: Vec<(&str, Option<&str>)> = cli
        .envs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_deref()))
        .collect();
    assert_eq!(envs, [("A", Some("1")), ("B", None), ("C", Some("x=y"))]);
    let cli = parse_with(&["--truncate-description", "--parallel=2"], &[]).unwrap();
    assert_eq!(cli.truncate_description, Some(Some(DEFAULT_TRUNCATE)));
    assert_eq!(cli.jobs, Some(2));
    let cli = parse_with(&["--truncate-description=none"], &[]).unwrap();
    assert_eq!(cli.truncate_description, Some(None));
    let cli = parse_with(&["--default-tool=callgrind"], &[]).unwrap();
    assert_eq!(cli.default_tool, Some(ValgrindTool::Callgrind));
}

#[test]
fn nocapture_and_no_capture_take_the_same_words() {
    for value in [
        "", "1", "y", "on", "true", "0", "off", "false", "stdout", "stderr",
    ] {
        let one = parse_with(&[&format!("--nocapture={value}")], &[]).unwrap();
        let other = parse_with(&[&format!("--no-capture={value}")], &[]).unwrap();
        assert_eq!(one.nocapture, other.nocapture, "{value:?}");
    }
    assert!(parse_with(&["--nocapture=maybe"], &[]).is_err());
    assert!(parse_with(&["--no-capture=maybe"], &[]).is_err());
    // The tool runner's command splits as a shell would, as the other `--*-args`.
    let cli = parse_with(&["--tool-runner='/opt/my tools/run' -q"], &[]).unwrap();
    assert_eq!(cli.tool_runner, ["/opt/my tools/run", "-q"]);
}

#[test]
fn bad_values_name_the_flag_and_what_to_write() {
    let err = |args: &[&str]| parse_with(args, &[]).unwrap_err().0;
    assert!(err(&["--default-tool=valgrind"]).contains("unknown tool `valgrind`"));
    assert!(err(&["--default-tool=Perf"]).contains("add --perf"));
    // perf's flags: the flag, the value and what to write.
    let e = err(&["--perf-margin=wide"]);
    assert!(
        e.starts_with("--perf-margin is `wide`") && e.contains("such as 5"),
        "{e}"
    );
    assert!(err(&["--perf-margin=-1"]).starts_with("--perf-margin"));
    let e = err(&["--perf-limits=cycles"]);
    assert!(
        e.starts_with("--perf-limits") && e.contains("`cycles`: not a limit"),
        "{e}"
    );
    assert!(err(&["--perf-round="]).starts_with("--perf-round"));
    assert!(err(&["--perf-fail-inconclusive=maybe"]).starts_with("--perf-fail-inconclusive"));
    assert!(err(&["--truncate-description=x"]).starts_with("--truncate-description is `x`"));
    assert!(err(&["--envs==1"]).contains("`=1` has no variable name"));
    assert!(err(&[r"--dhat-args=\"]).starts_with(r"--dhat-args is `\`"));
    assert!(err(&["--parallel=-1"]).starts_with("--parallel is `-1`"));
    assert!(err(&["--valgrind-bin="]).starts_with("--valgrind-bin is ``"));
    assert!(err(&["--nosummary=maybe"]).contains("use yes or no"));
    // libtest's switches are accepted; `--shuffle-seed` takes its value along.
    let cli = parse_with(
        &["--shuffle", "--shuffle-seed", "7", "--fail-fast", "fib"],
        &[],
    )
    .unwrap();
    assert_eq!(cli.filters, ["fib"]);
}

/// A mistyped flag is a few lines: the error, the closest flag, where the flags are; not the
/// whole help.
#[test]
fn a_mistyped_flag_names_the_closest_one_in_a_few_lines() {
    let report = |args: &[&str]| parse_with(args, &[]).unwrap_err().report();
    assert_eq!(
        report(&["--save-basline=main"]),
        "unknown flag --save-basline=main\n  a similar flag exists: --save-baseline\n  \
         see the flags with --help"
    );
    let similar = |arg: &str| {
        let text = report(&[arg]);
        assert!(text.lines().count() <= 3, "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("  a similar flag exists: "))
            .map(str::to_owned)
    };
    // A letter left out, added, changed, two swapped, a dash or case off.
    assert_eq!(similar("--fersh").as_deref(), Some("--fresh"));
    assert_eq!(similar("--jobs2=3").as_deref(), Some("--jobs"));
    assert_eq!(similar("--toosl=dhat").as_deref(), Some("--tools"));
    assert_eq!(similar("-exact").as_deref(), Some("--exact"));
    assert_eq!(similar("--Fresh").as_deref(), Some("--fresh"));
    assert_eq!(
        similar("--save_baseline").as_deref(),
        Some("--save-baseline")
    );
    assert_eq!(similar("--hlep").as_deref(), Some("--help"));
    assert_eq!(similar("--no-matches=fail").as_deref(), Some("--no-match"));
    // Nothing close: no guess.
    assert_eq!(similar("--frobnicate"), None);
    assert_eq!(similar("--x"), None);
    // Every other usage error ends with where the flags are too.
    assert_eq!(
        report(&["--home"]),
        "--home needs a value\n  see the flags with --help"
    );
}

/// Every on/off flag takes `=yes|no` (and the other words of its variable), as `--fresh=yes`.
#[test]
fn every_switch_takes_yes_or_no() {
    let fresh = |args: &[&str]| parse_with(args, &[]).unwrap().reuse;
    assert_eq!(fresh(&["--fresh=yes"]), Reuse::Fresh);
    assert_eq!(fresh(&["--fresh"]), Reuse::Fresh);
    assert_eq!(fresh(&["--fresh", "--fresh=no"]), Reuse::Reuse);
    assert_eq!(fresh(&["--fresh=no"]), Reuse::Reuse);
    assert_eq!(fresh(&["--verify-reuse=yes", "--fresh=no"]), Reuse::Verify);
    let mut switches = 0;
    for flag in ALL.iter() {
        assert!(!flag.value.is_empty(), "{} shows no value", flag.name);
        let Takes::Optional(default @ ("yes" | "true" | "on")) = flag.takes else {
            continue;
        };
        switches += 1;
        let bare = parse_with(&[flag.name], &[]).unwrap();
        let yes = parse_with(&[&format!("{}=yes", flag.name)], &[]).unwrap();
        assert_eq!(bare, yes, "{} (bare means {default})", flag.name);
        let no = parse_with(&[&format!("{}=no", flag.name)], &[]);
        assert!(no.is_ok(), "{}=no: {:?}", flag.name, no);
        assert_ne!(no.unwrap(), yes, "{}=no", flag.name);
    }
    assert!(switches >= 20, "{switches}");
}

#[test]
fn no_match_takes_warn_fail_or_pass() {
    assert_eq!(parse_with(&[], &[]).unwrap().no_match, NoMatch::Warn);
    let cli = parse_with(&["--no-match=fail"], &[]).unwrap();
    assert_eq!(cli.no_match, NoMatch::Fail);
    let cli = parse_with(&[], &[("BENCHGRIND_NO_MATCH", "pass")]).unwrap();
    assert_eq!(cli.no_match, NoMatch::Pass);
    let e = parse_with(&["--no-match=maybe"], &[]).unwrap_err();
    assert!(e.0.contains("use warn, fail or pass"), "{}", e.0);
}
