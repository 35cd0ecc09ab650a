use benchgrind::{binary_benchmark, binary_benchmark_group};

#[binary_benchmark]
fn bench() -> benchgrind::Command {
    benchgrind::Command::new("/bin/true").build()
}

binary_benchmark_group!(
    name = my_group;
    max_parallel = "two";
    benchmarks = bench
);

fn main() {}
