//! `toggles_v01`'s benchmarks without its `--toggle-collect`: what `tests/compat.rs` compares
//! its counts with.

use benchgrind::{black_box, main};

include!("toggles/bodies.rs");

include!("toggles/plain.rs");

main!(plain, calls_helper);
