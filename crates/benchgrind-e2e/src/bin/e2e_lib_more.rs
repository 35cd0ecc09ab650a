//! `e2e_lib` with one more benchmark in the middle of its group: the other benchmarks must
//! count exactly as in `e2e_lib`.

include!("shared/lib_benches.rs");

#[library_benchmark]
#[bench::added(12)]
fn bench_added(value: u64) -> u64 {
    black_box(fibonacci(value) * 3)
}

library_benchmark_group!(
    name = fib_group;
    setup = std::fs::write(std::env::temp_dir().join("benchgrind-e2e-group-setup"), "ran").unwrap();
    benchmarks = bench_fibonacci, bench_added, bench_panics, bench_sort, empty
);

library_benchmark_group!(name = env_group; benchmarks = env_reader, reads_stdin_and_prints);

main!(library_benchmark_groups = fib_group, env_group);
