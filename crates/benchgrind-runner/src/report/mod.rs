//! Stage 7 of the pipeline, report: what the user sees of each benchmark and of the whole run.

pub mod terminal;
