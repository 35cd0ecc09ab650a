//! The settings a tool other than Callgrind carries when it is given as a value
//! ([`super::tools`]), kept below [`super::tool::Tool`], which holds them.

use super::entry_point::EntryPoint;
use super::metric::AnyMetric;
use super::regression::RegressionConfig;

/// Whether a tool's output files are rewritten to what was counted (gungraun 0.19+, DHAT). The
/// report's figures are restricted either way; benchgrind leaves DHAT's file as DHAT wrote it,
/// so the three settings differ only in whether that file is kept as `.orig` as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SanitizeOutput {
    /// Leave the file as the tool wrote it.
    No,
    /// Rewrite it and keep the original beside it.
    KeepOrig,
    /// Rewrite it (the default).
    #[default]
    Yes,
}

/// The settings of a tool other than Callgrind given as a value.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct OtherSettings {
    pub args: Vec<String>,
    pub enable: Option<bool>,
    pub entry_point: Option<EntryPoint>,
    pub frames: Vec<String>,
    pub sanitize: Option<SanitizeOutput>,
    pub format: Option<Vec<AnyMetric>>,
    pub limits: RegressionConfig,
    pub has_limits: bool,
}

/// Merges `specific` into `general`, the settings of two values of the same tool: what the
/// specific one sets replaces (the arguments are the [`Tool`](super::tool::Tool)'s).
pub(crate) fn merge_other(general: &mut OtherSettings, specific: &OtherSettings) {
    if specific.enable.is_some() {
        general.enable = specific.enable;
    }
    if specific.entry_point.is_some() {
        general.entry_point.clone_from(&specific.entry_point);
    }
    general.frames.extend(specific.frames.iter().cloned());
    if specific.sanitize.is_some() {
        general.sanitize = specific.sanitize;
    }
    if specific.format.is_some() {
        general.format.clone_from(&specific.format);
    }
    if specific.has_limits {
        general.limits.merge(&specific.limits);
        general.has_limits = true;
    }
}
