//! The flags of Linux perf ([`crate::perf`]), gungraun 0.20's names: `--perf`, `--perf-events`,
//! `--perf-limits`, `--perf-sampling`, `--perf-run-mode`, `--perf-args`; and `--perf-noise`,
//! `--perf-margin`, `--perf-fail-inconclusive` (the verdict) and `--perf-round` (`ab` in turns).
//! Read into [`crate::config::perf::run::PerfFlags`], folded when a benchmark is planned.

use super::flag::{shell_words, yes_no, Category, Flag, Given, Takes};
use crate::cli::UsageError;
use crate::config::PerfRunMode;

/// A percentage of zero or more (`5`, `2.5`, `5%`), or the error naming the flag with `hint`.
fn percent(g: &Given, hint: &str) -> Result<f64, UsageError> {
    (g.value.trim().trim_end_matches('%').parse::<f64>().ok())
        .filter(|p| p.is_finite() && *p >= 0.0)
        .ok_or_else(|| g.invalid(hint))
}

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--perf",
        env: "BENCHGRIND_PERF",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "sample every benchmark with Linux perf's counters too (yes), or none (no), \
               whatever the code configures",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.on = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--perf-events",
        env: "BENCHGRIND_PERF_EVENTS",
        takes: Takes::Value,
        value: "=SET",
        help: "count this perf event set (cycles,instructions), replacing the code's; \
               repeatable, each set sampled in a run of its own",
        repeats: true,
        category: Category::Tools,
        set: |cli, g| {
            crate::config::perf::events::parse_set(&g.value).map_err(|e| g.invalid(e.message()))?;
            cli.perf.events.push(g.value.clone());
            Ok(())
        },
    },
    Flag {
        name: "--perf-limits",
        env: "BENCHGRIND_PERF_LIMITS",
        takes: Takes::Value,
        value: "=LIMITS",
        help: "limits over perf's metrics, PATTERN=SOFT%|HARD,... (task-clock*=40%|2.5ms): a \
               significant change beyond SOFT or a mean above HARD fails",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.limits =
                crate::config::perf::run::limits(&g.value).map_err(|e| g.invalid(&e))?;
            Ok(())
        },
    },
    Flag {
        name: "--perf-sampling",
        env: "BENCHGRIND_PERF_SAMPLING",
        takes: Takes::Optional("yes"),
        value: "[=yes|no|DURATION]",
        help: "sample perf for DURATION (yes: 2s; no: one sample), replacing sample_duration",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            let value = g.value.trim();
            cli.perf.sampling = Some(match value {
                "yes" | "true" | "on" => std::time::Duration::from_secs(2),
                "no" | "false" | "off" => std::time::Duration::ZERO,
                _ => crate::duration::parse(value)
                    .map_err(|e| g.invalid(&format!("{e}; or yes, no")))?,
            });
            Ok(())
        },
    },
    Flag {
        name: "--perf-run-mode",
        env: "BENCHGRIND_PERF_RUN_MODE",
        takes: Takes::Value,
        value: "=MODE",
        help: "direct, or calibrate[=DURATION]: the empty window measured first (1s) and its \
               mean taken off",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            let value = g.value.trim();
            cli.perf.run_mode = Some(match value.split_once('=') {
                None if value == "direct" => PerfRunMode::Direct,
                None if value == "calibrate" => PerfRunMode::DefaultCalibrate,
                Some(("calibrate", d)) => PerfRunMode::Calibrate(
                    crate::duration::parse(d).map_err(|e| g.invalid(&e.to_string()))?,
                ),
                _ => return Err(g.invalid("write direct, calibrate or calibrate=DURATION")),
            });
            Ok(())
        },
    },
    Flag {
        name: "--perf-noise",
        env: "BENCHGRIND_PERF_NOISE",
        takes: Takes::Value,
        value: "=PERCENT",
        help: "what separate runs of the same code differ by (default 1.5), added to the \
               rounds' spread in perf's significance test; 0: the rounds' alone",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.noise = Some(percent(g, "write a percentage such as 1.5, or 0")?);
            Ok(())
        },
    },
    Flag {
        name: "--perf-margin",
        env: "BENCHGRIND_PERF_MARGIN",
        takes: Takes::Value,
        value: "=PERCENT",
        help: "the margin of perf's verdict (default 5): faster or slower when the change's \
               interval lies wholly past it, unchanged when wholly inside, else inconclusive",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.margin = Some(percent(g, "write a percentage such as 5 or 2.5")?);
            Ok(())
        },
    },
    Flag {
        name: "--perf-fail-inconclusive",
        env: "BENCHGRIND_PERF_FAIL_INCONCLUSIVE",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "an inconclusive perf verdict fails like a slower one (exit status 3)",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.fail_inconclusive = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--perf-round",
        env: "BENCHGRIND_PERF_ROUND",
        takes: Takes::Value,
        value: "=FILE",
        help: "sample one round of perf of every benchmark perf samples, run nothing else, and \
               write the round's means to FILE (what benchgrind ab runs in turns)",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            if g.value.trim().is_empty() {
                return Err(g.invalid("write the file the round's means go to"));
            }
            cli.perf_round = Some(std::path::PathBuf::from(&g.value));
            Ok(())
        },
    },
    Flag {
        name: "--perf-args",
        env: "BENCHGRIND_PERF_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "perf stat's arguments that apply: --all-user (-u), --event (-e) SET",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.perf.args = shell_words(g)?;
            Ok(())
        },
    },
];
