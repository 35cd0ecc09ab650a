// The binary-benchmark examples of the seed README, each in its own module and with only the
// crate path changed, run against this package's `my-foo` binary. Two changes were needed
// because the seed's code cannot compile or find its files as written; both are marked.

/// "Quickstart", the high-level API.
mod quickstart {
    use benchgrind::{binary_benchmark, binary_benchmark_group};

    #[binary_benchmark]
    #[bench::some_id("foo.txt")]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(
        name = my_group;
        benchmarks = bench_binary
    );
}

/// "Quickstart", the low-level API (the seed names `BinaryBenchmarkGroup` without importing it).
mod low_level {
    use benchgrind::{binary_benchmark_group, Bench, BinaryBenchmark};

    binary_benchmark_group!(
        // Renamed from the seed's `my_group`: group names are ids and must be unique in a file.
        name = my_low_level_group;
        benchmarks = |group: &mut BinaryBenchmarkGroup| {
            group.binary_benchmark(BinaryBenchmark::new("bench_binary")
                .bench(Bench::new("some_id")
                    .command(benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
                        .arg("foo.txt")
                        .build()
                    )
                )
            )
        }
    );
}

/// Building the command in the function, with stdout to the terminal or a file.
mod build_in_function {
    use benchgrind::{binary_benchmark, binary_benchmark_group};
    use std::path::PathBuf;

    #[binary_benchmark]
    #[bench::foo("foo.txt")]
    #[bench::bar("bar.json")]
    fn bench_binary(path: &str) -> benchgrind::Command {
        // We can put any code in this function which is needed to configure and
        // build the `Command`.
        let path = PathBuf::from(path);

        // Changed: the seed's `path.extension() == "txt"` compares an `Option<&OsStr>` with a
        // `&str`, which does not compile.
        let stdout = if path.extension().is_some_and(|e| e == "txt") {
            benchgrind::Stdio::Inherit
        } else {
            benchgrind::Stdio::File(path.with_extension("out"))
        };
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .stdout(stdout)
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = build_group; benchmarks = bench_binary);
}

/// "`setup` and `teardown`": an expression.
mod setup_expression {
    use benchgrind::{binary_benchmark, binary_benchmark_group};

    fn create_file() {
        std::fs::write("foo.txt", "some content").unwrap();
    }

    #[binary_benchmark]
    #[bench::foo("foo.txt", setup = create_file())]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = setup_expression_group; benchmarks = bench_binary);
}

/// "`setup` and `teardown`": paths receiving the bench's arguments.
mod setup_path {
    use benchgrind::{binary_benchmark, binary_benchmark_group};

    fn create_file(path: &str) {
        std::fs::write(path, "some content").unwrap();
    }

    fn delete_file(path: &str) {
        std::fs::remove_file(path).unwrap();
    }

    #[binary_benchmark]
    // Note the missing parentheses for `setup` of the function `create_file` which
    // tells benchgrind to pass the `args` to the `setup` function AND the
    // function `bench_binary`
    #[bench::foo(args = ("foo.txt"), setup = create_file)]
    // Same for `teardown`
    #[bench::bar(args = ("bar.txt"), setup = create_file, teardown = delete_file)]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = setup_path_group; benchmarks = bench_binary);
}

/// "The `Sandbox`".
mod sandbox {
    use benchgrind::{binary_benchmark, binary_benchmark_group, BinaryBenchmarkConfig, Sandbox};

    fn create_file(path: &str) {
        std::fs::write(path, "some content").unwrap();
    }

    #[binary_benchmark]
    #[bench::foo(
        args = ("foo.txt"),
        config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)),
        setup = create_file
    )]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = sandbox_group; benchmarks = bench_binary);
}

/// "The `Sandbox`" with fixtures.
mod fixtures {
    use benchgrind::{binary_benchmark, binary_benchmark_group, BinaryBenchmarkConfig, Sandbox};

    #[binary_benchmark]
    #[bench::foo(
        args = ("foo.txt"),
        config = BinaryBenchmarkConfig::default()
            .sandbox(Sandbox::new(true)
                // Changed: the fixture's path in this repository (the seed: "benches/foo.txt").
                .fixtures(["examples/benches/fixtures/foo.txt"])),
    )]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = fixtures_group; benchmarks = bench_binary);
}

/// `_WORKSPACE_ROOT` in setup and teardown.
mod workspace_root {
    use benchgrind::{binary_benchmark, binary_benchmark_group, BinaryBenchmarkConfig, Sandbox};
    use std::path::PathBuf;

    fn copy_fixture(path: &str) {
        let workspace_root = PathBuf::from(std::env::var_os("_WORKSPACE_ROOT").unwrap());
        std::fs::copy(
            // Changed: this repository's package and fixture directory (the seed: `foo_crate`
            // and `benches/fixtures`).
            workspace_root
                .join("examples")
                .join("benches")
                .join("fixtures")
                .join(path),
            path,
        )
        .unwrap();
    }

    // This function will fail if `bar.json` does not exist, which is fine as this
    // file is expected to be created by `my-foo`.
    fn copy_back(path: &str) {
        let workspace_root = PathBuf::from(std::env::var_os("_WORKSPACE_ROOT").unwrap());
        let dest_dir = workspace_root.join("examples").join("tmp");
        if !dest_dir.exists() {
            std::fs::create_dir(&dest_dir).unwrap();
        }
        std::fs::copy(path, dest_dir.join(path)).unwrap();
    }

    #[binary_benchmark]
    #[bench::foo(
        args = ("foo.txt"),
        config = BinaryBenchmarkConfig::default().sandbox(Sandbox::new(true)),
        setup = copy_fixture,
        teardown = copy_back("bar.json")
    )]
    fn bench_binary(path: &str) -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .arg(path)
            .build()
    }

    binary_benchmark_group!(name = workspace_root_group; benchmarks = bench_binary);
}

/// "The Command's stdin and simulating piped input".
mod piped_input {
    use benchgrind::{binary_benchmark, binary_benchmark_group, Pipe, Stdin};

    fn setup_pipe() {
        println!("The output to `Stdout` here will be the input or `Stdin` of the `Command`");
    }

    #[binary_benchmark]
    #[bench::foo(setup = setup_pipe())]
    fn bench_binary() -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo"))
            .stdin(Stdin::Setup(Pipe::Stdout))
            .build()
    }

    binary_benchmark_group!(name = piped_group; benchmarks = bench_binary);
}

/// "Configure the exit code of the Command".
mod exit_code {
    use benchgrind::{binary_benchmark, binary_benchmark_group, BinaryBenchmarkConfig, ExitWith};

    #[binary_benchmark]
    // Here, we set the expected exit code of `my-foo` to 2
    #[bench::foo(
        config = BinaryBenchmarkConfig::default().exit_with(ExitWith::Code(2))
    )]
    // Here, we don't know the exact exit code but know it is different from 0 (=success)
    #[bench::bar(
        config = BinaryBenchmarkConfig::default().exit_with(ExitWith::Failure)
    )]
    fn bench_binary() -> benchgrind::Command {
        benchgrind::Command::new(env!("CARGO_BIN_EXE_my-foo")).build()
    }

    binary_benchmark_group!(name = exit_group; benchmarks = bench_binary);
}

use benchgrind::main;

main!(
    binary_benchmark_groups = quickstart::my_group,
    low_level::my_low_level_group,
    build_in_function::build_group,
    setup_expression::setup_expression_group,
    setup_path::setup_path_group,
    sandbox::sandbox_group,
    fixtures::fixtures_group,
    workspace_root::workspace_root_group,
    piped_input::piped_group,
    exit_code::exit_group
);
