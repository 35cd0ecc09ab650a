use benchgrind::{binary_benchmark_group, main};

fn before() {}

binary_benchmark_group!(
    name = my_group;
    before = before, bench = 1;
    benchmark = |"my-exe", group: &mut BinaryBenchmarkGroup| {}
);

main!(binary_benchmark_groups = my_group);
