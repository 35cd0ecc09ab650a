//! Getting each side's [`ResultSet`]: read the file or run the binary (once per filter), then
//! apply the filter and marker of the filtered modes.

use std::fs;

use anyhow::Result;
use benchgrind_runner::error::FileResult;

use super::config::{Resolved, SideSpec};
use super::filter;
use super::input::{baseline, bench_binary, file, run, source::Source, summary};
use super::model::ResultSet;

/// Loads the old and the new side, in that order.
pub fn load(config: &Resolved) -> Result<(ResultSet, ResultSet)> {
    if let Some(dir) = &config.keep_results {
        fs::create_dir_all(dir).file_op("create the `--keep-results` folder", dir)?;
    }
    // `filters` on one input: read it once, filter it twice. Only a Google Benchmark binary runs
    // once per filter, with `--benchmark_filter`; a bench binary runs once and is filtered here.
    let same_file = config.old.source == config.new.source
        && !matches!(config.old.source, Source::GbenchBinary(_));
    let old = load_side(config, &config.old, "old")?;
    let new = if same_file {
        old.clone()
    } else {
        load_side(config, &config.new, "new")?
    };
    Ok((
        finish(old, &config.old, config),
        finish(new, &config.new, config),
    ))
}

/// Reads or runs one side; `name` (old or new) names the files kept.
fn load_side(config: &Resolved, side: &SideSpec, name: &str) -> Result<ResultSet> {
    let label = match &side.filter {
        Some(f) => format!("{} (filter {})", side.source.describe(), f.text),
        None => side.source.describe(),
    };
    match &side.source {
        Source::File(path) => file::load(path, label),
        Source::SummaryDir(dir) => summary::load_dir(dir, label),
        Source::Baseline { name, home } => baseline::load(home, name, label),
        Source::BenchBinary(binary) => {
            let keep = config
                .keep_results
                .as_ref()
                .map(|dir| dir.join(format!("{name}.json")));
            bench_binary::run(binary, &config.passthrough, keep.as_deref(), label)
        }
        Source::GbenchBinary(binary) if config.metric.is_some() => {
            let keep = config
                .keep_results
                .as_ref()
                .map(|dir| dir.join(format!("{name}.json")));
            let filter = side.filter.as_ref().map(|f| f.text.as_str());
            let metric = config
                .metric
                .unwrap_or(benchgrind_runner::config::EventKind::Ir);
            crate::compare::gbench::measure_side(binary, filter, metric, keep.as_deref(), label)
        }
        Source::GbenchBinary(binary) => {
            let (out, keep) = match &config.keep_results {
                Some(dir) => (dir.join(format!("{name}.json")), true),
                None => (run::temp_out(name), false),
            };
            let spec = run::RunSpec {
                binary,
                filter: side.filter.as_ref().map(|f| f.text.as_str()),
                extra: &config.passthrough,
                out,
                keep,
            };
            run::run_gbench(&spec, label)
        }
    }
}

/// Applies a filtered mode's filter and marker to a side's results.
fn finish(set: ResultSet, side: &SideSpec, config: &Resolved) -> ResultSet {
    match (&side.filter, &config.marker) {
        (Some(f), Some(marker)) => {
            let mut set = filter::apply(set, &f.regex, marker);
            if let Some(label_filter) = &side.filter {
                // The label of a file read once names this side's filter.
                set.label = format!("{} (filter {})", side.source.describe(), label_filter.text);
            }
            set
        }
        _ => set,
    }
}
