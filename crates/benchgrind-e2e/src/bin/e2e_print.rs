//! Twenty library benchmarks that print their own id, and binary benchmarks that print too: for
//! the `--nocapture` tests (output under its own header, with the fork server and `--jobs`).

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

#[library_benchmark]
#[benches::ids(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)]
fn prints(id: u64) -> u64 {
    println!("printed by prints ids_{id}");
    eprintln!("stderr of prints ids_{id}");
    black_box(id * 2)
}

library_benchmark_group!(name = print_group; benchmarks = prints);

main!(library_benchmark_groups = print_group);
