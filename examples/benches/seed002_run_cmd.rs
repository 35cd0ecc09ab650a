//! Seed 002 (iai-callgrind 0.10): the command given at `Run` level with `env!`, with only the
//! crate path changed; `main!` is added to make the fragment a bench file.

use benchgrind::{binary_benchmark_group, main, Arg, Run};

binary_benchmark_group!(
name = my_exe_group;
benchmark = |group: &mut BinaryBenchmarkGroup| {
    group.bench(Run::with_cmd(env!("CARGO_BIN_EXE_my-exe"), Arg::empty("some id")));
});

main!(binary_benchmark_groups = my_exe_group);
