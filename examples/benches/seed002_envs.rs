//! Seed 002 (iai-callgrind 0.10): environment variables at `Run` level (`KEY=VALUE`, and a
//! pass-through `KEY`), with only the crate path changed; `main!` is added to make the fragment a
//! bench file.

use benchgrind::{binary_benchmark_group, main, Arg, Run};

binary_benchmark_group!(
name = my_exe_group;
benchmark = |"my-exe", group: &mut BinaryBenchmarkGroup| {
    group.bench(Run::with_arg(Arg::empty("some id")).envs(["KEY=VALUE", "KEY"]));
});

main!(binary_benchmark_groups = my_exe_group);
