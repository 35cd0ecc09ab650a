//! Library benchmarks as iai-callgrind 0.13/0.14 users write them: generic benchmark functions
//! (type, lifetime and const parameters, instantiated by the `#[bench]` arguments' types) and
//! every configuration item that benchgrind took over from those versions. The e2e test
//! `compat` runs this file under Valgrind and checks what it reports.

use std::hint::black_box;

use benchgrind::{
    library_benchmark, library_benchmark_group, main, EntryPoint, LibraryBenchmarkConfig,
    OutputFormat, Tool, ValgrindTool,
};

/// The trait bound of a generic benchmark, as real crates have them.
pub trait AsBytes {
    /// The key's bytes.
    fn as_bytes(&self) -> &[u8];
}

impl AsBytes for String {
    fn as_bytes(&self) -> &[u8] {
        str::as_bytes(self)
    }
}

impl AsBytes for Vec<u8> {
    fn as_bytes(&self) -> &[u8] {
        self
    }
}

/// Clones the entries whose key starts with the first `PREFIX_LEN` bytes of the first key.
#[library_benchmark]
#[bench::strings(vec![(String::from("apple"), 1u32), (String::from("apricot"), 2), (String::from("banana"), 3)], [0u8; 2])]
#[bench::bytes(vec![(vec![1u8, 2, 3], 'a'), (vec![1, 2, 4], 'b')], [0u8; 3])]
fn bench_clone<K: AsBytes + Clone, V: Clone, const PREFIX_LEN: usize>(
    entries: Vec<(K, V)>,
    _width: [u8; PREFIX_LEN],
) -> Vec<(K, V)> {
    let first: Vec<u8> = entries[0]
        .0
        .as_bytes()
        .iter()
        .take(PREFIX_LEN)
        .copied()
        .collect();
    entries
        .iter()
        .filter(|(k, _)| k.as_bytes().starts_with(&first))
        .cloned()
        .collect()
}

/// A lifetime parameter: the result borrows from the argument (written out, as users do).
#[allow(clippy::needless_lifetimes)]
#[library_benchmark]
#[bench::words("the quick brown fox jumps over the lazy dog")]
// A reference to a temporary: it lives until the bench is done, as in a direct call.
#[bench::temporary(&"a b".repeat(20))]
fn bench_split<'a>(text: &'a str) -> Vec<&'a str> {
    black_box(text).split(' ').collect()
}

/// A type parameter with a `where` clause, instantiated twice (`u8`, `u64`).
#[library_benchmark]
#[bench::small(vec![1u8, 2, 3, 4])]
#[bench::wide(vec![1u64, 2, 3, 4])]
fn bench_sum<T>(values: Vec<T>) -> u64
where
    T: Copy + Into<u64>,
{
    values.iter().map(|&v| v.into()).sum()
}

/// `args = [..]` as real benchmarks write it: the elements are the arguments, as with a tuple;
/// for a function of one parameter the array is the argument (an array value); and a blank
/// Callgrind argument, the placeholder some keep for flags they comment in and out, is left out.
#[library_benchmark(config = LibraryBenchmarkConfig::default().raw_callgrind_args([""
    // , "--dump-instr=yes"
]))]
#[bench::pair(args = [3u64, 4])]
#[bench::parens(args = (5u64, 6))]
fn bench_array_args(a: u64, b: u64) -> u64 {
    black_box(a) * black_box(b)
}

fn make_pair(a: u64, b: u64) -> (u64, u64) {
    (a, b)
}

/// With a setup, `args = [..]` are the setup's arguments, however many the function takes.
#[library_benchmark]
#[bench::with_setup(args = [3, 4], setup = make_pair)]
fn bench_setup_array(pair: (u64, u64)) -> u64 {
    black_box(pair.0) + black_box(pair.1)
}

#[library_benchmark]
#[bench::whole(args = [1u32, 2, 3])]
fn bench_array_value(values: [u32; 3]) -> u32 {
    black_box(values).iter().sum()
}

fn line_length(line: String) -> usize {
    line.len()
}

/// With a setup, each line of `file` is the setup's argument.
#[library_benchmark]
#[benches::lines(file = "benchmark-tests/benches/fixtures/orchard.inputs", setup = line_length)]
fn bench_lines(length: usize) -> usize {
    black_box(length) * 2
}

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// Counted with `EntryPoint::Custom`: only `fibonacci_entry` and what it calls count.
#[inline(never)]
#[no_mangle]
pub fn fibonacci_entry(n: u64) -> u64 {
    fibonacci(n)
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .entry_point(EntryPoint::Custom("fibonacci_entry".to_owned()))
)]
#[bench::fib(10)]
fn bench_entry_point(n: u64) -> u64 {
    noise();
    fibonacci_entry(black_box(n))
}

/// The same work counted in the default window: the noise counts too.
#[library_benchmark]
#[bench::fib(10)]
fn bench_default_window(n: u64) -> u64 {
    noise();
    fibonacci_entry(black_box(n))
}

/// Work outside the entry point (a few thousand instructions), which the entry point leaves out.
#[inline(never)]
fn noise() {
    for i in 0..1000u64 {
        black_box(i);
    }
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::with_raw_callgrind_args(["--branch-sim=yes"])
        .raw_callgrind_args_iter(["--collect-jumps=yes"].iter())
        .callgrind_args(["--dump-instr=yes", "--simulate-wb=yes"])
        .valgrind_args(["--fair-sched=no"])
        .truncate_description(Some(12))
        .tool_override(Tool::new(ValgrindTool::DHAT))
)]
#[bench::long_description(String::from("a description longer than twelve characters"))]
fn bench_configured(text: String) -> usize {
    black_box(text).len()
}

#[library_benchmark(
    config = LibraryBenchmarkConfig::default()
        .output_format(OutputFormat::default().truncate_description(None).show_intermediate(true))
        .tools_override([])
)]
#[bench::full_description(String::from("this description is not cut even though it is long"))]
fn bench_output_format(text: String) -> usize {
    black_box(text).chars().filter(|c| *c == ' ').count()
}

/// A benchmark that starts a process, under DHAT with `--trace-children=yes` and 0.13's
/// `outfile_modifier("%p")`: each process writes its own file, the benchmark's is reported and
/// the child's is kept in `children/`.
#[library_benchmark(
    config = LibraryBenchmarkConfig::default().tool_override(
        Tool::new(ValgrindTool::DHAT)
            .args(["--trace-children=yes"])
            .outfile_modifier("%p")
    )
)]
fn bench_child_process() -> bool {
    let exe = env!("CARGO_BIN_EXE_echo");
    std::process::Command::new(black_box(exe))
        .arg("child")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
}

library_benchmark_group!(
    name = generics;
    benchmarks = bench_clone, bench_split, bench_sum, bench_array_args, bench_setup_array,
        bench_array_value, bench_lines
);

library_benchmark_group!(
    name = configs;
    config = LibraryBenchmarkConfig::default().tool(Tool::new(ValgrindTool::Memcheck));
    benchmarks = bench_entry_point, bench_default_window, bench_configured, bench_output_format,
        bench_child_process
);

fn announce_start() {
    println!("main setup ran");
}

/// A group defined in a module and re-exported by name, as crates that split their benchmarks
/// into modules write it.
mod inner {
    use benchgrind::{library_benchmark, library_benchmark_group};
    use std::hint::black_box;

    #[library_benchmark]
    #[bench::three(3)]
    fn bench_square(x: u64) -> u64 {
        black_box(x) * x
    }

    library_benchmark_group!(name = inner_group; benchmarks = bench_square);
}

pub use inner::inner_group;

main!(
    setup = announce_start;
    teardown = println!("main teardown ran");
    library_benchmark_groups = generics, configs, inner_group
);
