use benchgrind::{binary_benchmark, binary_benchmark_group, main};

#[binary_benchmark]
fn bench() -> benchgrind::Command {
    benchgrind::Command::new("/bin/true").build()
}

binary_benchmark_group!(name = my_group, benchmarks = [bench]);

main!(binary_benchmark_groups = []);
