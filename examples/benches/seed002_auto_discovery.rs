//! Seed 002 (iai-callgrind 0.10): "Auto-discovery of a crate's binary works only when specifying
//! the name of it at group level", with only the crate path changed. The group has no
//! benchmark; `main!` is added to make the fragment a bench file.

use benchgrind::{binary_benchmark_group, main};

binary_benchmark_group!(
    name = my_exe_group;
    benchmark = |"my-exe", group: &mut BinaryBenchmarkGroup| {});

main!(binary_benchmark_groups = my_exe_group);
