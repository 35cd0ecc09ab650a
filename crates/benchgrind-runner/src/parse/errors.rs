//! The `ERROR SUMMARY` line that Memcheck, Helgrind and DRD write at the end of their log:
//! `==123== ERROR SUMMARY: 3 errors from 2 contexts (suppressed: 0 from 0)`.
//!
//! The counts are those of the whole measured process: an error in setup is as much a bug as
//! one in the benchmark, and the harness' own code in that process is checked to be clean by
//! the end-to-end tests.

use std::path::Path;

use super::ParseError;

/// The counts of an error summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ErrorSummary {
    /// Errors reported.
    pub errors: u64,
    /// Distinct contexts.
    pub contexts: u64,
    /// Errors suppressed.
    pub suppressed: u64,
    /// Suppressed contexts.
    pub suppressed_contexts: u64,
}

/// Reads a log and returns its last error summary.
pub fn parse_file(path: &Path) -> Result<ErrorSummary, ParseError> {
    let bytes = super::read(path, "read the Valgrind log")?;
    parse(path, &bytes)
}

/// Parses a log's bytes; `path` is only used in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<ErrorSummary, ParseError> {
    let mut found = None;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = String::from_utf8_lossy(raw);
        let Some(at) = line.find("ERROR SUMMARY:") else {
            continue;
        };
        let text = &line[at + "ERROR SUMMARY:".len()..];
        let summary = summary_counts(text).ok_or_else(|| ParseError::At {
            path: path.to_owned(),
            line: Some(index + 1),
            message: format!("cannot read the counts of `{}`", line.trim()),
        })?;
        found = Some(summary);
    }
    found.ok_or_else(|| ParseError::At {
        path: path.to_owned(),
        line: None,
        message: "no `ERROR SUMMARY:` line: the tool did not finish".into(),
    })
}

/// ` 3 errors from 2 contexts (suppressed: 0 from 0)`: the four numbers, in order.
fn summary_counts(text: &str) -> Option<ErrorSummary> {
    let numbers: Vec<u64> = text
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()))
        .map(|t| t.replace(',', "").parse())
        .collect::<Result<_, _>>()
        .ok()?;
    let [errors, contexts, suppressed, suppressed_contexts] = numbers[..] else {
        return None;
    };
    Some(ErrorSummary {
        errors,
        contexts,
        suppressed,
        suppressed_contexts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_summary_counts() {
        let log = "==1== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n\
                   ==1== ERROR SUMMARY: 1,234 errors from 2 contexts (suppressed: 5 from 1)\n";
        let s = parse(Path::new("m.log"), log.as_bytes()).unwrap();
        assert_eq!(
            s,
            ErrorSummary {
                errors: 1234,
                contexts: 2,
                suppressed: 5,
                suppressed_contexts: 1
            }
        );
    }

    #[test]
    fn a_log_without_summary_or_with_a_broken_one_is_an_error() {
        let e = parse(Path::new("m.log"), b"==1== Memcheck\n").unwrap_err();
        assert!(e.to_string().contains("no `ERROR SUMMARY:`"), "{e}");
        let e = parse(Path::new("m.log"), b"x\n==1== ERROR SUMMARY: many\n").unwrap_err();
        assert_eq!(e.line(), Some(2));
    }
}
