use benchgrind::{binary_benchmark_attribute, binary_benchmark_group, main};

binary_benchmark_group!(
    name = my_group;
    benchmarks = |group: &mut BinaryBenchmarkGroup| {
        group.binary_benchmark(binary_benchmark_attribute!("bench_true"));
    }
);

main!(binary_benchmark_groups = my_group);
