//! The flags of what runs and what it is compared with: which benchmarks (`--exact`, `--skip`,
//! `--list`), regression limits (`--regression`, `--*-limits`), baselines, where files go
//! (`--home`), how measured processes run (`--jobs`, `--realtime`, `--timeout`, `--isolation`,
//! `--partition`, `--envs`, ...).

use std::path::PathBuf;

use super::flag::{
    baseline_name, shell_words, spec, yes_no, Category, Flag, Given, Takes, UsageError,
};
use crate::cli::values::{Isolation, NoMatch, Reuse};
use crate::config::tool_metrics::text as spec_text;
use crate::config::RegressionConfig;

/// A limit on a run's time (`--timeout`, `--stall-limit`): a duration above 0.
fn limit(g: &Given) -> Result<std::time::Duration, UsageError> {
    match crate::duration::parse(&g.value) {
        Ok(limit) if !limit.is_zero() => Ok(limit),
        Ok(_) => Err(g.invalid("use a duration above 0, like 600, 2.5, 10s or 5m")),
        Err(e) => Err(g.invalid(&e)),
    }
}

const LIMITS_HELP: &str = "comma-separated KEY=N% (soft, in percent of the old value), KEY=N \
                           (hard) or KEY=N%|M; KEY is a metric or a @group";

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--exact",
        env: "BENCHGRIND_EXACT",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "a FILTER must match the whole id",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.exact = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--skip",
        env: "BENCHGRIND_SKIP",
        takes: Takes::Value,
        value: " FILTER",
        help: "do not run benchmarks matching FILTER",
        repeats: true,
        category: Category::Run,
        set: |cli, g| {
            cli.skip.push(g.value.clone());
            Ok(())
        },
    },
    Flag {
        name: "--no-match",
        env: "BENCHGRIND_NO_MATCH",
        takes: Takes::Value,
        value: "=warn|fail|pass",
        help: "when the filters select no benchmark of this bench file: warn says so and passes, \
               fail exits 1 (with `cargo bench --bench NAME`: every other bench file sees the \
               filters too), pass says nothing [default: warn]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.no_match = match g.lowercase().as_str() {
                "warn" => NoMatch::Warn,
                "fail" => NoMatch::Fail,
                "pass" => NoMatch::Pass,
                _ => return Err(g.invalid_lowercase("use warn, fail or pass")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--list",
        env: "BENCHGRIND_LIST",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "list the benchmarks without running them",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.list = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--regression",
        env: "BENCHGRIND_REGRESSION",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "fail past these limits, over the code's: METRIC=PERCENT or METRIC<=COUNT, \
               comma-separated (ir=5%,estimatedcycles=10%); other tools' metrics too \
               (totalbytes=2%,errors<=0)",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.regression = Some(g.parse::<RegressionConfig>()?);
            Ok(())
        },
    },
    Flag {
        name: "--regression-fail-fast",
        env: "BENCHGRIND_REGRESSION_FAIL_FAST",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "stop at the first regression",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.regression_fail_fast = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--fail-on-empty",
        env: "BENCHGRIND_FAIL_ON_EMPTY",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "fail benchmarks that measure almost nothing (under 10 instructions)",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.fail_on_empty = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--save-baseline",
        env: "BENCHGRIND_SAVE_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "compare with baseline NAME, then save this run as NAME [default NAME: default]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.save_baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--baseline",
        env: "BENCHGRIND_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "compare with baseline NAME instead of the previous run",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--load-baseline",
        env: "BENCHGRIND_LOAD_BASELINE",
        takes: Takes::Optional("default"),
        value: "[=NAME]",
        help: "with --baseline: compare baseline NAME with it, without running",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.load_baseline = Some(baseline_name(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--uncompared",
        env: "BENCHGRIND_UNCOMPARED",
        takes: Takes::Value,
        value: "=notice|fail",
        help: "with --baseline: a benchmark without a baseline of its own machine and revision \
               (none saved, another machine's, another revision's) is reported; fail exits 4",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.uncompared_fails = match g.value.as_str() {
                "notice" => false,
                "fail" => true,
                other => {
                    return Err(UsageError(format!(
                        "{}: `{other}` is not a choice; use notice or fail",
                        g.source
                    )))
                }
            };
            Ok(())
        },
    },
    Flag {
        name: "--baseline-revision",
        env: "BENCHGRIND_BASELINE_REVISION",
        takes: Takes::Value,
        value: "=REV",
        help: "the git commit the --baseline must have measured (a pull request's merge base); \
               one saved at another is uncompared",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            let rev = g.value.trim();
            if rev.len() < 4 || !rev.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(UsageError(format!(
                    "{}: `{rev}` is not a commit id; give its hexadecimal name \
                     (git rev-parse REV prints it)",
                    g.source
                )));
            }
            cli.baseline_revision = Some(rev.to_ascii_lowercase());
            Ok(())
        },
    },
    Flag {
        name: "--callgrind-limits",
        env: "BENCHGRIND_CALLGRIND_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "Callgrind's limits, replacing the code's (ir=5%,@hits=10000,l1hitrate=99.5): \
               see --regression for the older form",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.callgrind_limits = Some(spec(g, spec_text::callgrind_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--cachegrind-limits",
        env: "BENCHGRIND_CACHEGRIND_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "Cachegrind's limits, replacing the code's, as --callgrind-limits",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.cachegrind_limits = Some(spec(g, spec_text::cachegrind_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--dhat-limits",
        env: "BENCHGRIND_DHAT_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: LIMITS_HELP,
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.dhat_limits = Some(spec(g, spec_text::dhat_limits(&g.value))?);
            Ok(())
        },
    },
    Flag {
        name: "--home",
        env: "BENCHGRIND_HOME",
        takes: Takes::Value,
        value: "=DIR",
        help: "the root of all output files [default: target/benchgrind]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.home = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--separate-targets",
        env: "BENCHGRIND_SEPARATE_TARGETS",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "one tree per target triple below the home",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.separate_targets = yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--deterministic-random",
        env: "BENCHGRIND_DETERMINISTIC_RANDOM",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "serve getrandom from a fixed stream in benchmark processes, so HashMap seeds do \
               not move the counts [default: yes]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.deterministic_random = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--realtime",
        env: "BENCHGRIND_REALTIME",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "run each measured process on one processor under SCHED_FIFO where that is \
               permitted, so that threads take turns the same way on every run [default: yes]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.no_realtime = !yes_no(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--random-seed",
        env: "BENCHGRIND_RANDOM_SEED",
        takes: Takes::Value,
        value: "=N",
        help: "the seed of that stream [default: 0]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            let seed = g
                .value
                .parse::<u64>()
                .map_err(|_| g.invalid(&format!("use a whole number from 0 to {}", u64::MAX)))?;
            cli.random_seed = Some(seed);
            Ok(())
        },
    },
    Flag {
        name: "--jobs",
        env: "BENCHGRIND_JOBS",
        takes: Takes::Value,
        value: "=N",
        help: "run N benchmarks at once [default: the available cores]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| match g.value.parse::<usize>() {
            Ok(n) if n > 0 => {
                cli.jobs = Some(n);
                Ok(())
            }
            _ => Err(g.invalid("use a whole number of at least 1")),
        },
    },
    Flag {
        name: "--separate-threads",
        env: "BENCHGRIND_SEPARATE_THREADS",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "show each thread's and process's counts besides their total; overrides the \
               config's `separate_threads` [default: no]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.separate_threads = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--timeout",
        env: "BENCHGRIND_TIMEOUT",
        takes: Takes::Value,
        value: "=DURATION",
        help: "kill a benchmark run that takes longer and report it failed: seconds or with a \
               unit (600, 2.5, 10s, 5m); overrides the config's `timeout` [default: no limit]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.timeout = Some(limit(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--stall-limit",
        env: "BENCHGRIND_STALL_LIMIT",
        takes: Takes::Value,
        value: "=DURATION",
        help: "kill a benchmark run whose processes were all asleep (neither running nor \
               waiting for a processor) for this long (a process waiting on something that never \
               comes) and report it failed: seconds or with a unit (600, 2.5, 10s, 5m) \
               [default: 120]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.stall_limit = Some(limit(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--isolation",
        env: "BENCHGRIND_ISOLATION",
        takes: Takes::Value,
        value: "=fork|process",
        help: "fork: one Valgrind process per class of benchmarks, forking a child per benchmark \
               (fast); process: one per benchmark [default: fork]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.isolation = match g.lowercase().as_str() {
                "fork" => Isolation::Fork,
                "process" => Isolation::Process,
                _ => return Err(g.invalid("use fork or process")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--fresh",
        env: "BENCHGRIND_FRESH",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "measure every benchmark, also those whose recorded inputs are all unchanged \
               (which are otherwise reported as they were, marked reused)",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            if yes_no(g)? {
                cli.reuse = Reuse::Fresh;
            } else if cli.reuse == Reuse::Fresh {
                cli.reuse = Reuse::Reuse;
            }
            Ok(())
        },
    },
    Flag {
        name: "--verify-reuse",
        env: "BENCHGRIND_VERIFY_REUSE",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "measure the benchmarks that would be reused and fail any whose counts differ \
               from the reused ones, naming what its record of inputs missed",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            if yes_no(g)? {
                cli.reuse = Reuse::Verify;
            } else if cli.reuse == Reuse::Verify {
                cli.reuse = Reuse::Reuse;
            }
            Ok(())
        },
    },
    Flag {
        name: "--partition",
        env: "BENCHGRIND_PARTITION",
        takes: Takes::Value,
        value: "=K/N",
        help: "run only the K-th of N shares of the benchmarks (split by id, the same on every \
               machine), e.g. in CI matrix jobs",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            let parsed = g.value.split_once('/').and_then(|(k, n)| {
                Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?))
            });
            match parsed {
                Some((k, n)) if n >= 1 && (1..=n).contains(&k) => {
                    cli.partition = Some((k, n));
                    Ok(())
                }
                _ => Err(g.invalid("write K/N with 1 <= K <= N, e.g. 1/2")),
            }
        },
    },
    Flag {
        name: "--test-mode",
        env: "BENCHGRIND_TEST_MODE",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "run every benchmark once natively, without Valgrind; the default under \
               `cargo test --benches`",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.test_mode = yes_no(g)?;
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
        category: Category::Run,
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
        category: Category::Run,
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
        category: Category::Run,
        set: |cli, g| {
            cli.allow_aslr = yes_no(g)?;
            Ok(())
        },
    },
];
