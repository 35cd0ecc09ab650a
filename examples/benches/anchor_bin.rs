// The binary half of the anchor suite that `scripts/speed.py` measures: two small runs of this
// package's `my-foo`.
use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command};

#[binary_benchmark]
#[bench::source("src/lib.rs")]
#[bench::manifest("Cargo.toml")]
fn my_foo(path: &str) -> Command {
    Command::new(env!("CARGO_BIN_EXE_my-foo")).arg(path).build()
}

binary_benchmark_group!(name = anchor_bin; benchmarks = my_foo);

main!(binary_benchmark_groups = anchor_bin);
