//! Seed 002 (iai-callgrind 0.10): switching the sandbox off at group level, with only the crate
//! path changed. The seed's group has no benchmark; `main!` is added to make the fragment a
//! bench file.

use benchgrind::{binary_benchmark_group, main};

binary_benchmark_group!(
name = my_exe_group;
benchmark = |group: &mut BinaryBenchmarkGroup| {
    group.sandbox(false);
});

main!(binary_benchmark_groups = my_exe_group);
