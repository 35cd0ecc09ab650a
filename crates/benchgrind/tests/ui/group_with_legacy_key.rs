use benchgrind::{binary_benchmark, binary_benchmark_group, main};

fn before() {}

#[binary_benchmark]
fn bench_true() -> benchgrind::Command {
    benchgrind::Command::new("/bin/true").build()
}

binary_benchmark_group!(
    name = my_group;
    before = before;
    benchmarks = bench_true
);

main!(binary_benchmark_groups = my_group);
