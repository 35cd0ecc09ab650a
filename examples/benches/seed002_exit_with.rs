//! Seed 002 (iai-callgrind 0.10): an expected exit code other than 0, with only the crate path
//! changed. The `main!` around the seed's fragment tells `my-exe` (through `MY_EXE_EXIT`) to
//! exit with 100, the code the group expects.

use benchgrind::{
    binary_benchmark_group, main, Arg, BinaryBenchmarkConfig, ExitWith, Options, Run,
};

binary_benchmark_group!(
name = my_exe_group;
benchmark = |"my-exe", group: &mut BinaryBenchmarkGroup| {
    group.bench(
        Run::with_arg(
            Arg::empty("some id")
        )
        .options(Options::default().exit_with(ExitWith::Code(100)))
    );
});

main!(
    config = BinaryBenchmarkConfig::default().env("MY_EXE_EXIT", "100");
    binary_benchmark_groups = my_exe_group
);
