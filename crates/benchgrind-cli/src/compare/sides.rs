//! Getting each side's [`ResultSet`]: read the file or run the binary (once per filter), then
//! apply the filter and marker of the filtered modes.

use std::fs;

use anyhow::{Context, Result};

use super::config::{Config, SideSpec};
use super::filter;
use super::input::{self, run, Source};
use super::model::ResultSet;

/// Loads the old and the new side, in that order.
pub fn load(config: &Config) -> Result<(ResultSet, ResultSet)> {
    if let Some(dir) = &config.keep_results {
        fs::create_dir_all(dir).with_context(|| {
            format!("cannot create `--keep-results` folder `{}`", dir.display())
        })?;
    }
    // `filters` on a file: read it once, filter it twice.
    let same_file =
        config.old.source == config.new.source && matches!(config.old.source, Source::File(_));
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

fn load_side(config: &Config, side: &SideSpec, name: &str) -> Result<ResultSet> {
    let path = side.source.path();
    let label = match &side.filter {
        Some(f) => format!("{} (filter {})", path.display(), f.text),
        None => path.display().to_string(),
    };
    match &side.source {
        Source::File(path) => input::load_file(path, label),
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

fn finish(set: ResultSet, side: &SideSpec, config: &Config) -> ResultSet {
    match (&side.filter, &config.marker) {
        (Some(f), Some(marker)) => {
            let mut set = filter::apply(set, &f.regex, marker);
            if let Some(label_filter) = &side.filter {
                // The label of a file read once names this side's filter.
                set.label = format!(
                    "{} (filter {})",
                    side.source.path().display(),
                    label_filter.text
                );
            }
            set
        }
        _ => set,
    }
}
