//! Stage 7 of the pipeline, report: what the user sees of each benchmark and of the whole run.
//! Every output format is one [`Reporter`] in its own file, writing into `&mut dyn Write`;
//! [`reporter`] picks one by its [`ReportFormat`], and [`Reporters`] hands a run to each of
//! them with its target (stdout, a file), for the bench harness and `benchgrind merge` alike.

pub mod bmf;
pub mod flamegraph;
pub mod gbench;
pub mod gungraun;
pub mod history;
pub mod json;
pub mod markdown;
pub mod progress;
mod reporter;
pub mod summary;
pub mod terminal;

pub use reporter::{write_output, write_tally, Reporter, RunSummary, SavedBaseline};
pub use targets::{Reporters, Target};

mod targets;

use crate::cli::{Color, Labels, ReportFormat};

/// The reporter of a format, coloring as `color` says, naming metrics as `labels` do.
pub fn reporter(format: ReportFormat, color: Color, labels: Labels) -> Box<dyn Reporter> {
    match format {
        ReportFormat::Terminal => Box::new(terminal::Terminal {
            style: terminal::Style::new(color, labels),
        }),
        ReportFormat::Json => Box::new(json::Json { pretty: false }),
        ReportFormat::PrettyJson => Box::new(json::Json { pretty: true }),
        ReportFormat::Markdown => Box::new(markdown::Markdown::default()),
        ReportFormat::Bmf => Box::new(bmf::Bmf::default()),
        ReportFormat::GungraunJson => Box::new(gungraun::GungraunJson::default()),
    }
}
