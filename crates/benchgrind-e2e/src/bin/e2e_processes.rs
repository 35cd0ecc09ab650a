//! Binary benchmarks whose commands start other processes, for the end-to-end tests
//! (`tests/threads.rs`): `seq` run directly, through a shell, and a program whose child does not
//! exec (`e2e_forker`, its path in `E2E_FORKER`).

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command, Stdio};

#[binary_benchmark]
#[bench::direct()]
fn seq() -> Command {
    Command::new("seq")
        .args(["1", "200000"])
        .stdout(Stdio::Null)
        .build()
}

#[binary_benchmark]
#[bench::seq("seq 1 200000 >/dev/null")]
#[bench::nothing("true")]
fn shell(script: &str) -> Command {
    Command::new("/bin/sh").args(["-c", script]).build()
}

#[binary_benchmark]
#[bench::forks()]
fn forker() -> Command {
    let program = std::env::var("E2E_FORKER").expect("E2E_FORKER names e2e_forker");
    Command::new(program).arg("100000").build()
}

binary_benchmark_group!(name = processes; benchmarks = seq, shell, forker);
main!(binary_benchmark_groups = processes);
