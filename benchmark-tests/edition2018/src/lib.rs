//! Nothing: the package exists for its benchmark (`benches/compat_edition2018.rs`).
