//! Flamegraphs from the Callgrind call graph of a benchmark: regular ones of the new run and
//! differential ones against the previous run or the baseline, written as SVGs next to the
//! profile (`callgrind.Ir.flamegraph.svg`, `callgrind.Ir.diff.flamegraph.svg`). The stacks come
//! from `stacks`; rendering is inferno's. Both graphs come from the profiles the harness read
//! anyway ([`crate::parse::profile::Profile::graph`]).

mod stacks;

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::path::PathBuf;

use crate::config::{Direction, EventKind, FlamegraphConfig, FlamegraphKind};
use crate::parse::profile::CallGraph;
use crate::store::{self, BenchPaths};
pub use stacks::folded;

/// The SVG of one metric: `callgrind.<Metric>.flamegraph.svg` or `...diff.flamegraph.svg`.
pub fn svg_path(paths: &BenchPaths, event: EventKind, differential: bool) -> PathBuf {
    let diff = if differential { ".diff" } else { "" };
    paths
        .dir
        .join(format!("callgrind.{}{diff}.flamegraph.svg", event.name()))
}

/// Whether `config` draws a differential flamegraph, for which the old profile's call graph is
/// read.
pub fn wants_old(config: &FlamegraphConfig) -> bool {
    matches!(
        config.kind_or_default(),
        FlamegraphKind::Differential | FlamegraphKind::All
    )
}

/// Draws the configured flamegraphs of `new`, the differential ones against `old` (the graph
/// and what it is: `previous run`, `baseline NAME`) when given; returns the files written.
pub fn write(
    config: &FlamegraphConfig,
    paths: &BenchPaths,
    title: &str,
    new: &CallGraph,
    old: Option<(&CallGraph, &str)>,
) -> Result<Vec<PathBuf>, Problem> {
    let kind = config.kind_or_default();
    if kind == FlamegraphKind::None {
        return Ok(Vec::new());
    }
    let mut written = Vec::new();
    for event in config.events() {
        let new_folded = folded(new, event)?;
        let title = config
            .title
            .clone()
            .unwrap_or_else(|| format!("{title} - {}", event.name()));
        if matches!(kind, FlamegraphKind::Regular | FlamegraphKind::All) {
            let path = svg_path(paths, event, false);
            let svg = render(config, &title, None, event, &new_folded)?;
            store::write_atomic(&path, &svg).file_op("write", &path)?;
            written.push(path);
        }
        if let (true, Some((old, old_name))) = (wants_old(config), old) {
            let old_folded = folded(old, event)?;
            let mut diff = Vec::new();
            let options = inferno::differential::Options {
                normalize: config.normalize_differential.unwrap_or(false),
                strip_hex: false,
            };
            inferno::differential::from_readers(
                options,
                old_folded.as_bytes(),
                new_folded.as_bytes(),
                &mut diff,
            )
            .map_err(|e| problem!("cannot compare the call graphs: {e}"))?;
            let diff = String::from_utf8_lossy(&diff).into_owned();
            let subtitle = format!("differential: this run vs {old_name}");
            let svg = render(config, &title, Some(&subtitle), event, &diff)?;
            let path = svg_path(paths, event, true);
            store::write_atomic(&path, &svg).file_op("write", &path)?;
            written.push(path);
        }
    }
    Ok(written)
}

fn render(
    config: &FlamegraphConfig,
    title: &str,
    subtitle: Option<&str>,
    event: EventKind,
    folded: &str,
) -> Result<Vec<u8>, Problem> {
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_owned();
    options.subtitle = config.subtitle.clone().or(subtitle.map(str::to_owned));
    options.negate_differentials = config.negate_differential.unwrap_or(false);
    options.count_name = event.name().to_owned();
    options.direction = match config.direction.unwrap_or_default() {
        Direction::BottomToTop => inferno::flamegraph::Direction::Straight,
        Direction::TopToBottom => inferno::flamegraph::Direction::Inverted,
    };
    if let Some(width) = config.min_width {
        options.min_width = width;
    }
    // Same colors for the same names in every run, so two SVGs can be compared by eye.
    options.hash = true;
    options.deterministic = true;
    let mut svg = Vec::new();
    inferno::flamegraph::from_reader(&mut options, folded.as_bytes(), &mut svg)
        .map_err(|e| problem!("cannot draw the {} flamegraph: {e}", event.name()))?;
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_subtitle_is_drawn() {
        let mut config = FlamegraphConfig::default();
        config.subtitle("my subtitle").negate_differential(true);
        let svg = render(&config, "title", None, EventKind::Ir, "main;work 10\n").unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("my subtitle"));
    }
}
