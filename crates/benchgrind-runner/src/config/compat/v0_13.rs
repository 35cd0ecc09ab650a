//! The types of iai-callgrind's 0.13/0.14 configuration API that benchgrind's own API did not
//! have: [`BenchmarkId`] and [`OutputFormat`] (the config methods of that generation,
//! `truncate_description`, `entry_point`, `tool_override`, `callgrind_args`, `valgrind_args`, ...,
//! are in the module `v0_13_methods`; what they set is the core's
//! [`Extra`](crate::config::library::Extra)).
//!
//! Part of configure, the first stage: everything here is folded by [`crate::config::resolve()`] with
//! the rest of a level's configuration, so benchmark code written for iai-callgrind builds
//! unchanged and means what it meant there.

use crate::error::Problem;
use crate::problem;
use std::fmt;

/// The id of a bench of the low-level API, with iai-callgrind's constructors.
///
/// `Bench::new` and `BinaryBenchmark::new` take it as they take a `&str`.
///
/// ```rust
/// use benchgrind_runner::config::BenchmarkId;
///
/// assert_eq!(BenchmarkId::with_parameter("sort", 100).to_string(), "sort_100");
/// assert!(BenchmarkId::new("with space").validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BenchmarkId {
    id: String,
}

impl BenchmarkId {
    /// An id as given.
    pub fn new<T: AsRef<str>>(id: T) -> BenchmarkId {
        BenchmarkId {
            id: id.as_ref().to_owned(),
        }
    }

    /// `id_parameter`, for benches made in a loop.
    pub fn with_parameter<T: AsRef<str>, P: fmt::Display>(id: T, parameter: P) -> BenchmarkId {
        BenchmarkId {
            id: format!("{}_{parameter}", id.as_ref()),
        }
    }

    /// Whether the id can name a benchmark: not empty, starting with a letter or `_`, and made
    /// of letters, digits and `_` only (it becomes a directory name and part of filters).
    pub fn validate(&self) -> Result<(), Problem> {
        let mut chars = self.id.chars();
        match chars.next() {
            None => Err(Problem::new("a benchmark id must not be empty")),
            Some(c) if !(c.is_ascii_alphabetic() || c == '_') => Err(problem!(
                "the benchmark id {:?} must start with a letter or `_`",
                self.id
            )),
            Some(_) => match chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
                Some(c) => Err(problem!(
                    "the benchmark id {:?} contains {c:?}; use letters, digits and `_`",
                    self.id
                )),
                None => Ok(()),
            },
        }
    }
}

impl fmt::Display for BenchmarkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

impl From<&str> for BenchmarkId {
    fn from(value: &str) -> Self {
        BenchmarkId::new(value)
    }
}

impl From<String> for BenchmarkId {
    fn from(id: String) -> Self {
        BenchmarkId { id }
    }
}

impl From<BenchmarkId> for String {
    fn from(value: BenchmarkId) -> Self {
        value.id
    }
}

impl From<&BenchmarkId> for String {
    fn from(value: &BenchmarkId) -> Self {
        value.id.clone()
    }
}

/// How the terminal report shows a benchmark, as iai-callgrind 0.14's `OutputFormat`.
///
/// [`truncate_description`](Self::truncate_description) cuts the header,
/// [`show_intermediate`](Self::show_intermediate) shows each thread's and process's counts (as
/// [`LibraryBenchmarkConfig::separate_threads`](crate::config::LibraryBenchmarkConfig::separate_threads));
/// [`show_grid`](Self::show_grid) marks the lines (`|-` before a metric, `|=` before another
/// tool's title), and [`tolerance`](Self::tolerance) (iai-callgrind 0.16+, gungraun) shows small
/// changes as `(Tolerance)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputFormat {
    pub(crate) truncate_description: Option<Option<usize>>,
    pub(crate) show_intermediate: Option<bool>,
    pub(crate) show_grid: Option<bool>,
    pub(crate) tolerance: Option<f64>,
}

impl OutputFormat {
    /// Cuts the description after the bench id after `n` characters (`None`: never; default
    /// 50).
    pub fn truncate_description(&mut self, value: Option<usize>) -> &mut Self {
        self.truncate_description = Some(value);
        self
    }

    /// Shows each thread's and process's counts under the total, in the terminal and the JSON
    /// summary: the same as `separate_threads(value)`.
    pub fn show_intermediate(&mut self, value: bool) -> &mut Self {
        self.show_intermediate = Some(value);
        self
    }

    /// Grid marks in the terminal report: `|-` before each metric line, `|=` before another
    /// tool's title (default off).
    pub fn show_grid(&mut self, value: bool) -> &mut Self {
        self.show_grid = Some(value);
        self
    }

    /// Changes of at most this many percent either way (a negative value counts as its
    /// absolute value) show as `(Tolerance)` instead of their percentage; limits still see
    /// them. Default: none.
    pub fn tolerance(&mut self, value: f64) -> &mut Self {
        self.tolerance = Some(value.abs());
        self
    }
}

impl From<&mut OutputFormat> for OutputFormat {
    fn from(value: &mut OutputFormat) -> Self {
        value.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_ids_are_validated_like_identifiers() {
        assert!(BenchmarkId::new("bench_1").validate().is_ok());
        assert!(BenchmarkId::new("").validate().is_err());
        assert!(BenchmarkId::new("1x").validate().is_err());
        assert!(BenchmarkId::new("a-b").validate().is_err());
        let id: String = BenchmarkId::with_parameter("n", 3).into();
        assert_eq!(id, "n_3");
    }
}
