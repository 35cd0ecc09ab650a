//! gungraun 0.20's perf tool as a configuration value: [`Perf`] in `tool(...)` of a library or
//! binary benchmark config, merged over the levels like the other tool values; what it runs is
//! [`crate::perf`]'s. Its text forms live beside it: the event names ([`events`]) and the
//! patterns over metric names ([`pattern`]); [`run`] is the value the plan folds from the levels
//! and the command line, the one the harness's perf step reads.

pub mod events;
pub mod pattern;
pub mod run;

use std::time::Duration;

use super::Limit;

/// How a perf measurement is taken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PerfRunMode {
    /// The empty window is measured for one second first; its mean is taken off every metric
    /// (the cost of the counters' own switching, which matters for bodies of microseconds).
    DefaultCalibrate,
    /// As [`PerfRunMode::DefaultCalibrate`], measuring the empty window this long.
    Calibrate(Duration),
    /// The samples as counted (the default).
    #[default]
    Direct,
}

impl PerfRunMode {
    /// How long the empty window is measured (zero: not).
    pub fn calibration(self) -> Duration {
        match self {
            PerfRunMode::DefaultCalibrate => Duration::from_secs(1),
            PerfRunMode::Calibrate(d) => d,
            PerfRunMode::Direct => Duration::ZERO,
        }
    }
}

/// A perf metric's name (`task-clock`, `instructions:u`), as limits and summaries name it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PerfMetric(pub String);

impl PerfMetric {
    /// The name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PerfMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for PerfMetric {
    fn from(value: String) -> Self {
        PerfMetric(value)
    }
}

impl From<&str> for PerfMetric {
    fn from(value: &str) -> Self {
        PerfMetric(value.to_owned())
    }
}

/// The unit of a hard limit on a perf metric (`Some(Unit::Milliseconds)` with
/// `Limit::Float(2.5)`: 2.5 ms). Times apply to `task-clock` and `cpu-clock`; counts take none.
#[derive(Debug, Clone, PartialEq)]
pub enum Unit {
    /// ns.
    Nanoseconds,
    /// µs.
    Microseconds,
    /// ms.
    Milliseconds,
    /// s.
    Seconds,
    /// Hz.
    Hertz,
    /// kHz.
    Kilohertz,
    /// MHz.
    Megahertz,
    /// GHz.
    Gigahertz,
    /// B.
    Bytes,
    /// kB.
    Kilobytes,
    /// MB.
    Megabytes,
    /// GB.
    Gigabytes,
    /// KiB.
    Kibibytes,
    /// MiB.
    Mebibytes,
    /// GiB.
    Gibibytes,
    /// %.
    Percent,
    /// J.
    Joules,
    /// W.
    Watts,
    /// V.
    Volts,
    /// A.
    Amperes,
    /// rpm.
    RevolutionsPerMinute,
    /// °C.
    Celsius,
    /// Capacity.
    Capacity,
    /// Cycles.
    Cycles,
    /// A rate, one unit per another.
    Rate(Box<Unit>, Box<Unit>),
    /// Any other.
    Unknown(String),
}

impl Unit {
    /// The unit of a name (`ms`, `msec`, `s`, `B`, `GHz`, `B/s`); unknown names are kept.
    pub fn parse(unit: &str) -> Unit {
        let unit = unit.trim();
        if let Some((a, b)) = unit.split_once('/') {
            return Unit::Rate(Box::new(Unit::parse(a)), Box::new(Unit::parse(b)));
        }
        let lower = unit.to_ascii_lowercase();
        match lower.as_str() {
            "ns" | "nsec" => Unit::Nanoseconds,
            "us" | "usec" | "µs" => Unit::Microseconds,
            "ms" | "msec" => Unit::Milliseconds,
            "s" | "sec" | "secs" | "second" | "seconds" => Unit::Seconds,
            "hz" => Unit::Hertz,
            "khz" => Unit::Kilohertz,
            "mhz" => Unit::Megahertz,
            "ghz" => Unit::Gigahertz,
            "b" => Unit::Bytes,
            "kb" => Unit::Kilobytes,
            "mb" => Unit::Megabytes,
            "gb" => Unit::Gigabytes,
            "kib" => Unit::Kibibytes,
            "mib" => Unit::Mebibytes,
            "gib" => Unit::Gibibytes,
            "%" => Unit::Percent,
            "j" => Unit::Joules,
            "w" => Unit::Watts,
            "v" => Unit::Volts,
            "a" => Unit::Amperes,
            "rpm" => Unit::RevolutionsPerMinute,
            "c" => Unit::Celsius,
            "cycles" => Unit::Cycles,
            _ => Unit::Unknown(unit.to_owned()),
        }
    }

    /// How many nanoseconds one of it is, for a time.
    pub fn nanos(&self) -> Option<f64> {
        match self {
            Unit::Nanoseconds => Some(1.0),
            Unit::Microseconds => Some(1e3),
            Unit::Milliseconds => Some(1e6),
            Unit::Seconds => Some(1e9),
            _ => None,
        }
    }
}

/// gungraun 0.20's perf tool: Linux's hardware and software counters (task-clock, and cycles,
/// instructions, branches where the machine has a PMU) of the benchmark's window, counted
/// natively for a sample duration and compared by a significance test. In `tool(...)` of a
/// [`LibraryBenchmarkConfig`](super::LibraryBenchmarkConfig) or
/// [`BinaryBenchmarkConfig`](super::BinaryBenchmarkConfig), beside Callgrind (which still
/// gives the exact counts).
///
/// ```rust
/// use std::time::Duration;
/// use benchgrind_runner::config::{LibraryBenchmarkConfig, Perf};
///
/// let mut config = LibraryBenchmarkConfig::default();
/// config.tool(
///     Perf::default()
///         .sample_duration(Duration::from_millis(500))
///         .soft_limits([("task-clock*", 10.0)]),
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Perf {
    pub(crate) enable: Option<bool>,
    pub(crate) args: Vec<String>,
    pub(crate) alpha: Option<f64>,
    pub(crate) default_entry: Option<bool>,
    pub(crate) event_sets: Vec<String>,
    pub(crate) fail_fast: Option<bool>,
    pub(crate) non_zero: Option<Vec<String>>,
    pub(crate) min_pcnt_running: Option<f64>,
    pub(crate) soft_limits: Vec<(String, f64)>,
    pub(crate) hard_limits: Vec<(String, Option<Unit>, Limit)>,
    pub(crate) run_mode: Option<PerfRunMode>,
    pub(crate) record: Option<bool>,
    pub(crate) record_args: Vec<String>,
    pub(crate) sample_duration: Option<Duration>,
    pub(crate) margin: Option<f64>,
    pub(crate) fail_inconclusive: Option<bool>,
}

/// The default significance level of the t-test.
pub const DEFAULT_ALPHA: f64 = 0.05;
/// The default sample duration.
pub const DEFAULT_SAMPLE_DURATION: Duration = Duration::from_secs(1);
/// The default margin of perf's verdict, in percent (`--perf-margin`, [`Perf::margin`]): a
/// change whose interval lies inside ±5 % is "unchanged".
pub const DEFAULT_MARGIN_PCT: f64 = 5.0;
/// What separate runs of the same code differ by, in percent of the mean (a standard deviation
/// per run), added to the spread of the rounds when a run is compared with another
/// (`--perf-noise`). Measured on this project's virtual machine (`scripts/perf_noise.py`): in
/// two series of 45 pairs of runs of the same code (five benchmarks, ten runs each) task-clock
/// moved by up to 6.3 % and 2.3 %; over the rounds alone 8 and 9 of the 45 were significant at
/// 0.05, with 1 % added 4 and 0, with 1.5 % none.
pub const DEFAULT_NOISE_PCT: f64 = 1.5;
/// The metrics whose zero drops a sample, by default.
pub const DEFAULT_NON_ZERO: [&str; 3] = ["task-clock*", "cpu-clock*", "*instructions*"];

impl Perf {
    /// A perf tool with `perf stat` arguments: `--all-user` (`-u`) counts user space only,
    /// `--event`/`-e SET` adds an event set; others are reported as not applicable.
    pub fn with_args<I, T>(args: T) -> Perf
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        let mut perf = Perf::default();
        perf.args(args);
        perf
    }

    /// Adds `perf stat` arguments (see [`Perf::with_args`]).
    pub fn args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// The significance level below which a change's p-value makes it significant (0.05).
    pub fn alpha(&mut self, value: f64) -> &mut Self {
        self.alpha = Some(value);
        self
    }

    /// `true`: the counters run only between `perf_enable!` and `perf_disable!` in the body,
    /// not over the whole benchmark function.
    pub fn disable_entry_point(&mut self, yes: bool) -> &mut Self {
        self.default_entry = Some(!yes);
        self
    }

    /// Whether perf runs (default: yes, once configured).
    pub fn enable(&mut self, value: bool) -> &mut Self {
        self.enable = Some(value);
        self
    }

    /// Adds an event set (`"cycles,instructions"`, `"{instructions,cycles}"`,
    /// `"task-clock"`); each set is sampled in a run of its own.
    pub fn event_set<T: AsRef<str>>(&mut self, events: T) -> &mut Self {
        self.event_sets.push(events.as_ref().to_owned());
        self
    }

    /// Adds several event sets.
    pub fn event_sets<I, T>(&mut self, events: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.event_sets
            .extend(events.into_iter().map(|e| e.as_ref().to_owned()));
        self
    }

    /// Whether a perf limit passed stops the run at once.
    pub fn fail_fast(&mut self, value: bool) -> &mut Self {
        self.fail_fast = Some(value);
        self
    }

    /// Patterns of metrics that must not be zero: a sample where one is, is dropped (default
    /// `task-clock*`, `cpu-clock*`, `*instructions*`).
    pub fn non_zero_metrics<I, T>(&mut self, values: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.non_zero = Some(values.into_iter().map(|v| v.as_ref().to_owned()).collect());
        self
    }

    /// Samples in which a counter ran less than this percentage of its time (multiplexed) are
    /// dropped (default 100).
    pub fn min_pcnt_running(&mut self, percent: f64) -> &mut Self {
        self.min_pcnt_running = Some(percent);
        self
    }

    /// Soft limits in percent per metric pattern (`("task-clock*", 10.0)`): a change beyond
    /// one fails the benchmark when the t-test finds it significant; a negative limit fails
    /// decreases below it.
    pub fn soft_limits<K, T>(&mut self, soft_limits: T) -> &mut Self
    where
        K: Into<String>,
        T: IntoIterator<Item = (K, f64)>,
    {
        self.soft_limits
            .extend(soft_limits.into_iter().map(|(k, l)| (k.into(), l)));
        self
    }

    /// Hard limits on the new mean per metric pattern, with a unit for times
    /// (`("task-clock", Some(Unit::Milliseconds), Limit::Float(2.5))`).
    pub fn hard_limits<K, L, U, T>(&mut self, hard_limits: T) -> &mut Self
    where
        K: Into<String>,
        L: Into<Limit>,
        U: Into<Option<Unit>>,
        T: IntoIterator<Item = (K, U, L)>,
    {
        self.hard_limits.extend(
            hard_limits
                .into_iter()
                .map(|(k, u, l)| (k.into(), u.into(), l.into())),
        );
        self
    }

    /// How the measurement is taken ([`PerfRunMode`]).
    pub fn run_mode(&mut self, run_mode: PerfRunMode) -> &mut Self {
        self.run_mode = Some(run_mode);
        self
    }

    /// Also records a profile with `perf record` (the `perf` program), to read with `perf
    /// report`.
    pub fn record(&mut self, yes: bool) -> &mut Self {
        self.record = Some(yes);
        self
    }

    /// Arguments of `perf record`.
    pub fn record_args<I, T>(&mut self, args: T) -> &mut Self
    where
        I: AsRef<str>,
        T: IntoIterator<Item = I>,
    {
        self.record_args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// How long samples are taken (default 1 s; at least one sample, the first dropped when
    /// more fit).
    pub fn sample_duration(&mut self, duration: Duration) -> &mut Self {
        self.sample_duration = Some(duration);
        self
    }

    /// The margin of perf's verdict in percent (default 5): a change whose confidence interval
    /// lies wholly below -margin is "faster", wholly above +margin "slower", wholly inside
    /// ±margin "unchanged", else "inconclusive" (see [`crate::compare::perf`]).
    pub fn margin(&mut self, percent: f64) -> &mut Self {
        self.margin = Some(percent);
        self
    }

    /// Whether an "inconclusive" verdict fails the benchmark like a limit passed (default no).
    pub fn fail_inconclusive(&mut self, yes: bool) -> &mut Self {
        self.fail_inconclusive = Some(yes);
        self
    }

    /// `other`, a more specific level's, over this one: its settings win, lists add up.
    pub(crate) fn merge(&mut self, other: &Perf) {
        macro_rules! over {
            ($($f:ident),*) => {$(if other.$f.is_some() { self.$f.clone_from(&other.$f); })*};
        }
        over!(
            enable,
            alpha,
            default_entry,
            fail_fast,
            non_zero,
            min_pcnt_running,
            run_mode,
            record,
            sample_duration,
            margin,
            fail_inconclusive
        );
        self.args.extend(other.args.iter().cloned());
        self.event_sets.extend(other.event_sets.iter().cloned());
        self.soft_limits.extend(other.soft_limits.iter().cloned());
        self.hard_limits.extend(other.hard_limits.iter().cloned());
        self.record_args.extend(other.record_args.iter().cloned());
    }

    /// Whether it runs.
    pub fn enabled(&self) -> bool {
        self.enable.unwrap_or(true)
    }
}
