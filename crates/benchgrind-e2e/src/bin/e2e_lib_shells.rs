//! Library benchmarks whose bodies start shells (`std::process::Command`), for the end-to-end
//! tests (`tests/shells.rs`): a pipe of three processes, a background job and `wait`, and a
//! shell in a shell, each in `/bin/sh` and in bash (`/bin/sh` is bash on Fedora and Arch). Their
//! counts must be the same from inside a process-id namespace (a container) as outside, and
//! from a terminal as without one.

use benchgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;
use std::process::{Command, Stdio};

#[library_benchmark]
#[bench::pipeline_three("/bin/sh", "seq 1 20000 | grep 7 | wc -l")]
#[bench::background_and_wait("/bin/sh", "seq 1 2000 >/dev/null & wait; echo done")]
#[bench::nested_shells("/bin/sh", "sh -c 'sh -c \"seq 1 500 | wc -l\"'")]
#[bench::bash_pipeline_three("/bin/bash", "seq 1 20000 | grep 7 | wc -l")]
#[bench::bash_background_and_wait("/bin/bash", "seq 1 2000 >/dev/null & wait; echo done")]
#[bench::bash_nested_shells("/bin/bash", "bash -c 'bash -c \"seq 1 500 | wc -l\"'")]
fn shell(shell: &str, script: &str) -> bool {
    let status = Command::new(shell)
        .args(["-c", black_box(script)])
        .stdout(Stdio::null())
        .status()
        .expect("the shell starts");
    status.success()
}

library_benchmark_group!(name = shells; benchmarks = shell);
main!(library_benchmark_groups = shells);
