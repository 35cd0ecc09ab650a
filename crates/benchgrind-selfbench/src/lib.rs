//! benchgrind's own hot paths as library benchmarks (`benches/hot_paths.rs`), run by `.ci/run`
//! with hard limits on their instruction counts: a change that makes the runner do more work per
//! benchmark fails CI as a user's regression would. This library holds the inputs.

use benchgrind_runner::error::FileResult;
use std::path::{Path, PathBuf};

/// A fixture of this package by file name.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A fixture's bytes.
pub fn read_fixture(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path)
        .file_op("read", &path)
        .unwrap_or_else(|e| panic!("{e}"))
}
