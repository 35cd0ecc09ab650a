//! `suite list`: the (benchmark, model, engine, version) rows that `suite measure` would run,
//! then the suite's problems. It takes `measure`'s flags (and shows its help), so that a
//! `measure` command line with `list` in its place lists what it would run.

pub use super::measure::Config;

use crate::exit::Outcome;
use crate::suite::plan;

/// Runs `suite list`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    Ok(if plan::list(&config.dir, &config.filters)? {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}
