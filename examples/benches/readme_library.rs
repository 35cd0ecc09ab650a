// The library-benchmark examples of the seed README, each in its own module and with only the
// crate path changed. Where the seed leaves a part out (`/* ... */`), the smallest completion is
// filled in and marked.

/// "The #[library_benchmark] attribute in more detail".
mod attribute {
    use benchgrind::{library_benchmark, library_benchmark_group};

    #[library_benchmark]
    #[bench::first(21)]
    fn my_bench(value: u64) -> u64 {
        // benchmark something (completed: the seed's body returns nothing)
        value * 2
    }

    library_benchmark_group!(name = my_group; benchmarks = my_bench);
}

/// The `some_setup_func` variant of the quickstart.
mod setup_function_in_args {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    use benchgrind_examples::fibonacci;

    fn some_setup_func(value: u64) -> u64 {
        value + 10
    }

    #[library_benchmark]
    #[bench::long(some_setup_func(10))] // the seed has 30: fib(40) is 3.3e9 instructions, a minute under Callgrind
    fn bench_fibonacci(value: u64) -> u64 {
        black_box(fibonacci(value))
    }

    library_benchmark_group!(name = setup_in_args; benchmarks = bench_fibonacci);
}

/// The `setup` parameter.
mod setup {
    use benchgrind::{library_benchmark, library_benchmark_group};

    fn my_setup(value: u64) -> String {
        format!("{value}")
    }

    fn my_other_setup(value: u64) -> String {
        format!("{}", value + 10)
    }

    #[library_benchmark(setup = my_setup)]
    #[bench::first(21)]
    #[benches::multiple(42, 84)]
    #[bench::last(args = (102), setup = my_other_setup)]
    fn my_bench(value: String) {
        println!("{value}");
    }

    library_benchmark_group!(name = setup_group; benchmarks = my_bench);
}

/// The `teardown` parameter.
mod teardown {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    fn my_teardown(value: usize) {
        println!("The length of the input string was: {value}");
    }

    fn my_other_teardown(value: usize) {
        if value != 3 {
            panic!("The length of the input string was: {value} but expected it to be 3");
        }
    }

    #[library_benchmark(teardown = my_teardown)]
    #[bench::first("1")]
    #[benches::multiple("42", "84")]
    #[bench::last(args = ("104"), teardown = my_other_teardown)]
    fn my_bench(value: &str) -> usize {
        // Let's benchmark the `len` function
        black_box(value.len())
    }

    library_benchmark_group!(name = teardown_group; benchmarks = my_bench);
}

/// "Specify multiple benchmarks at once with the #[benches] attribute", both forms.
mod benches_attribute {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use benchgrind_examples::bubble_sort;
    use std::hint::black_box;

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

    #[library_benchmark]
    #[bench::multiple_0(vec![1])]
    #[bench::multiple_1(vec![5])]
    #[bench::with_setup_0(setup_worst_case_array(1))]
    #[bench::with_setup_1(setup_worst_case_array(5))]
    fn bench_bubble_sort_with_bench_attributes(input: Vec<i32>) -> Vec<i32> {
        black_box(bubble_sort(input))
    }

    library_benchmark_group!(
        name = benches_group;
        compare_by_id = true;
        benchmarks =
            bench_bubble_sort_with_benches_attribute,
            bench_bubble_sort_with_bench_attributes
    );
}

/// The `file` parameter, and its `args` equivalent.
mod file {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    // The seed names this file `benches/inputs`; here it lives in the examples package.
    #[library_benchmark]
    #[benches::by_file(file = "examples/benches/inputs/numbers")]
    fn some_bench(line: String) -> Result<u64, String> {
        black_box(benchgrind_examples::string_to_u64(line))
    }

    #[library_benchmark]
    #[benches::by_file(args = [1.to_string(), 11.to_string(), 111.to_string()])]
    fn some_bench_with_args(line: String) -> Result<u64, String> {
        black_box(benchgrind_examples::string_to_u64(line))
    }

    library_benchmark_group!(
        name = file_group;
        compare_by_id = true;
        benchmarks = some_bench, some_bench_with_args
    );
}

/// "Configuration" at the four levels; `envs` add up from main to bench.
mod configuration {
    use benchgrind::{library_benchmark, library_benchmark_group, LibraryBenchmarkConfig};

    fn read_env() -> String {
        ["MAIN_LEVEL", "GROUP_LEVEL", "FUNCTION_LEVEL", "BENCH_LEVEL"]
            .map(|k| std::env::var(k).unwrap_or_else(|_| "-".into()))
            .join(",")
    }

    fn expect_all_levels(seen: String) {
        assert_eq!(
            seen, "main,group,function,bench",
            "envs must add up across levels"
        );
    }

    #[library_benchmark(config = LibraryBenchmarkConfig::default().env("FUNCTION_LEVEL", "function"))]
    #[bench::some_id(
        args = (),
        config = LibraryBenchmarkConfig::default().env("BENCH_LEVEL", "bench"),
        teardown = expect_all_levels
    )]
    fn all_levels() -> String {
        read_env()
    }

    library_benchmark_group!(
        name = some_name;
        config = LibraryBenchmarkConfig::default().env("GROUP_LEVEL", "group");
        benchmarks = all_levels
    );
}

/// "Show terminal output of benchmarks": run with `-- --nocapture` to see the output.
mod nocapture {
    use benchgrind::{library_benchmark, library_benchmark_group};

    fn my_teardown(value: u64) {
        eprintln!("Error output during teardown: {value}");
    }

    fn to_be_benchmarked(value: u64) -> u64 {
        println!("Output to stdout: {value}");
        value + 10
    }

    #[library_benchmark]
    #[bench::some_id(args = (10), teardown = my_teardown)]
    fn my_bench(value: u64) -> u64 {
        to_be_benchmarked(value)
    }

    library_benchmark_group!(
        name = my_bench_group;
        benchmarks = my_bench
    );
}

/// An empty body: the measured window's own cost.
mod empty {
    use benchgrind::{library_benchmark, library_benchmark_group};

    #[library_benchmark]
    fn empty() {}

    library_benchmark_group!(name = empty_group; benchmarks = empty);
}

use benchgrind::{main, LibraryBenchmarkConfig};

main!(
    config = LibraryBenchmarkConfig::default().env("MAIN_LEVEL", "main");
    library_benchmark_groups =
        attribute::my_group,
        setup_function_in_args::setup_in_args,
        setup::setup_group,
        teardown::teardown_group,
        benches_attribute::benches_group,
        file::file_group,
        configuration::some_name,
        nocapture::my_bench_group,
        empty::empty_group
);
