//! What `suite build` and `suite clean` share: one step per selected engine of `engines.toml`,
//! in file order, a line per engine, and the engines that failed listed at the end. One engine
//! failing does not stop the others.

use std::path::Path;

use super::{
    flags::Filter,
    format::engines::{self, Engine},
};
use crate::exit::Outcome;

/// Runs `step` for every engine that passes `filter`; `verb` (build, clean) names the step in
/// the lines printed. A step returns the line for an engine done, e.g. `build complete`.
pub fn each(
    dir: &Path,
    filter: &Filter,
    verb: &str,
    step: impl Fn(&Engine) -> anyhow::Result<String>,
) -> anyhow::Result<Outcome> {
    let engines = engines::load(dir)?;
    let mut failed = vec![];
    for e in engines.selected(filter) {
        match step(e) {
            Ok(done) => println!("{}: {done}", e.name),
            Err(err) => {
                println!("{}: {verb} failed: {err:#}", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    if failed.is_empty() {
        return Ok(Outcome::Done);
    }
    crate::messages::error!(
        "{} engine(s) failed to {verb}: {}",
        failed.len(),
        failed.join(", ")
    );
    Ok(Outcome::Failed)
}
