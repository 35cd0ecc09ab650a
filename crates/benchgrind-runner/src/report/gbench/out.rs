//! `--benchmark_out=FILE`: a [`Reporter`] that runs beside the one on stdout (its target is the
//! file, see [`crate::report::Reporters`]), keeps what it is handed, and at the end writes the
//! report in the format `--benchmark_out_format` asks for: Google Benchmark's JSON or CSV of the
//! summaries, or the terminal report without color (`console`).

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

/// The JSON context of the run, asked for at its end (by the JSON format only).
pub type ContextFn<'a> = Box<dyn FnOnce() -> Context + 'a>;

/// Collects a run for `--benchmark_out`.
pub struct BenchmarkOut<'a> {
    /// The file, for messages.
    path: PathBuf,
    format: BenchmarkOutFormat,
    metric: EventKind,
    summaries: Vec<Summary>,
    /// The terminal report, for `console`.
    console: Option<Terminal>,
    context: Option<ContextFn<'a>>,
}

impl<'a> BenchmarkOut<'a> {
    /// A reporter for the file `path`, in `format`, `metric` in the time fields, `context`
    /// asked for at the end.
    pub fn new(
        path: &Path,
        format: BenchmarkOutFormat,
        metric: EventKind,
        context: ContextFn<'a>,
    ) -> BenchmarkOut<'a> {
        let console = (format == BenchmarkOutFormat::Console).then(|| {
            let style = Style::new(Color::Never, crate::cli::Labels::default());
            Terminal { style }
        });
        BenchmarkOut {
            path: path.to_owned(),
            format,
            metric,
            summaries: Vec::new(),
            console,
            context: Some(context),
        }
    }

    /// The report in JSON or CSV. Warns on stderr about benchmarks measured without the chosen
    /// metric (their time fields hold 0).
    fn write(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let entries = entries(&self.summaries);
        let text = match self.format {
            BenchmarkOutFormat::Csv => csv::csv(&entries, self.metric),
            _ => {
                let Some(context) = self.context.take() else {
                    return Err(io::Error::other("the run was reported to its end twice"));
                };
                json(&entries, &context()) + "\n"
            }
        };
        {
            let without: Vec<&str> = entries
                .iter()
                .filter(|e| e.outcome.is_ok() && e.value(self.metric).is_none())
                .map(|e| e.name.as_str())
                .collect();
            if !without.is_empty() {
                crate::messages::warning!(
                    "--benchmark_metric={0}: no {0} was counted for {1}; their real_time and \
                     cpu_time in {2} are 0",
                    self.metric.name(),
                    without.join(", "),
                    self.path.display()
                );
            }
        }
        out.write_all(text.as_bytes())
    }
}

impl Reporter for BenchmarkOut<'_> {
    fn bench(&mut self, out: &mut dyn Write, result: &BenchResult) -> io::Result<()> {
        match &mut self.console {
            Some(terminal) => {
                // What the benchmark printed is shown by the report on stdout, not in the file.
                let quiet = BenchResult {
                    output: Default::default(),
                    ..result.clone()
                };
                terminal.bench(out, &quiet)
            }
            None => {
                self.summaries.push(Summary::from_result(result));
                Ok(())
            }
        }
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &RunSummary) -> io::Result<()> {
        match &mut self.console {
            Some(terminal) => terminal.finish(out, summary),
            None => self.write(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::json::tests::{context, summaries};
    use super::*;
    use crate::report::{Reporters, Target};

    /// Hands the test summaries to a reporter for the file `path`, as the harness does.
    fn written(path: &Path, format: BenchmarkOutFormat) -> Result<String, String> {
        let out = BenchmarkOut::new(
            path,
            format,
            EventKind::Ir,
            Box::new(|| context(EventKind::Ir)),
        );
        let mut reporters = Reporters::new();
        reporters.push(Box::new(out), Target::File(path.to_owned()));
        let mut stdout = Vec::new();
        for s in summaries() {
            reporters
                .bench(&mut stdout, &s.to_result().unwrap())
                .unwrap();
        }
        reporters.end(&mut stdout, &RunSummary::default())?;
        assert!(
            stdout.is_empty(),
            "the file's reporter writes nothing on stdout"
        );
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
            e.starts_with(&format!("cannot write {}: ", missing.display())),
            "{e}"
        );
    }
}
