//! `benchgrind compare` arguments, second stage: the mode, what each input is, the filters, the
//! limits and the output, all resolved and checked before any binary runs.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Result;
use benchgrind_runner::config::EventKind;
use regex::Regex;

use super::args::RawArgs;
use super::diff::Options;
use super::filter;
use super::input::source::{self, Source};
use super::report::{Format, Style};
use super::threshold::Limits;
use crate::usage::UsageError;

/// One side of the comparison.
#[derive(Debug)]
pub struct SideSpec {
    /// Where its results come from.
    pub source: Source,
    /// Its filter, in the filtered modes.
    pub filter: Option<Filter>,
}

/// A side's `--benchmark_filter` regex.
#[derive(Debug)]
pub struct Filter {
    /// As typed (passed to binaries as is).
    pub text: String,
    /// Compiled, to filter and rename results.
    pub regex: Regex,
}

/// Everything the comparison needs, resolved.
#[derive(Debug)]
pub struct Resolved {
    /// The old side.
    pub old: SideSpec,
    /// The new side.
    pub new: SideSpec,
    /// In the filtered modes, what replaces each side's match.
    pub marker: Option<String>,
    /// The output format.
    pub format: Format,
    /// Colors and repetition rows.
    pub style: Style,
    /// `--fail-above`.
    pub limits: Limits,
    /// U test settings.
    pub options: Options,
    /// `--keep-results`.
    pub keep_results: Option<PathBuf>,
    /// Options for the binaries.
    pub passthrough: Vec<OsString>,
    /// `--metric`: Google Benchmark binaries are measured under Callgrind.
    pub metric: Option<EventKind>,
}

/// A usage mistake found while resolving the command line.
fn usage(msg: impl Into<String>) -> anyhow::Error {
    UsageError::new(msg).into()
}

impl Resolved {
    /// Resolves raw arguments; inputs are looked at (not run).
    pub fn resolve(raw: &RawArgs) -> Result<Resolved> {
        let format = match raw.format.as_deref() {
            None => Format::Terminal,
            Some(f) => Format::parse(f).ok_or_else(|| {
                usage(format!(
                    "`--format {f}`: expected terminal, json, markdown or csv"
                ))
            })?,
        };
        let mut limits = Limits::default();
        for spec in &raw.fail_above {
            limits.add(spec).map_err(|e| usage(e.to_string()))?;
        }
        let alpha = match raw.alpha.as_deref() {
            None => 0.05,
            Some(a) => a
                .parse::<f64>()
                .ok()
                .filter(|a| *a > 0.0 && *a < 1.0)
                .ok_or_else(|| {
                    usage(format!("`--alpha {a}`: expected a number between 0 and 1"))
                })?,
        };
        let color = color_wanted(raw.color.as_deref())?;
        let home = raw.home.clone().unwrap_or_else(default_home);
        let (old, new, marker) = sides(&raw.positional, &home)?;
        let any_binary = [&old, &new].iter().any(|s| s.source.is_binary());
        let any_baseline = [&old, &new]
            .iter()
            .any(|s| matches!(s.source, Source::Baseline { .. }));
        if !any_baseline && raw.home.is_some() {
            return Err(usage(
                "`--home` says where baselines are, but neither side is a baseline name",
            ));
        }
        if !any_binary && !raw.passthrough.is_empty() {
            return Err(usage(
                "options after `--` are for binaries, but neither side is a binary",
            ));
        }
        let metric = gbench_metric(raw, [&old, &new])?;
        if !any_binary && raw.keep_results.is_some() {
            return Err(usage(
                "`--keep-results` keeps what binaries write, but neither side is a binary",
            ));
        }
        Ok(Resolved {
            old,
            new,
            marker,
            format,
            style: Style {
                color: color && format == Format::Terminal,
                repetitions: !raw.aggregates_only,
            },
            limits,
            options: Options {
                alpha,
                utest: !raw.no_utest,
            },
            keep_results: raw.keep_results.clone(),
            passthrough: raw.passthrough.clone(),
            metric,
        })
    }
}

/// `--metric`, which applies to Google Benchmark binaries, whose benchmarks it runs itself.
fn gbench_metric(raw: &RawArgs, sides: [&SideSpec; 2]) -> Result<Option<EventKind>> {
    let Some(value) = &raw.metric else {
        return Ok(None);
    };
    let metric = crate::compare::gbench::args::parse_metric(value).map_err(usage)?;
    if !sides
        .iter()
        .any(|s| matches!(s.source, Source::GbenchBinary(_)))
    {
        return Err(usage(format!(
            "`--metric {value}` measures Google Benchmark binaries under Callgrind, but neither \
             side is one"
        )));
    }
    if !raw.passthrough.is_empty() {
        return Err(usage(format!(
            "with `--metric {value}` benchgrind sets the binaries' options itself (filter, \
             iterations, output), so none may follow `--`; select benchmarks with `compare \
             filters` or `benchmarksfiltered`"
        )));
    }
    Ok(Some(metric))
}

/// The two sides and, in the filtered modes, the marker, from the positional arguments.
fn sides(positional: &[OsString], home: &Path) -> Result<(SideSpec, SideSpec, Option<String>)> {
    let word = positional.first().and_then(|w| w.to_str());
    let (inputs, filters): (Vec<&OsString>, Vec<&OsString>) = match (word, positional.len()) {
        (Some("benchmarks"), 3) => (vec![&positional[1], &positional[2]], vec![]),
        (Some("filters"), 4) => (vec![&positional[1]], vec![&positional[2], &positional[3]]),
        (Some("benchmarksfiltered"), 5) => (
            vec![&positional[1], &positional[3]],
            vec![&positional[2], &positional[4]],
        ),
        (Some(w @ ("benchmarks" | "filters" | "benchmarksfiltered")), n) => {
            let want = match w {
                "benchmarks" => "OLD NEW",
                "filters" => "INPUT FILTER_OLD FILTER_NEW",
                _ => "OLD FILTER_OLD NEW FILTER_NEW",
            };
            return Err(usage(format!(
                "`compare {w}` takes {want} ({} given)",
                n - 1
            )));
        }
        (_, 2) => (vec![&positional[0], &positional[1]], vec![]),
        (_, n) => {
            return Err(usage(format!(
            "expected OLD and NEW (or a mode: benchmarks, filters, benchmarksfiltered), got {n} \
                 argument{}",
            if n == 1 { "" } else { "s" }
        )))
        }
    };
    let sources = inputs
        .iter()
        .map(|p| source::detect(&PathBuf::from(p), home))
        .collect::<Result<Vec<_>>>()?;
    let filters = filters
        .iter()
        .map(|f| {
            let text = f
                .to_str()
                .ok_or_else(|| usage("a filter is not valid UTF-8"))?
                .to_string();
            let regex = Regex::new(&text)
                .map_err(|e| usage(format!("filter `{text}` is not a valid regex: {e}")))?;
            Ok(Filter { text, regex })
        })
        .collect::<Result<Vec<_>>>()?;
    let marker = (filters.len() == 2).then(|| filter::marker(&filters[0].text, &filters[1].text));
    let mut filters = filters.into_iter();
    let old_source = sources[0].clone();
    let new_source = sources
        .last()
        .cloned()
        .unwrap_or_else(|| old_source.clone());
    let old = SideSpec {
        source: old_source,
        filter: filters.next(),
    };
    let new = SideSpec {
        source: new_source,
        filter: filters.next(),
    };
    Ok((old, new, marker))
}

/// The benchgrind home where baselines are looked up without `--home`: as the bench binaries
/// choose theirs, `BENCHGRIND_HOME`, then `$CARGO_TARGET_DIR/benchgrind`, then
/// `target/benchgrind` (relative paths from the current directory).
pub(crate) fn default_home() -> PathBuf {
    let env = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    match (env("BENCHGRIND_HOME"), env("CARGO_TARGET_DIR")) {
        (Some(home), _) => PathBuf::from(home),
        (None, Some(target)) => PathBuf::from(target).join("benchgrind"),
        (None, None) => PathBuf::from("target").join("benchgrind"),
    }
}

/// `--color`, then `BENCHGRIND_COLOR`, then `CARGO_TERM_COLOR`; `auto` means stdout is a terminal
/// and `NO_COLOR` is unset.
fn color_wanted(flag: Option<&str>) -> Result<bool> {
    let env = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    let (value, origin) = match flag {
        Some(v) => (v.to_string(), "--color"),
        None => match env("BENCHGRIND_COLOR") {
            Some(v) => (v, "BENCHGRIND_COLOR"),
            None => match env("CARGO_TERM_COLOR") {
                Some(v) => (v, "CARGO_TERM_COLOR"),
                None => ("auto".to_string(), ""),
            },
        },
    };
    match value.as_str() {
        "always" => Ok(true),
        "never" => Ok(false),
        "auto" => Ok(std::io::stdout().is_terminal() && env("NO_COLOR").is_none()),
        other => Err(usage(format!(
            "{origin} `{other}`: expected auto, always or never"
        ))),
    }
}
