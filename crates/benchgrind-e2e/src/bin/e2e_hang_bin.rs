//! A binary benchmark whose command never ends (a shell that sleeps in a child), before one that
//! does, for the end-to-end test of the time limit (`tests/threads.rs`).

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command};

#[binary_benchmark]
#[bench::forever("sleep 1000; true")]
#[bench::quick("true")]
fn shell(script: &str) -> Command {
    Command::new("/bin/sh").args(["-c", script]).build()
}

binary_benchmark_group!(name = hang; benchmarks = shell);
main!(binary_benchmark_groups = hang);
