//! Binary benchmarks of shell commands whose processes fork, pipe, wait and take signals, for
//! the end-to-end tests (`tests/shells.rs`): pipes of two and three processes (the last one
//! closing its end early), command substitution, a shell in a shell, background jobs with
//! `wait`, and Python started by a bash wrapper that forks and waits, as version managers' shims
//! do. GNU sort sizes its buffer by the machine's free memory unless told a size (`-S`):
//! `free_memory` lets it, so its counts follow the machine's state, and the harness says so.

use benchgrind::{binary_benchmark, binary_benchmark_group, main, Command, Stdio};

#[binary_benchmark]
#[bench::pipe_of_two("seq 1 2000 | wc -l")]
#[bench::pipe_of_three("seq 1 3000 | sort -S 1M -rn | head -1")]
#[bench::free_memory("seq 1 3000 | sort -rn | head -1")]
#[bench::substitution("x=$(seq 1 2000 | wc -l); y=$(echo $x); echo $y")]
#[bench::nested("sh -c 'sh -c \"seq 1 500 | wc -l\"'")]
#[bench::background("seq 1 1000 >/dev/null & seq 1 2000 >/dev/null & wait; echo done")]
#[bench::own_ids("echo $$ $PPID")]
fn shell(script: &str) -> Command {
    Command::new("/bin/sh")
        .args(["-c", script])
        .stdout(Stdio::Null)
        .build()
}

/// A shim as pyenv writes them: bash that runs the program (a fork, not an exec) and waits.
#[binary_benchmark]
#[bench::python()]
fn shim() -> Command {
    Command::new("/bin/bash")
        .args([
            "-c",
            "python3 -c 'import os; print(sum(range(1000)), os.getpid())'; status=$?; exit $status",
        ])
        .stdout(Stdio::Null)
        .build()
}

binary_benchmark_group!(name = shells; benchmarks = shell, shim);
main!(binary_benchmark_groups = shells);
