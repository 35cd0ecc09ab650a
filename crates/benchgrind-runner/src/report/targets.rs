//! The reporters of a run, each with where its report goes: the one on stdout that
//! `--output-format` picks and, with `--benchmark_out`, Google Benchmark's file (as hyperfine
//! keeps its exporters in one list). The bench harness and `benchgrind merge` both report
//! through it.

use crate::error::FileResult;
use crate::error::Problem;
use std::io::{self, Write};
use std::path::PathBuf;

use super::reporter::{Reporter, RunSummary};
use crate::result::BenchResult;

/// Where a reporter's report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output, as the run goes.
    Stdout,
    /// A file, written at the end under a temporary name and renamed into place.
    File(PathBuf),
}

/// Every reporter of a run, in order, with its target and, for a file, its report so far.
#[derive(Default)]
pub struct Reporters<'a> {
    list: Vec<(Box<dyn Reporter + 'a>, Target, Vec<u8>)>,
}

impl<'a> Reporters<'a> {
    /// No reporter yet.
    pub fn new() -> Reporters<'a> {
        Reporters { list: Vec::new() }
    }

    /// Adds a reporter writing to `target`.
    pub fn push(&mut self, reporter: Box<dyn Reporter + 'a>, target: Target) {
        self.list.push((reporter, target, Vec::new()));
    }

    /// Ends the run: each reporter's closing part, then the files written. Writing stdout may
    /// fail (a closed pipe) without stopping the others or the files; a file that cannot be
    /// written is the error, naming it.
    pub fn end(&mut self, out: &mut dyn Write, summary: &RunSummary) -> Result<(), Problem> {
        for (reporter, target, text) in &mut self.list {
            match target {
                Target::Stdout => {
                    let _ = reporter.finish(out, summary);
                }
                Target::File(path) => {
                    reporter
                        .finish(text, summary)
                        .file_op("report into", path)?;
                    crate::store::write_atomic(path, text).file_op("write", path)?;
                }
            }
        }
        Ok(())
    }
}

impl Reporter for Reporters<'_> {
    /// Every reporter, in order; the first error is returned once all have had the result.
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        let mut first = Ok(());
        for (reporter, target, text) in &mut self.list {
            let written = match target {
                Target::Stdout => reporter.bench(out, result),
                Target::File(_) => reporter.bench(text, result),
            };
            first = first.and(written);
        }
        first
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        self.end(out, summary).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a fixed line per call, to see which target each call reached.
    struct Lines(&'static str);

    impl Reporter for Lines {
        fn bench(&mut self, out: &mut dyn Write, _: &BenchResult) -> io::Result<()> {
            writeln!(out, "{} bench", self.0)
        }
        fn finish(&mut self, out: &mut dyn Write, _: &RunSummary) -> io::Result<()> {
            writeln!(out, "{} end", self.0)
        }
    }

    #[test]
    fn each_reporter_writes_to_its_own_target() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out.txt");
        let mut reporters = Reporters::new();
        reporters.push(Box::new(Lines("a")), Target::Stdout);
        reporters.push(Box::new(Lines("b")), Target::File(file.clone()));
        let mut stdout = Vec::new();
        let summaries = crate::report::gbench::json::tests::summaries();
        let result = summaries[0].to_result().unwrap();
        reporters.bench(&mut stdout, &result).unwrap();
        reporters.end(&mut stdout, &RunSummary::default()).unwrap();
        assert_eq!(String::from_utf8(stdout).unwrap(), "a bench\na end\n");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "b bench\nb end\n");

        let mut reporters = Reporters::new();
        let missing = dir.path().join("no/such/dir/out.txt");
        reporters.push(Box::new(Lines("c")), Target::File(missing.clone()));
        let e = reporters
            .end(&mut Vec::new(), &RunSummary::default())
            .unwrap_err();
        assert!(e.contains(&missing.display().to_string()), "{e}");
    }
}
