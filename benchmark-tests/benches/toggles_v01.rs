//! A user's `--toggle-collect` in the plain-function form of iai 0.1 to iai-callgrind 0.8
//! (`main!(callgrind_args = ...; functions = ...)`, the argument without its dashes as
//! lambdaworks-math writes it): the benchmarks are counted, and the function the pattern names
//! is left out where a benchmark calls it. `tests/compat.rs` compares the counts with those of
//! the same bodies without the option (`toggles_v01_none`).

use benchgrind::{black_box, main};

include!("toggles/bodies.rs");

include!("toggles/plain.rs");

main!(
    callgrind_args = "toggle-collect=*helper_square_sum*";
    functions = plain, calls_helper
);
