//! Stage 7 of the pipeline, report: what the user sees of each benchmark and of the whole run.
//! Every output format is one [`Reporter`] in its own file, writing into `&mut dyn Write`.

pub mod flamegraph;
pub mod gbench;
pub mod json;
pub mod markdown;
pub mod progress;
mod reporter;
pub mod summary;
pub mod terminal;

pub use reporter::{write_output, write_tally, Both, Reporter, RunSummary};

use crate::cli::{Color, Labels, OutputFormat};

/// The reporter of an output format, coloring as `color` says, naming metrics as `labels` do.
pub fn reporter(format: OutputFormat, color: Color, labels: Labels) -> Box<dyn Reporter> {
    match format {
        OutputFormat::Default => Box::new(terminal::Terminal {
            style: terminal::Style::new(color, labels),
        }),
        OutputFormat::Json => Box::new(json::Json { pretty: false }),
        OutputFormat::PrettyJson => Box::new(json::Json { pretty: true }),
        OutputFormat::Markdown => Box::new(markdown::Markdown::default()),
    }
}
