//! Flag values shared by the `suite` commands: filters, statistics, units, durations, and the
//! suite directory with engine filters of `build` and `clean`.
//!
//! Every command (`suite/cmd/`) lexes its own flags with `lexopt` and uses these types for the
//! values, so `-f`, `-s` or `--max-time` mean the same thing everywhere. Bad values are usage
//! errors (exit code 2).

use benchgrind_runner::error::Problem;
use std::{path::PathBuf, str::FromStr, time::Duration};

use crate::usage::{self, Opt, UsageError};

/// A duration flag value, as every benchgrind flag takes one ([`benchgrind_runner::duration`]):
/// rebar's `<decimal>(s|ms|us|ns)` (`3s`, `500ms`), and also seconds alone, minutes and hours.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HumanDuration(pub Duration);

impl FromStr for HumanDuration {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        benchgrind_runner::duration::parse(s).map(HumanDuration)
    }
}

/// An include/exclude filter over names, with rebar's rules: if any include pattern exists, a
/// name must match one; the last matching pattern decides.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Each pattern and whether it excludes, in the order given.
    rules: Vec<(regex::Regex, bool)>,
}

impl Filter {
    /// Adds a pattern; `exclude` makes it a `-F`/`-E`/`-M` rule.
    pub fn add(&mut self, flag: &str, pattern: &str, exclude: bool) -> Result<(), UsageError> {
        let re = regex::Regex::new(pattern)
            .map_err(|e| UsageError::new(format!("{flag}: invalid regex '{pattern}': {e}")))?;
        self.rules.push((re, exclude));
        Ok(())
    }

    /// Whether `subject` passes the filter.
    pub fn include(&self, subject: &str) -> bool {
        let mut include = self.rules.iter().all(|(_, exclude)| *exclude);
        for (re, exclude) in &self.rules {
            if re.is_match(subject) {
                include = !exclude;
            }
        }
        include
    }
}

/// The three filters every command accepts: benchmark name, model and engine.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// `-f/--filter`, `-F/--filter-not`: on the full benchmark name `group/name`.
    pub name: Filter,
    /// `-m/--model`, `-M/--model-not`.
    pub model: Filter,
    /// `-e/--engine`, `-E/--engine-not`.
    pub engine: Filter,
    /// `-i/--ignore-missing-engines` (`measure` and `list`): leave out, silently, the engines
    /// whose version cannot be had (not built, say) instead of making their jobs errors.
    pub ignore_missing_engines: bool,
}

impl Filters {
    /// Which filter flag `arg` is, if any: (filter index, flag name, exclude).
    pub fn kind(arg: &lexopt::Arg<'_>) -> Option<(usize, &'static str, bool)> {
        use lexopt::Arg::{Long, Short};
        Some(match arg {
            Short('f') | Long("filter") => (0, "-f/--filter", false),
            Short('F') | Long("filter-not") => (0, "-F/--filter-not", true),
            Short('m') | Long("model") => (1, "-m/--model", false),
            Short('M') | Long("model-not") => (1, "-M/--model-not", true),
            Short('e') | Long("engine") => (2, "-e/--engine", false),
            Short('E') | Long("engine-not") => (2, "-E/--engine-not", true),
            _ => return None,
        })
    }

    /// Reads the value of a filter flag found by [`Filters::kind`] and adds it.
    pub fn take(
        &mut self,
        kind: (usize, &'static str, bool),
        p: &mut lexopt::Parser,
    ) -> Result<(), UsageError> {
        let (which, flag, exclude) = kind;
        let pattern = usage::string(p, flag)?;
        let filter = match which {
            0 => &mut self.name,
            1 => &mut self.model,
            _ => &mut self.engine,
        };
        filter.add(flag, &pattern, exclude)
    }

    /// Whether a benchmark is selected, as rebar selects the benchmarks it loads: its name and
    /// model pass, and one of its engines does (or it lists none, which is then reported).
    pub fn select(&self, name: &str, model: &str, engines: &[&str]) -> bool {
        self.name.include(name)
            && self.model.include(model)
            && (engines.is_empty() || engines.iter().any(|e| self.engine.include(e)))
    }

    /// Whether a (benchmark, model, engine) triple passes all three filters.
    pub fn include(&self, name: &str, model: &str, engine: &str) -> bool {
        self.name.include(name) && self.model.include(model) && self.engine.include(engine)
    }
}

/// The help lines of the filter flags, shared by the commands' help pages.
pub const FILTER_OPTS: &[Opt] = &[
    Opt::new(
        "-f, --filter <regex>",
        "include benchmarks whose full name matches (repeatable)",
    ),
    Opt::new(
        "-F, --filter-not <regex>",
        "exclude benchmarks whose full name matches",
    ),
    Opt::new("-e, --engine <regex>", "include engines whose name matches"),
    Opt::new(
        "-E, --engine-not <regex>",
        "exclude engines whose name matches",
    ),
    Opt::new("-m, --model <regex>", "include models that match"),
    Opt::new("-M, --model-not <regex>", "exclude models that match"),
];

/// The help line of `-d/--dir`.
pub const DIR_OPT: Opt = Opt::new(
    "-d, --dir <dir>",
    "the suite directory (default: ./benchmarks)",
);

/// The help line of `-h/--help`, last on every page.
pub const HELP_OPT: Opt = Opt::new("-h, --help", "print this help");

/// The aggregate statistic a comparison is made on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stat {
    /// The median sample (default).
    #[default]
    Median,
    /// The median absolute deviation.
    Mad,
    /// The arithmetic mean.
    Mean,
    /// The standard deviation.
    Stddev,
    /// The smallest sample.
    Min,
    /// The largest sample.
    Max,
}

impl FromStr for Stat {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        Ok(match s {
            "median" => Stat::Median,
            "mad" => Stat::Mad,
            "mean" => Stat::Mean,
            "stddev" => Stat::Stddev,
            "min" => Stat::Min,
            "max" => Stat::Max,
            _ => {
                return Err(Problem::new(
                    "expected one of median, mad, mean, stddev, min, max",
                ))
            }
        })
    }
}

/// `--color`: whether the best value of each row is shown in bold green, as rebar shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Color {
    /// When stdout is a terminal (default).
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Whether to colour what goes to stdout.
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            Color::Auto => std::io::stdout().is_terminal(),
            Color::Always => true,
            Color::Never => false,
        }
    }
}

impl FromStr for Color {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        match s {
            "auto" => Ok(Color::Auto),
            "always" => Ok(Color::Always),
            "never" => Ok(Color::Never),
            _ => Err(Problem::new("expected one of auto, always, never")),
        }
    }
}

/// The help line of `--color`.
pub const COLOR_OPT: Opt = Opt::new(
    "--color <when>",
    "auto (default: when stdout is a terminal), always or never:\nthe best value of each row in bold green",
);

/// How values are shown: as throughput (when the haystack length is known) or as time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Units {
    /// Bytes per second, rebar's default; falls back to time without a haystack length.
    #[default]
    Throughput,
    /// The statistic itself (a duration, or an instruction count).
    Time,
}

impl FromStr for Units {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        match s {
            "throughput" => Ok(Units::Throughput),
            "time" => Ok(Units::Time),
            _ => Err(Problem::new("expected one of throughput, time")),
        }
    }
}

/// A ratio given to `-t`, `-T` or `--fail-above`: a positive decimal number.
pub fn ratio(p: &mut lexopt::Parser, flag: &str) -> Result<f64, UsageError> {
    let r: f64 = usage::parse(p, flag)?;
    if !(r.is_finite() && r > 0.0) {
        return Err(UsageError::new(format!(
            "{flag}: the ratio must be a positive number, got {r}"
        )));
    }
    Ok(r)
}

/// The help lines of the flags of `build` and `clean`.
pub const ENGINE_STEP_OPTS: &[Opt] = &[
    DIR_OPT,
    Opt::new(
        "-e, --engine <regex>",
        "only engines whose name matches (repeatable)",
    ),
    Opt::new(
        "-E, --engine-not <regex>",
        "skip engines whose name matches",
    ),
    HELP_OPT,
];

/// The flags of `build` and `clean`: `-d/--dir` and the engine filters; `help` is the
/// command's usage, for `-h/--help`.
pub fn dir_and_engines(
    p: &mut lexopt::Parser,
    help: &'static str,
) -> Result<(PathBuf, Filter), UsageError> {
    use lexopt::Arg::{Long, Short};
    let mut dir = PathBuf::from("benchmarks");
    let mut filter = Filter::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('h') | Long("help") => return Err(UsageError::Help(help)),
            Short('d') | Long("dir") => dir = PathBuf::from(usage::string(p, "-d/--dir")?),
            Short('e') | Long("engine") => {
                filter.add("-e/--engine", &usage::string(p, "-e/--engine")?, false)?
            }
            Short('E') | Long("engine-not") => filter.add(
                "-E/--engine-not",
                &usage::string(p, "-E/--engine-not")?,
                true,
            )?,
            other => return Err(other.unexpected().into()),
        }
    }
    Ok((dir, filter))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        for (s, ns) in [
            ("3s", 3_000_000_000u64),
            ("1.5ms", 1_500_000),
            ("10us", 10_000),
            ("7ns", 7),
            ("0s", 0),
            ("3", 3_000_000_000),
            ("2m", 120_000_000_000),
        ] {
            assert_eq!(
                s.parse::<HumanDuration>().unwrap().0,
                Duration::from_nanos(ns),
                "{s}"
            );
        }
        for bad in ["s", "3 weeks", "-1s", "1.2.3s"] {
            assert!(bad.parse::<HumanDuration>().is_err(), "{bad}");
        }
    }

    #[test]
    fn filter_last_match_wins() {
        let mut f = Filter::default();
        assert!(f.include("anything"));
        f.add("-f", "curated", false).unwrap();
        f.add("-F", "ruff", true).unwrap();
        assert!(f.include("curated/01-literal"));
        assert!(!f.include("curated/04-ruff"));
        assert!(!f.include("other/x"));
        let mut only_not = Filter::default();
        only_not.add("-F", "^a", true).unwrap();
        assert!(only_not.include("b"));
        assert!(!only_not.include("abc"));
    }
}
