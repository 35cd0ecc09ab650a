//! The [`Sandbox`] a benchmark's processes run in: binary benchmarks' setup, command and
//! teardown, and (gungraun 0.19+) a library benchmark's process. Creating it is
//! [`crate::execute`]'s.

use std::path::PathBuf;

/// A temporary directory in which setup, the command and teardown run, removed afterwards
/// whether the benchmark passed or failed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sandbox {
    pub(crate) enabled: bool,
    pub(crate) fixtures: Vec<PathBuf>,
    /// `Some(false)`: symbolic links in fixtures are copied as links, not what they point to.
    pub(crate) follow_symlinks: Option<bool>,
}

impl Sandbox {
    /// A sandbox, on or off.
    pub fn new(enabled: bool) -> Sandbox {
        Sandbox {
            enabled,
            fixtures: Vec::new(),
            follow_symlinks: None,
        }
    }

    /// Files or directories copied into the sandbox's root; relative paths start at the
    /// workspace root.
    pub fn fixtures<I, P>(&mut self, fixtures: I) -> &mut Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        self.fixtures.extend(fixtures.into_iter().map(Into::into));
        self
    }
}

impl From<&mut Sandbox> for Sandbox {
    fn from(value: &mut Sandbox) -> Self {
        value.clone()
    }
}
