// The binary half of the anchor suite, for gungraun 0.20.
use gungraun::{binary_benchmark, binary_benchmark_group, main};

#[binary_benchmark]
#[bench::source("src/lib.rs")]
#[bench::manifest("Cargo.toml")]
fn my_foo(path: &str) -> gungraun::Command {
    gungraun::Command::new(env!("CARGO_BIN_EXE_my-foo")).arg(path).build()
}

binary_benchmark_group!(name = anchor_bin; benchmarks = my_foo);

main!(binary_benchmark_groups = anchor_bin);
