//! Binary benchmarks written as for gungraun 0.20: expected signals (`ExitWith::Signal`,
//! `ExitWith::Signals`), a path as standard input, a `Delay` built by value, DHAT as the
//! default tool of a binary benchmark, and `Bench::file` (a command per line of a file).

use std::path::Path;
use std::time::Duration;

use benchgrind::{
    binary_benchmark, binary_benchmark_group, main, Bench, BinaryBenchmark, BinaryBenchmarkConfig,
    BinaryBenchmarkGroup, Command, Delay, ExitWith, Tool,
};

/// Killed by SIGABRT (6): expected as one signal, as one of several, and (failing) as code 6.
#[binary_benchmark]
#[bench::signal(ExitWith::Signal(6))]
#[bench::signals(ExitWith::Signals(vec![9, 6]))]
#[bench::not_a_code(ExitWith::Code(6))]
#[bench::other_signal(ExitWith::Signal(15))]
fn aborts(exit: ExitWith) -> Command {
    Command::new("/bin/sh")
        .args(["-c", "kill -ABRT $$"])
        .exit_with(&exit)
        .build()
}

/// Standard input from a path (relative to the package's directory): the first line must be the
/// fixture's.
#[binary_benchmark]
#[bench::fixture()]
fn stdin_from_path() -> Command {
    let delay = Delay::from_duration(Duration::from_millis(1)).poll(Duration::from_millis(1));
    Command::new("/bin/sh")
        .args(["-c", "read first; test \"$first\" = 1910"])
        .stdin(Path::new("fixtures/numbers.txt"))
        .delay(delay)
        .build()
}

/// DHAT alone on a command, named as gungraun 0.20 names it (`Tool::DHAT`).
#[binary_benchmark(config = BinaryBenchmarkConfig::default().default_tool(Tool::DHAT))]
#[bench::sort()]
fn dhat_only() -> Command {
    Command::new("/usr/bin/sort")
        .args(["-n", "fixtures/numbers.txt"])
        .build()
}

binary_benchmark_group!(
    name = values_bin;
    benchmarks = aborts, stdin_from_path, dhat_only
);

/// `seq 1 N` for each N in the file.
fn seq_to(line: String) -> Result<Command, String> {
    line.trim()
        .parse::<u64>()
        .map_err(|e| format!("not a number: {e}"))?;
    Ok(Command::new("/usr/bin/seq")
        .args(["1", line.trim()])
        .build())
}

binary_benchmark_group!(
    name = from_file;
    benchmarks = |group: &mut BinaryBenchmarkGroup| {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/seq_ends.txt");
        let mut bench = Bench::new("ends");
        bench.file(file, seq_to).expect("the file's commands");
        group.binary_benchmark(BinaryBenchmark::new("seq").bench(bench));
    }
);

main!(binary_benchmark_groups = values_bin, from_file);
