use benchgrind::{binary_benchmark, binary_benchmark_group, library_benchmark, library_benchmark_group, main};

#[library_benchmark]
fn lib() {}

#[binary_benchmark]
fn bin() -> benchgrind::Command {
    benchgrind::Command::new("/bin/true").build()
}

library_benchmark_group!(name = libs; benchmarks = lib);
binary_benchmark_group!(name = bins; benchmarks = bin);

main!(library_benchmark_groups = libs; binary_benchmark_groups = bins);
