//! Nothing: the package exists for its benchmark (`benches/renamed.rs`), whose dependency on
//! benchgrind goes by the name `gungraun`.
