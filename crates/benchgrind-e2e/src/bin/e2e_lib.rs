//! A library-benchmark program for the end-to-end tests: a group with a panicking benchmark in
//! the middle, setup and teardown, an empty benchmark and a group-level setup.

include!("shared/lib_benches.rs");

library_benchmark_group!(
    name = fib_group;
    setup = std::fs::write(std::env::temp_dir().join("benchgrind-e2e-group-setup"), "ran").unwrap();
    benchmarks = bench_fibonacci, bench_panics, bench_sort, empty
);

library_benchmark_group!(name = env_group; benchmarks = env_reader, reads_stdin_and_prints);

main!(library_benchmark_groups = fib_group, env_group);
