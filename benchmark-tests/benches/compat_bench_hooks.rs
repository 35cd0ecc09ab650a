//! iai-callgrind 0.10's hooks measured with `bench = true`: `before` and `after` once around the
//! group (measured in their place), `setup` and `teardown` around every command and measured
//! once more on their own. As in 0.10, the group's hooks and commands share one sandbox: a file
//! `before` writes is there for the others. Each hook appends its name and working directory to
//! the file that `COMPAT_HOOK_LOG` names, when it is set, so the test can check where and when
//! they ran.

use std::io::Write;

use benchgrind::{binary_benchmark_group, main, Arg, BinaryBenchmarkGroup, Run};

fn log(name: &str) {
    let Some(path) = std::env::var_os("COMPAT_HOOK_LOG") else {
        return;
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    let dir = std::env::current_dir().unwrap();
    writeln!(file, "{name} {}", dir.display()).unwrap();
}

/// Some work to measure: the sum of the first `n` squares, kept from being folded away.
fn work(n: u64) -> u64 {
    (1..=std::hint::black_box(n)).map(|i| i * i).sum()
}

#[inline(never)]
fn run_before() {
    log("before");
    std::fs::write("before", work(1000).to_string()).unwrap();
}

#[inline(never)]
fn run_after() {
    log("after");
    assert!(std::path::Path::new("before").exists());
}

#[inline(never)]
fn run_setup() {
    log("setup");
    assert!(std::path::Path::new("before").exists());
    std::fs::write("setup.txt", "from setup").unwrap();
}

#[inline(never)]
fn run_teardown() {
    log("teardown");
    // The setup ran before, in the same directory.
    assert_eq!(std::fs::read_to_string("setup.txt").unwrap(), "from setup");
}

binary_benchmark_group!(
    name = hooks;
    before = run_before, bench = true;
    after = run_after, bench = true;
    setup = run_setup, bench = true;
    teardown = run_teardown, bench = true;
    benchmark = |"read-file", group: &mut BinaryBenchmarkGroup| {
        group
            .bench(Run::with_arg(Arg::new("reads setup", ["setup.txt", "from setup"])))
            .bench(Run::with_arg(Arg::new("again", ["setup.txt", "from setup"])));
    }
);

main!(binary_benchmark_groups = hooks);
