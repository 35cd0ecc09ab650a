//! What `benchgrind suite` is made of: suites of benchmarks in rebar's formats, run by programs
//! in any language. The commands are in [`cmd`]; everything beside it is what they share.
//!
//! Pipeline: `format` loads `engines.toml` and `definitions/` -> `plan` picks the (benchmark,
//! engine) jobs -> `klv` encodes one benchmark -> `execute` feeds it to the engine's program via
//! `runner` (or `callgrind`, under Valgrind) and checks every sample's count -> `stats`
//! aggregates -> `results` writes rebar's CSV, full-precision CSV or JSON -> `grouped`,
//! `ranking` and `table` read those back for `cmp`, `diff`, `rank` and `report`. `flags` holds the
//! flag values every command shares; `engine_steps` runs `build` and `clean` engine by engine.

pub mod callgrind;
pub mod cmd;
pub mod engine_steps;
pub mod execute;
pub mod flags;
pub mod format;
pub mod grouped;
pub mod klv;
pub mod plan;
pub mod ranking;
pub mod results;
pub mod runner;
pub mod stats;
pub mod table;
