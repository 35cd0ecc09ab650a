//! Tools configured as values, as iai-callgrind 0.15+ and gungraun write them: [`Callgrind`],
//! [`Cachegrind`], [`Dhat`], [`Memcheck`], [`Helgrind`], [`Drd`], [`Massif`] and [`Bbv`], each
//! given to `tool`/`tool_override` of a config (which also take the 0.13 [`Tool`]). Every value
//! becomes a [`ToolSpec`]: Callgrind's settings go where the config keeps Callgrind's (its
//! arguments, entry point, flamegraph, limits, which metrics are shown); another tool's become a
//! [`Tool`] with its settings. A value given at a more specific level is merged into the one of
//! the same tool given at a more general level: its arguments are added, what it sets replaces.
//!
//! ```rust
//! use benchgrind_runner::config::{Callgrind, CallgrindMetrics, Dhat, EventKind};
//! use benchgrind_runner::LibraryBenchmarkConfig;
//!
//! let mut config = LibraryBenchmarkConfig::default();
//! config
//!     .tool(
//!         Callgrind::with_args(["--dump-instr=yes"])
//!             .soft_limits([(EventKind::Ir, 5.0)])
//!             .hard_limits([(CallgrindMetrics::CacheHits, 10_000u64)])
//!             .format([CallgrindMetrics::Default, CallgrindMetrics::CacheMissRates]),
//!     )
//!     .tool(Dhat::default());
//! ```

use super::entry_point::EntryPoint;
use super::flamegraph::FlamegraphConfig;
use super::metric::{AnyMetric, EventKind};
use super::regression::RegressionConfig;
pub use super::tool::SanitizeOutput;
use super::tool::{merge_other, OtherSettings};
use super::tool::{valgrind_args, Tool, ValgrindTool};
use super::tool_metrics::{
    CachegrindMetric, CachegrindMetrics, CallgrindMetrics, DhatMetric, DhatMetrics, ErrorMetric,
    Limit,
};

/// Settings of Callgrind given as a value (see [`Callgrind`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct CallgrindSettings {
    pub args: Vec<String>,
    pub enable: Option<bool>,
    pub entry_point: Option<EntryPoint>,
    pub flamegraph: Option<FlamegraphConfig>,
    pub format: Option<Vec<EventKind>>,
    pub limits: RegressionConfig,
    pub has_limits: bool,
}

/// Callgrind's configuration: its arguments, where it counts, its limits, flamegraphs and which
/// metrics the report shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Callgrind(pub(crate) CallgrindSettings);

/// What every tool value has: arguments and on/off.
macro_rules! common_methods {
    ($ty:ident) => {
        impl $ty {
            /// A configuration with these arguments (with or without the leading `--`).
            pub fn with_args<I, T>(args: T) -> Self
            where
                I: AsRef<str>,
                T: IntoIterator<Item = I>,
            {
                let mut this = Self::default();
                this.args(args);
                this
            }

            /// Adds arguments (with or without the leading `--`) after those given before.
            pub fn args<I, T>(&mut self, args: T) -> &mut Self
            where
                I: AsRef<str>,
                T: IntoIterator<Item = I>,
            {
                self.0.args.extend(valgrind_args(args));
                self
            }

            /// Turns the tool on or off where a more general level set it otherwise.
            pub fn enable(&mut self, value: bool) -> &mut Self {
                self.0.enable = Some(value);
                self
            }
        }

        impl From<&mut $ty> for $ty {
            fn from(value: &mut $ty) -> $ty {
                value.clone()
            }
        }

        impl From<&$ty> for $ty {
            fn from(value: &$ty) -> $ty {
                value.clone()
            }
        }
    };
}

common_methods!(Callgrind);

impl Callgrind {
    /// Where Callgrind counts: the benchmark (the default), or only a function it calls and what
    /// that calls (`EntryPoint::Custom`).
    pub fn entry_point(&mut self, entry_point: EntryPoint) -> &mut Self {
        self.0.entry_point = Some(entry_point);
        self
    }

    /// Limits in percent of the old value (a negative one fails a fall below it); a group sets
    /// every member, a later entry replaces an earlier one of the same metric.
    pub fn soft_limits<K, T>(&mut self, limits: T) -> &mut Self
    where
        K: Into<CallgrindMetrics>,
        T: IntoIterator<Item = (K, f64)>,
    {
        for (key, pct) in limits {
            for event in key.into().expand() {
                self.0.limits.set_soft(AnyMetric::Event(event), pct);
            }
        }
        self.0.has_limits = true;
        self
    }

    /// [`soft_limits`](Self::soft_limits) of iai-callgrind 0.15 (deprecated there since 0.16).
    pub fn limits<T: IntoIterator<Item = (EventKind, f64)>>(&mut self, limits: T) -> &mut Self {
        self.soft_limits(limits)
    }

    /// Caps on the new values, checked even on a first run: whole numbers for counts,
    /// [`Limit::Float`] for rates.
    pub fn hard_limits<K, L, T>(&mut self, limits: T) -> &mut Self
    where
        K: Into<CallgrindMetrics>,
        L: Into<Limit>,
        T: IntoIterator<Item = (K, L)>,
    {
        for (key, limit) in limits {
            let limit = limit.into();
            for event in key.into().expand() {
                self.0.limits.set_hard(AnyMetric::Event(event), limit);
            }
        }
        self.0.has_limits = true;
        self
    }

    /// Whether the run stops at the first benchmark past a limit.
    pub fn fail_fast(&mut self, value: bool) -> &mut Self {
        self.0.limits.fail_fast(value);
        self
    }

    /// Draws flamegraphs of Callgrind's profile.
    pub fn flamegraph<T: Into<FlamegraphConfig>>(&mut self, config: T) -> &mut Self {
        self.0.flamegraph = Some(config.into());
        self
    }

    /// Which metrics the report shows, in this order (metrics Callgrind did not count are
    /// left out); the default is [`CallgrindMetrics::Default`].
    pub fn format<I, T>(&mut self, metrics: T) -> &mut Self
    where
        I: Into<CallgrindMetrics>,
        T: IntoIterator<Item = I>,
    {
        self.0.format = Some(unique(metrics.into_iter().flat_map(|m| m.into().expand())));
        self
    }
}

/// The metrics in order, each once.
fn unique<T: PartialEq>(all: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in all {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

macro_rules! other_tool {
    ($(#[$doc:meta])* $ty:ident, $kind:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $ty(pub(crate) OtherSettings);

        common_methods!($ty);

        impl $ty {
            /// The tool this configures.
            pub(crate) const KIND: ValgrindTool = $kind;
        }
    };
}

other_tool!(
    /// Cachegrind's configuration: the cache and branch simulation without call graph.
    Cachegrind,
    ValgrindTool::Cachegrind
);
other_tool!(
    /// DHAT's configuration: heap use of the benchmark.
    Dhat,
    ValgrindTool::DHAT
);
other_tool!(
    /// Memcheck's configuration: memory errors (an error fails the benchmark unless
    /// `--error-exitcode` is given).
    Memcheck,
    ValgrindTool::Memcheck
);
other_tool!(
    /// Helgrind's configuration: data races and lock order.
    Helgrind,
    ValgrindTool::Helgrind
);
other_tool!(
    /// DRD's configuration: data races.
    Drd,
    ValgrindTool::DRD
);
other_tool!(
    /// Massif's configuration: the heap over time.
    Massif,
    ValgrindTool::Massif
);
other_tool!(
    /// BBV's configuration: basic block vectors (`exp-bbv`).
    Bbv,
    ValgrindTool::BBV
);

/// Soft and hard limits and fail-fast of a tool whose metrics are `ToolMetric`s.
macro_rules! tool_limits {
    ($ty:ident, $group:ty, $expand:expr) => {
        impl $ty {
            /// Limits in percent of the old value (a negative one fails a fall below it).
            pub fn soft_limits<K, T>(&mut self, limits: T) -> &mut Self
            where
                K: Into<$group>,
                T: IntoIterator<Item = (K, f64)>,
            {
                for (key, pct) in limits {
                    for metric in $expand(key.into()) {
                        self.0.limits.set_soft(metric, pct);
                    }
                }
                self.0.has_limits = true;
                self
            }

            /// Caps on the new values, checked even on a first run.
            pub fn hard_limits<K, L, T>(&mut self, limits: T) -> &mut Self
            where
                K: Into<$group>,
                L: Into<Limit>,
                T: IntoIterator<Item = (K, L)>,
            {
                for (key, limit) in limits {
                    let limit = limit.into();
                    for metric in $expand(key.into()) {
                        self.0.limits.set_hard(metric, limit);
                    }
                }
                self.0.has_limits = true;
                self
            }

            /// Whether the run stops at the first benchmark past a limit.
            pub fn fail_fast(&mut self, value: bool) -> &mut Self {
                self.0.limits.fail_fast(value);
                self
            }
        }
    };
}

fn cachegrind_metrics(group: CachegrindMetrics) -> Vec<AnyMetric> {
    group.expand().into_iter().map(AnyMetric::Event).collect()
}

fn dhat_metrics(group: DhatMetrics) -> Vec<AnyMetric> {
    group
        .expand()
        .into_iter()
        .map(|m| AnyMetric::Tool(m.tool_metric()))
        .collect()
}

tool_limits!(Cachegrind, CachegrindMetrics, cachegrind_metrics);
tool_limits!(Dhat, DhatMetrics, dhat_metrics);

impl Cachegrind {
    /// Which metrics the report shows, in this order.
    pub fn format<I, T>(&mut self, metrics: T) -> &mut Self
    where
        I: Into<CachegrindMetrics>,
        T: IntoIterator<Item = I>,
    {
        let all = metrics
            .into_iter()
            .flat_map(|m| cachegrind_metrics(m.into()));
        self.0.format = Some(unique(all));
        self
    }

    /// [`soft_limits`](Self::soft_limits) of iai-callgrind 0.15.
    pub fn limits<T: IntoIterator<Item = (CachegrindMetric, f64)>>(
        &mut self,
        limits: T,
    ) -> &mut Self {
        self.soft_limits(limits)
    }
}

impl Dhat {
    /// Where DHAT counts: the benchmark (the default for library benchmarks), the whole process
    /// (`EntryPoint::None`, for ad-hoc mode), or a function and what it calls.
    pub fn entry_point(&mut self, entry_point: EntryPoint) -> &mut Self {
        self.0.entry_point = Some(entry_point);
        self
    }

    /// Functions (`*` wildcards allowed) whose allocations count as the benchmark's too, such as
    /// a thread's main function that never passes through the benchmark.
    pub fn frames<I: Into<String>, T: IntoIterator<Item = I>>(&mut self, frames: T) -> &mut Self {
        self.0.frames.extend(frames.into_iter().map(Into::into));
        self
    }

    /// Whether DHAT's file is rewritten to what was counted; see [`SanitizeOutput`].
    pub fn sanitize_output(&mut self, value: SanitizeOutput) -> &mut Self {
        self.0.sanitize = Some(value);
        self
    }
}

/// `format` of the tools whose metrics are [`ToolMetric`](super::metric::ToolMetric)s: DHAT's
/// by [`DhatMetric`], the error-detecting tools' by [`ErrorMetric`].
macro_rules! tool_format {
    ($ty:ident, $metric:ident, $doc:literal) => {
        impl $ty {
            #[doc = $doc]
            pub fn format<I, T>(&mut self, metrics: T) -> &mut Self
            where
                I: Into<$metric>,
                T: IntoIterator<Item = I>,
            {
                let all = metrics
                    .into_iter()
                    .map(|m| AnyMetric::Tool(m.into().tool_metric()));
                self.0.format = Some(unique(all));
                self
            }
        }
    };
}

tool_format!(
    Dhat,
    DhatMetric,
    "Which metrics the report shows, in this order."
);
tool_format!(
    Memcheck,
    ErrorMetric,
    "Which error counts the report shows, in this order."
);
tool_format!(
    Helgrind,
    ErrorMetric,
    "Which error counts the report shows, in this order."
);
tool_format!(
    Drd,
    ErrorMetric,
    "Which error counts the report shows, in this order."
);

/// A tool's configuration as `tool`/`tool_override` take it: the 0.13 [`Tool`], or a value of
/// [`Callgrind`], [`Dhat`], ... (and `&` or `&mut` of one).
#[derive(Debug, Clone, PartialEq)]
pub enum ToolSpec {
    /// Callgrind's settings.
    Callgrind(Box<Callgrind>),
    /// Another tool.
    Other(Tool),
    /// Linux perf ([`super::perf::Perf`]).
    Perf(Box<super::perf::Perf>),
}

impl From<super::perf::Perf> for ToolSpec {
    fn from(value: super::perf::Perf) -> ToolSpec {
        ToolSpec::Perf(Box::new(value))
    }
}

impl From<&super::perf::Perf> for ToolSpec {
    fn from(value: &super::perf::Perf) -> ToolSpec {
        ToolSpec::Perf(Box::new(value.clone()))
    }
}

impl From<&mut super::perf::Perf> for ToolSpec {
    fn from(value: &mut super::perf::Perf) -> ToolSpec {
        ToolSpec::Perf(Box::new(value.clone()))
    }
}

impl From<Tool> for ToolSpec {
    fn from(tool: Tool) -> ToolSpec {
        ToolSpec::Other(tool)
    }
}

impl From<&Tool> for ToolSpec {
    fn from(tool: &Tool) -> ToolSpec {
        ToolSpec::Other(tool.clone())
    }
}

impl From<&mut Tool> for ToolSpec {
    fn from(tool: &mut Tool) -> ToolSpec {
        ToolSpec::Other(tool.clone())
    }
}

impl From<Callgrind> for ToolSpec {
    fn from(value: Callgrind) -> ToolSpec {
        ToolSpec::Callgrind(Box::new(value))
    }
}

impl From<&Callgrind> for ToolSpec {
    fn from(value: &Callgrind) -> ToolSpec {
        ToolSpec::Callgrind(Box::new(value.clone()))
    }
}

impl From<&mut Callgrind> for ToolSpec {
    fn from(value: &mut Callgrind) -> ToolSpec {
        ToolSpec::Callgrind(Box::new(value.clone()))
    }
}

macro_rules! other_spec {
    ($($ty:ident),*) => {$(
        impl From<$ty> for ToolSpec {
            fn from(value: $ty) -> ToolSpec {
                ToolSpec::Other(Tool::from_settings($ty::KIND, value.0))
            }
        }

        impl From<&$ty> for ToolSpec {
            fn from(value: &$ty) -> ToolSpec {
                ToolSpec::from(value.clone())
            }
        }

        impl From<&mut $ty> for ToolSpec {
            fn from(value: &mut $ty) -> ToolSpec {
                ToolSpec::from(value.clone())
            }
        }
    )*};
}

other_spec!(Cachegrind, Dhat, Memcheck, Helgrind, Drd, Massif, Bbv);

impl Tool {
    /// The tool of a value's settings; merged into a more general level's tool of its kind.
    pub(crate) fn from_settings(kind: ValgrindTool, mut settings: OtherSettings) -> Tool {
        let mut tool = Tool::new(kind);
        tool.enable = settings.enable.unwrap_or(true);
        tool.args = std::mem::take(&mut settings.args);
        tool.value = Some(Box::new(settings));
        tool
    }

    /// Merges the more specific `other`, a tool of the same kind given as a value, into this
    /// one: the arguments add up, what `other` sets replaces.
    pub(crate) fn merge(&mut self, other: &Tool) {
        self.args.extend(other.args.iter().cloned());
        let specific = other.value.as_deref().cloned().unwrap_or_default();
        if specific.enable.is_some() || other.value.is_none() {
            self.enable = other.enable;
        }
        let general = self.value.get_or_insert_with(Default::default);
        merge_other(general, &specific);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ToolMetric;

    #[test]
    fn callgrind_values_expand_groups_into_limits_and_format() {
        let mut c = Callgrind::with_args(["dump-instr=yes"]);
        c.soft_limits([(CallgrindMetrics::CacheHits, 5.0)])
            .soft_limits([(EventKind::LLhits, 1.0)])
            .hard_limits([(EventKind::Ir, 10_000u64)])
            .hard_limits([(EventKind::L1HitRate, 99.5)])
            .format([CallgrindMetrics::CacheHits, EventKind::Ir.into()]);
        assert_eq!(c.0.args, ["--dump-instr=yes"]);
        assert_eq!(
            c.0.limits.limits,
            [
                (EventKind::L1hits, 5.0),
                (EventKind::RamHits, 5.0),
                (EventKind::LLhits, 1.0)
            ]
        );
        assert_eq!(
            c.0.format.as_deref(),
            Some(
                &[
                    EventKind::L1hits,
                    EventKind::LLhits,
                    EventKind::RamHits,
                    EventKind::Ir
                ][..]
            )
        );
        assert!(c.0.has_limits);
        let spec: ToolSpec = (&mut c).into();
        assert!(matches!(spec, ToolSpec::Callgrind(_)));
    }

    #[test]
    fn other_values_become_tools_that_merge() {
        let mut general = Dhat::with_args(["--mode=heap"]);
        general.format([DhatMetric::TotalBytes]);
        let mut specific = Dhat::default();
        specific
            .args(["--trace-children=no"])
            .frames(["*::worker"])
            .hard_limits([(DhatMetric::TotalBytes, 100u64)]);
        let ToolSpec::Other(mut merged) = ToolSpec::from(general) else {
            panic!("DHAT is another tool");
        };
        let ToolSpec::Other(specific) = ToolSpec::from(specific) else {
            panic!("DHAT is another tool");
        };
        merged.merge(&specific);
        assert_eq!(merged.args, ["--mode=heap", "--trace-children=no"]);
        let value = merged.value.as_deref().unwrap();
        assert_eq!(value.frames, ["*::worker"]);
        assert_eq!(
            value.format.as_deref(),
            Some(&[AnyMetric::Tool(ToolMetric::TotalBytes)][..])
        );
        assert_eq!(
            value.limits.tool_hard_limits,
            [(ToolMetric::TotalBytes, 100)]
        );
        let ToolSpec::Other(tool) = ToolSpec::from(Memcheck::default().enable(false)) else {
            panic!("Memcheck is another tool");
        };
        assert_eq!(tool.kind, ValgrindTool::Memcheck);
        assert!(!tool.enable);
    }
}
