//! The error counts of Memcheck, Helgrind and DRD: [`ErrorMetric`].

use crate::error::Problem;
use crate::problem;
use std::str::FromStr;

use super::super::metric::ToolMetric;

/// The error counts of Memcheck, Helgrind and DRD.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorMetric {
    /// Errors reported.
    Errors,
    /// Distinct error contexts.
    Contexts,
    /// Errors suppressed.
    SuppressedErrors,
    /// Suppressed contexts.
    SuppressedContexts,
}

impl ErrorMetric {
    /// Every metric, in report order.
    pub const ALL: [ErrorMetric; 4] = [
        ErrorMetric::Errors,
        ErrorMetric::Contexts,
        ErrorMetric::SuppressedErrors,
        ErrorMetric::SuppressedContexts,
    ];

    /// benchgrind's metric of the same value.
    pub fn tool_metric(self) -> ToolMetric {
        match self {
            ErrorMetric::Errors => ToolMetric::Errors,
            ErrorMetric::Contexts => ToolMetric::ErrorContexts,
            ErrorMetric::SuppressedErrors => ToolMetric::SuppressedErrors,
            ErrorMetric::SuppressedContexts => ToolMetric::SuppressedContexts,
        }
    }
}

impl FromStr for ErrorMetric {
    type Err = Problem;

    /// A name or short name without regard to case (`errors`/`err`, `contexts`/`ctx`,
    /// `suppressederrors`/`serr`, `suppressedcontexts`/`sctx`).
    fn from_str(text: &str) -> Result<ErrorMetric, Problem> {
        match text.trim().to_ascii_lowercase().as_str() {
            "errors" | "err" => Ok(ErrorMetric::Errors),
            "contexts" | "ctx" => Ok(ErrorMetric::Contexts),
            "suppressederrors" | "serr" => Ok(ErrorMetric::SuppressedErrors),
            "suppressedcontexts" | "sctx" => Ok(ErrorMetric::SuppressedContexts),
            _ => Err(problem!(
                "unknown error metric `{}`; use errors, contexts, suppressederrors or \
                 suppressedcontexts",
                text.trim()
            )),
        }
    }
}

impl std::fmt::Display for ErrorMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ErrorMetric::Errors => "Errors",
            ErrorMetric::Contexts => "Contexts",
            ErrorMetric::SuppressedErrors => "Suppressed Errors",
            ErrorMetric::SuppressedContexts => "Suppressed Contexts",
        })
    }
}
