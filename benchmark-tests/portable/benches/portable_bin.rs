//! A binary benchmark of the package's own program: built for musl, a static program whose
//! counts are the same on every Linux userland. `seeded` draws random numbers from the kernel,
//! which no preload library can make deterministic in a static program: it says so.

use benchgrind::{binary_benchmark, binary_benchmark_group, main};

#[binary_benchmark]
#[bench::small(&["100"])]
#[bench::seeded(&["100", "--hash"])]
fn tool(args: &[&str]) -> benchgrind::Command {
    benchgrind::Command::new(env!("CARGO_BIN_EXE_portable-tool"))
        .args(args)
        .build()
}

binary_benchmark_group!(name = program; benchmarks = tool);

main!(binary_benchmark_groups = program);
