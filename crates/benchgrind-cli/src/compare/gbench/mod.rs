//! `benchgrind gbench BINARY`: exact counts of each Google Benchmark benchmark of a C++ binary.
//!
//! The pipeline: `args` -> `discover` (list the benchmarks, probe fixed iterations; native) ->
//! `measure` (each benchmark alone under Callgrind via `callgrind`, its loop only) -> `table` on
//! stdout -> `gbjson` with `--out` -> exit code. `compare --metric` uses `measure` for each side
//! and turns the result into a `compare` result set ([`measure::result_set`]).

pub mod args;
pub mod callgrind;
pub mod discover;
pub mod gbjson;
pub mod measure;
mod table;
pub mod text;

use std::io::{self, Write};

use std::path::Path;

use anyhow::{Context, Result};
use benchgrind_runner::config::EventKind;

use crate::compare::model::ResultSet;

use crate::exit::Outcome;

/// Measures the benchmarks of `config.binary`: failed when one of them failed.
pub fn run(config: &args::Config) -> Result<Outcome> {
    let valgrind = config.valgrind.locate().map_err(anyhow::Error::msg)?;
    let measurement = measure::measure(
        &valgrind,
        &config.binary,
        config.filter.as_deref(),
        config.iterations,
        &mut |line| crate::messages::note!("{line}"),
    )?;
    let mut out = io::stdout().lock();
    let written = table::write(&measurement, config.metric, &mut out).and_then(|()| out.flush());
    match written {
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(anyhow::Error::new(e).context("cannot write the table"))
        }
        _ => {}
    }
    if let Some(path) = &config.out {
        let env = environment(&valgrind);
        gbjson::write(path, &measurement, config.metric, &env)?;
    }
    let failed = measurement.failures().count();
    if failed > 0 {
        crate::messages::error!(
            "{failed} of {} benchmark{} failed (listed above)",
            measurement.benchmarks.len(),
            if measurement.benchmarks.len() == 1 {
                ""
            } else {
                "s"
            }
        );
        return Ok(Outcome::Failed);
    }
    Ok(Outcome::Done)
}

/// Valgrind as the bench harness finds it (`BENCHGRIND_VALGRIND`, else `PATH`), version checked.
pub fn locate_valgrind() -> Result<benchgrind_runner::execute::valgrind::Valgrind> {
    benchgrind_runner::execute::valgrind::locate().map_err(anyhow::Error::msg)
}

/// The run's facts for the JSON context.
pub fn environment(
    valgrind: &benchgrind_runner::execute::valgrind::Valgrind,
) -> gbjson::Environment {
    gbjson::Environment::now(valgrind.name())
}

/// One side of `compare --metric`: the benchmarks of `binary` measured, their Google Benchmark
/// JSON kept at `keep` if asked, as a result set labelled `label`.
pub fn measure_side(
    binary: &Path,
    filter: Option<&str>,
    metric: EventKind,
    keep: Option<&Path>,
    label: String,
) -> Result<ResultSet> {
    let valgrind = locate_valgrind()?;
    let measurement = measure::measure(&valgrind, binary, filter, None, &mut |line| {
        crate::messages::note!("{}: {line}", binary.display())
    })?;
    if let Some(path) = keep {
        gbjson::write(path, &measurement, metric, &environment(&valgrind))
            .with_context(|| format!("keeping the results of `{}`", binary.display()))?;
    }
    Ok(measure::result_set(&measurement, metric, &label))
}
