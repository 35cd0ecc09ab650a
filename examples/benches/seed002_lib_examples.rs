//! Seed 002 (iai-callgrind 0.10): the other library-benchmark examples, each in its own module
//! and with only the crate path changed. Where the seed leaves a part out (`...`) or misspells a
//! macro, the smallest completion is filled in and marked.

/// `some_setup_func` in the `#[bench]` arguments.
mod setup_in_args {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    use benchgrind_examples::fibonacci;

    fn some_setup_func(value: u64) -> u64 {
        value
    }

    #[library_benchmark]
    #[bench::long(some_setup_func(30))]
    fn bench_fibonacci(value: u64) -> u64 {
        black_box(fibonacci(value))
    }

    library_benchmark_group!(name = setup_group; benchmarks = bench_fibonacci);
}

/// `#[benches]` with plain arguments and with a setup.
mod benches {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    use benchgrind_examples::bubble_sort;

    fn setup_worst_case_array(start: i32) -> Vec<i32> {
        if start.is_negative() {
            (start..0).rev().collect()
        } else {
            (0..start).rev().collect()
        }
    }

    #[library_benchmark]
    #[benches::multiple(vec![1], vec![5])]
    #[benches::with_setup(args = [1, 5], setup = setup_worst_case_array)]
    fn bench_bubble_sort_with_benches_attribute(input: Vec<i32>) -> Vec<i32> {
        black_box(bubble_sort(input))
    }

    library_benchmark_group!(
        name = benches_group;
        benchmarks = bench_bubble_sort_with_benches_attribute
    );
}

/// Configuration at group, `#[library_benchmark]` and `#[bench]` level (the main level is the
/// `main!` below).
mod configuration {
    use benchgrind::{library_benchmark, library_benchmark_group, LibraryBenchmarkConfig};

    #[library_benchmark(config = LibraryBenchmarkConfig::default())]
    #[bench::some_id(args = (1, 2), config = LibraryBenchmarkConfig::default())]
    fn add(a: u64, b: u64) -> u64 {
        a + b
    }

    // Completed: the seed writes `library_benchmark_groups!`, a macro no version had.
    library_benchmark_group!(
        name = some_name;
        config = LibraryBenchmarkConfig::default();
        benchmarks = add
    );
}

use benchgrind::{main, LibraryBenchmarkConfig};

main!(
    config = LibraryBenchmarkConfig::default();
    library_benchmark_groups =
        setup_in_args::setup_group,
        benches::benches_group,
        configuration::some_name
);
