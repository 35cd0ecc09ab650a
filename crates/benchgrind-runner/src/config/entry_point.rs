//! Where Callgrind counts: [`EntryPoint`].

/// Where Callgrind counts, as iai-callgrind's `EntryPoint`.
///
/// In library benchmarks benchgrind counts the benchmark function's own execution and nothing
/// else ([`EntryPoint::Default`]). [`EntryPoint::Custom`] restricts the count to a function
/// called from it (a name as Callgrind shows it, wildcards allowed) and what that calls, with
/// Callgrind's `--toggle-collect` (naming the benchmark function itself is the default; a
/// recursive entry point switches collection off in its inner calls, an inlined one counts 0).
/// [`EntryPoint::None`] keeps the default window: iai-callgrind counted the whole process then,
/// which the measured window of benchgrind never includes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum EntryPoint {
    /// The benchmark function's execution (library benchmarks) or the whole process (binaries).
    None,
    /// The default of the benchmark kind.
    #[default]
    Default,
    /// Only this function and what it calls.
    Custom(String),
}

impl<T: Into<String>> From<T> for EntryPoint {
    fn from(value: T) -> Self {
        EntryPoint::Custom(value.into())
    }
}
