//! `--benchmark_out=FILE`: a [`Reporter`] that runs beside the one on stdout, keeps what it is
//! handed, and at the end writes the file in the format `--benchmark_out_format` asks for:
//! Google Benchmark's JSON or CSV of the summaries, or the terminal report without color
//! (`console`). The file is written to a temporary name and renamed into place.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::csv;
use super::json::{entries, json, Context};
use crate::cli::{BenchmarkOutFormat, Color};
use crate::config::EventKind;
use crate::report::reporter::{Reporter, RunSummary};
use crate::report::summary::Summary;
use crate::report::terminal::{Style, Terminal};
use crate::result::BenchResult;

/// Collects a run for `--benchmark_out`.
pub struct BenchmarkOut {
    path: PathBuf,
    format: BenchmarkOutFormat,
    metric: EventKind,
    summaries: Vec<Summary>,
    /// The terminal report, for `console`.
    console: Option<(Terminal, Vec<u8>)>,
}

impl BenchmarkOut {
    /// A reporter for `path`, in `format`, `metric` in the time fields.
    pub fn new(path: &Path, format: BenchmarkOutFormat, metric: EventKind) -> BenchmarkOut {
        let console = (format == BenchmarkOutFormat::Console).then(|| {
            let style = Style::new(Color::Never, crate::cli::Labels::default());
            (Terminal { style }, Vec::new())
        });
        BenchmarkOut {
            path: path.to_owned(),
            format,
            metric,
            summaries: Vec::new(),
            console,
        }
    }

    /// Writes the file; `context` is asked for only by the JSON format. Warns on stderr about
    /// benchmarks measured without the chosen metric (their time fields hold 0).
    pub fn write(&self, context: impl FnOnce() -> Context) -> Result<(), String> {
        let entries = entries(&self.summaries);
        let text = match (&self.console, self.format) {
            (Some((_, report)), _) => report.clone(),
            (None, BenchmarkOutFormat::Csv) => csv::csv(&entries, self.metric).into_bytes(),
            (None, _) => (json(&entries, &context()) + "\n").into_bytes(),
        };
        if self.console.is_none() {
            let without: Vec<&str> = entries
                .iter()
                .filter(|e| e.outcome.is_ok() && e.value(self.metric).is_none())
                .map(|e| e.name.as_str())
                .collect();
            if !without.is_empty() {
                eprintln!(
                    "warning: --benchmark_metric={0}: no {0} was counted for {1}; their \
                     real_time and cpu_time in {2} are 0",
                    self.metric.name(),
                    without.join(", "),
                    self.path.display()
                );
            }
        }
        crate::store::write_atomic(&self.path, &text).map_err(|e| {
            format!(
                "cannot write the --benchmark_out file {}: {e}",
                self.path.display()
            )
        })
    }
}

impl Reporter for BenchmarkOut {
    fn bench(&mut self, _out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        match &mut self.console {
            Some((terminal, report)) => {
                // What the benchmark printed is shown by the report on stdout, not in the file.
                let quiet = BenchResult {
                    output: Default::default(),
                    ..result.clone()
                };
                terminal.bench(report, &quiet)
            }
            None => {
                self.summaries.push(Summary::from_result(result));
                Ok(())
            }
        }
    }

    fn finish(&mut self, _out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        match &mut self.console {
            Some((terminal, report)) => terminal.finish(report, summary),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::json::tests::{context, summaries};
    use super::*;

    /// Hands the test summaries to a reporter for `path` and writes the file.
    fn written(path: &Path, format: BenchmarkOutFormat) -> Result<String, String> {
        let mut out = BenchmarkOut::new(path, format, EventKind::Ir);
        let mut stdout = Vec::new();
        for s in summaries() {
            out.bench(&mut stdout, &s.to_result().unwrap()).unwrap();
        }
        out.finish(&mut stdout, &RunSummary::default()).unwrap();
        assert!(
            stdout.is_empty(),
            "the file's reporter writes nothing on stdout"
        );
        out.write(|| context(EventKind::Ir))?;
        Ok(std::fs::read_to_string(path).unwrap())
    }

    #[test]
    fn each_format_lands_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let entries = entries(&summaries());
        let text = written(&path, BenchmarkOutFormat::Json).unwrap();
        assert_eq!(text, json(&entries, &context(EventKind::Ir)) + "\n");
        let text = written(&path, BenchmarkOutFormat::Csv).unwrap();
        assert_eq!(text, csv::csv(&entries, EventKind::Ir));
        let text = written(&path, BenchmarkOutFormat::Console).unwrap();
        assert!(
            text.starts_with("f::g::func id:()\n  Instructions:"),
            "{text}"
        );
        assert!(text.contains("FAILED: panicked at 'boom'"), "{text}");
        let missing = dir.path().join("no/such/dir/out.json");
        let e = written(&missing, BenchmarkOutFormat::Json).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "cannot write the --benchmark_out file {}: ",
                missing.display()
            )),
            "{e}"
        );
    }
}
