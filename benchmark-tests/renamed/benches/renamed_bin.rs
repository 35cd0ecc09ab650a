//! A binary benchmark as written for gungraun 0.20, under the renamed dependency (see
//! `renamed.rs`).

use gungraun::{binary_benchmark, binary_benchmark_group, main};

#[binary_benchmark]
#[bench::count(3)]
fn bench_seq(n: u32) -> gungraun::Command {
    gungraun::Command::new("seq")
        .arg(n.to_string())
        .stdout(gungraun::Stdio::Null)
        .build()
}

binary_benchmark_group!(name = commands, benchmarks = [bench_seq]);

main!(binary_benchmark_groups = commands);
