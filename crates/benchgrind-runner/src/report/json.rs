//! `--output-format=json|pretty-json`: one summary per benchmark on stdout (one per line, or
//! indented); the closing tally goes to stderr so stdout stays machine-readable.

use std::io::{self, Write};

use super::reporter::{write_output, write_tally, Reporter, RunSummary};
use crate::report::summary::Summary;
use crate::result::BenchResult;

/// Prints summaries as JSON.
pub struct Json {
    /// Indented instead of one per line.
    pub pretty: bool,
}

impl Reporter for Json {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        write_output(out, &result.output, true)?;
        writeln!(out, "{}", Summary::from_result(result).to_json(self.pretty))
    }

    fn finish(&mut self, _out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        write_tally(&mut io::stderr(), summary)
    }
}
