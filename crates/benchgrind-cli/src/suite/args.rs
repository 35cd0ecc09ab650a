//! Flag values shared by the `suite` subcommands: filters, statistics, units, durations.
//!
//! Every subcommand lexes its own flags with `lexopt` and uses these types for the values, so
//! `-f`, `-s` or `--max-time` mean the same thing everywhere. Bad values are usage errors (exit 2).

use std::{fmt, str::FromStr, time::Duration};

use lexopt::ValueExt;

/// A usage error: a bad flag or value. `suite::run` maps it to exit code 2 and prints the hint.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Builds a usage error (exit code 2) from a message.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}

/// Turns a lexopt error (unknown flag, missing value) into a usage error.
pub fn lex_err(err: lexopt::Error) -> anyhow::Error {
    usage(err.to_string())
}

/// Reads the value of `flag` as a UTF-8 string.
pub fn string(p: &mut lexopt::Parser, flag: &str) -> anyhow::Result<String> {
    let v = p.value().map_err(lex_err)?;
    v.string()
        .map_err(|_| usage(format!("{flag}: the value is not valid UTF-8")))
}

/// Reads the value of `flag` and parses it; a bad value is a usage error naming the flag.
pub fn parse<T>(p: &mut lexopt::Parser, flag: &str) -> anyhow::Result<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let s = string(p, flag)?;
    s.parse::<T>()
        .map_err(|e| usage(format!("{flag}: invalid value '{s}': {e}")))
}

/// A duration flag value: `<decimal>(s|ms|us|ns)`, as rebar accepts it (e.g. `3s`, `500ms`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HumanDuration(pub Duration);

impl FromStr for HumanDuration {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let split = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| "missing unit; expected <decimal>(s|ms|us|ns), e.g. 3s".to_string())?;
        let (num, unit) = s.split_at(split);
        let value: f64 = num
            .parse()
            .map_err(|_| format!("'{num}' is not a decimal number"))?;
        let scale = match unit {
            "s" => 1e9,
            "ms" => 1e6,
            "us" => 1e3,
            "ns" => 1.0,
            _ => return Err(format!("unknown unit '{unit}'; use s, ms, us or ns")),
        };
        Ok(HumanDuration(Duration::from_nanos(
            (value * scale).round() as u64
        )))
    }
}

/// An include/exclude filter over names, with rebar's rules: if any include pattern exists, a
/// name must match one; the last matching pattern decides.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    rules: Vec<(regex::Regex, bool)>,
}

impl Filter {
    /// Adds a pattern; `exclude` makes it a `-F`/`-E`/`-M` rule.
    pub fn add(&mut self, flag: &str, pattern: &str, exclude: bool) -> anyhow::Result<()> {
        let re = regex::Regex::new(pattern)
            .map_err(|e| usage(format!("{flag}: invalid regex '{pattern}': {e}")))?;
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
    ) -> anyhow::Result<()> {
        let (which, flag, exclude) = kind;
        let pattern = string(p, flag)?;
        let filter = match which {
            0 => &mut self.name,
            1 => &mut self.model,
            _ => &mut self.engine,
        };
        filter.add(flag, &pattern, exclude)
    }

    /// Whether a (benchmark, model, engine) triple passes all three filters.
    pub fn include(&self, name: &str, model: &str, engine: &str) -> bool {
        self.name.include(name) && self.model.include(model) && self.engine.include(engine)
    }
}

/// The usage lines of the filter flags, shared by every command's help.
pub const FILTER_USAGE: &str = "\
    -f, --filter <regex>        include benchmarks whose full name matches (repeatable)
    -F, --filter-not <regex>    exclude benchmarks whose full name matches
    -e, --engine <regex>        include engines whose name matches
    -E, --engine-not <regex>    exclude engines whose name matches
    -m, --model <regex>         include models that match
    -M, --model-not <regex>     exclude models that match";

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
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "median" => Stat::Median,
            "mad" => Stat::Mad,
            "mean" => Stat::Mean,
            "stddev" => Stat::Stddev,
            "min" => Stat::Min,
            "max" => Stat::Max,
            _ => return Err("expected one of median, mad, mean, stddev, min, max".into()),
        })
    }
}

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
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "throughput" => Ok(Units::Throughput),
            "time" => Ok(Units::Time),
            _ => Err("expected one of throughput, time".into()),
        }
    }
}

/// A ratio given to `-t`, `-T` or `--fail-above`: a positive decimal number.
pub fn ratio(p: &mut lexopt::Parser, flag: &str) -> anyhow::Result<f64> {
    let r: f64 = parse(p, flag)?;
    if !(r.is_finite() && r > 0.0) {
        return Err(usage(format!(
            "{flag}: the ratio must be a positive number, got {r}"
        )));
    }
    Ok(r)
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
        ] {
            assert_eq!(
                s.parse::<HumanDuration>().unwrap().0,
                Duration::from_nanos(ns),
                "{s}"
            );
        }
        for bad in ["3", "s", "3m", "-1s", "1.2.3s"] {
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
