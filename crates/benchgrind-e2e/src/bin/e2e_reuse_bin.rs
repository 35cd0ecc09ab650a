//! The binary benchmark of the tests of exact reuse (`tests/reuse.rs`): `argument` runs `seq` to
//! the number in `E2E_REUSE_ARG`, read when the command is built.

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command, Stdio};

#[binary_benchmark]
#[bench::seq()]
fn argument() -> Command {
    let arg = std::env::var("E2E_REUSE_ARG").unwrap_or_else(|_| "10".into());
    Command::new("/usr/bin/seq")
        .arg(arg)
        .stdout(Stdio::Null)
        .build()
}

binary_benchmark_group!(name = bin; benchmarks = argument);

main!(binary_benchmark_groups = bin);
