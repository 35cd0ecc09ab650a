//! The flamegraphs users ask for: which kinds, which metrics, how they look. Drawing them is
//! [`crate::report::flamegraph`]'s.

use super::EventKind;

/// Which flamegraphs to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlamegraphKind {
    /// The new run only.
    Regular,
    /// The change from the previous run (or the baseline) only.
    Differential,
    /// Both (the default, as iai-callgrind's): the regular graph on every run, the
    /// differential one once there is a run or baseline to compare with.
    #[default]
    All,
    /// None (switches off a more general level's).
    None,
}

/// Where the `all` frame sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Stacks grow from the bottom up (the classic flamegraph).
    BottomToTop,
    /// Stacks grow from the top down (an icicle graph; the default, as iai-callgrind's).
    #[default]
    TopToBottom,
}

/// Flamegraphs of a benchmark's Callgrind profile.
///
/// ```rust
/// use benchgrind_runner::{EventKind, FlamegraphConfig, FlamegraphKind, LibraryBenchmarkConfig};
///
/// let mut flamegraph = FlamegraphConfig::default();
/// flamegraph
///     .kind(FlamegraphKind::All)
///     .event_kinds([EventKind::Ir, EventKind::EstimatedCycles])
///     .min_width(0.5);
/// let mut config = LibraryBenchmarkConfig::default();
/// config.flamegraph(&mut flamegraph);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlamegraphConfig {
    pub(crate) kind: Option<FlamegraphKind>,
    pub(crate) event_kinds: Vec<EventKind>,
    pub(crate) title: Option<String>,
    pub(crate) direction: Option<Direction>,
    pub(crate) min_width: Option<f64>,
    pub(crate) normalize_differential: Option<bool>,
    /// The subtitle of every flamegraph (`subtitle`, iai-callgrind 0.13).
    pub(crate) subtitle: Option<String>,
    /// Differential colors by the old run's widths (`negate_differential`).
    pub(crate) negate_differential: Option<bool>,
}

impl FlamegraphConfig {
    /// Which flamegraphs (default: all, the differential one once there is something to
    /// compare with).
    pub fn kind(&mut self, kind: FlamegraphKind) -> &mut Self {
        self.kind = Some(kind);
        self
    }

    /// One flamegraph per metric (default: `Ir`); derived metrics such as
    /// `EstimatedCycles` need the cache simulation (on by default).
    pub fn event_kinds<I: IntoIterator<Item = EventKind>>(&mut self, kinds: I) -> &mut Self {
        self.event_kinds = kinds.into_iter().collect();
        self
    }

    /// The title (default: the benchmark's id and the metric).
    pub fn title<T: Into<String>>(&mut self, title: T) -> &mut Self {
        self.title = Some(title.into());
        self
    }

    /// Bottom-up flames or top-down icicles (the default).
    pub fn direction(&mut self, direction: Direction) -> &mut Self {
        self.direction = Some(direction);
        self
    }

    /// Frames narrower than this many pixels are left out (default: 0.1).
    pub fn min_width(&mut self, pixels: f64) -> &mut Self {
        self.min_width = Some(pixels);
        self
    }

    /// Scales the old run to the new one's total in differential flamegraphs, so that the
    /// colors show shifts of proportion rather than of the total (default: off).
    pub fn normalize_differential(&mut self, value: bool) -> &mut Self {
        self.normalize_differential = Some(value);
        self
    }

    pub(crate) fn kind_or_default(&self) -> FlamegraphKind {
        self.kind.unwrap_or_default()
    }

    pub(crate) fn events(&self) -> Vec<EventKind> {
        if self.event_kinds.is_empty() {
            vec![EventKind::Ir]
        } else {
            self.event_kinds.clone()
        }
    }
}

impl From<&mut FlamegraphConfig> for FlamegraphConfig {
    fn from(value: &mut FlamegraphConfig) -> Self {
        value.clone()
    }
}
