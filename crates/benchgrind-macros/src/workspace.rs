//! The workspace root, found at compile time: where `file = ...` inputs and fixtures start.

use std::path::{Path, PathBuf};

/// The directory of the nearest `Cargo.toml` with a `[workspace]` table above the package
/// being compiled, or the package's directory.
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let is_workspace = |dir: &Path| {
        std::fs::read_to_string(dir.join("Cargo.toml"))
            .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
    };
    manifest
        .ancestors()
        .find(|dir| is_workspace(dir))
        .map(Path::to_path_buf)
        .unwrap_or(manifest)
}
