//! A user's binary benchmark of the package's program, as the README shows it.

use benchgrind::{binary_benchmark, binary_benchmark_group, main};

#[binary_benchmark]
#[bench::twenty("20")]
fn bench_tool(n: &str) -> benchgrind::Command {
    benchgrind::Command::new(env!("CARGO_BIN_EXE_user-tool"))
        .arg(n)
        .build()
}

binary_benchmark_group!(name = binary; benchmarks = bench_tool);

main!(binary_benchmark_groups = binary);
