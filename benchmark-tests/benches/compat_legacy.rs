//! iai-callgrind 0.9 to 0.12's binary benchmarks beyond the seed's examples: `before`/`after`
//! around the group, `setup` around every command (in the sandbox), fixtures given to the group,
//! `Run::with_cmd_args`, `Options`, expected failures and ids made with `BenchmarkId`. A second
//! group turns the sandbox off in its config.

use benchgrind::{
    binary_benchmark_group, main, Arg, BenchmarkId, BinaryBenchmarkConfig, BinaryBenchmarkGroup,
    ExitWith, Fixtures, Options, Run,
};

const ECHO_EXE: &str = env!("CARGO_BIN_EXE_echo");

fn before() {
    println!("legacy before ran");
}

fn after() {
    println!("legacy after ran");
}

fn write_setup_file() {
    std::fs::write("setup.txt", "from setup").unwrap();
}

binary_benchmark_group!(
    name = legacy_group;
    before = before, bench = false;
    after = after, bench = false;
    setup = write_setup_file;
    benchmark = |"read-file", group: &mut BinaryBenchmarkGroup| setup_legacy_group(group)
);

// `&[...]` as 0.10's documentation wrote the arguments of `Arg::new`.
#[allow(clippy::needless_borrows_for_generic_args)]
fn setup_legacy_group(group: &mut BinaryBenchmarkGroup) {
    group
        .fixtures(Fixtures::new("benches/fixtures"))
        // The per-command setup wrote this file into the sandbox.
        .bench(Run::with_arg(Arg::new(
            "reads setup",
            ["setup.txt", "from setup"],
        )))
        // The group's fixtures were copied into the sandbox as `fixtures`.
        .bench(Run::with_arg(Arg::new(
            "reads fixture",
            &[
                "fixtures/orchard.inputs",
                "plum.txt;purple\nfig.txt;green and soft\nquince.txt;yellow, hard, fragrant\n",
            ],
        )))
        .bench(
            Run::with_arg(Arg::new("wrong content", ["setup.txt", "other"]))
                .options(Options::default().exit_with(ExitWith::Failure)),
        );
    for i in 1..=2 {
        group.bench(Run::with_cmd_args(
            ECHO_EXE,
            [Arg::new(
                BenchmarkId::with_parameter("echo", i),
                vec!["x"; i],
            )],
        ));
    }
}

binary_benchmark_group!(
    name = no_sandbox;
    config = BinaryBenchmarkConfig::default().sandbox(false);
    benchmark = |group: &mut BinaryBenchmarkGroup| {
        // Without a sandbox the command runs in the package's directory.
        group.bench(Run::with_cmd(
            env!("CARGO_BIN_EXE_read-file"),
            Arg::new(
                "package dir",
                ["benches/fixtures/orchard.inputs", "plum.txt;purple\nfig.txt;green and soft\nquince.txt;yellow, hard, fragrant\n"],
            ),
        ));
    }
);

main!(binary_benchmark_groups = legacy_group, no_sandbox);
