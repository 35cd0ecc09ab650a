//! Stage 1 of the pipeline, register: the data the macros generate for a bench binary.
//!
//! `main!` builds one [`Main`] from the groups, each group lists its functions, each function its
//! benches. Nothing here runs Valgrind; [`crate::plan`] turns this list into jobs.

use crate::config::{BinaryBenchmark, BinaryBenchmarkConfig, LibraryBenchmarkConfig};

/// Everything `main!` registered for one bench binary.
#[derive(Debug)]
pub struct Main {
    /// The package the bench target belongs to (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// The bench target's crate name (`CARGO_CRATE_NAME`), the first part of every id.
    pub bench_file: &'static str,
    /// The package's directory (`CARGO_MANIFEST_DIR`): the working directory of benchmarks.
    pub manifest_dir: &'static str,
    /// The workspace's directory, where relative fixture paths start.
    pub workspace_root: &'static str,
    /// The `config` of `main!` for library benchmarks.
    pub config: Option<LibraryBenchmarkConfig>,
    /// The library benchmark groups, in the order given to `main!`.
    pub groups: Vec<Group>,
    /// The `config` of `main!` for binary benchmarks.
    pub binary_config: Option<BinaryBenchmarkConfig>,
    /// The binary benchmark groups, in the order given to `main!`.
    pub binary_groups: Vec<BinaryGroup>,
    /// The `setup` of `main!`: runs once before all benchmarks, in the harness, not measured.
    pub setup: Option<fn()>,
    /// The `teardown` of `main!`: runs once after all benchmarks, in the harness, not measured.
    pub teardown: Option<fn()>,
}

/// One `binary_benchmark_group!`.
#[derive(Debug)]
pub struct BinaryGroup {
    /// The group's `name`.
    pub name: &'static str,
    /// The group's `config`.
    pub config: Option<BinaryBenchmarkConfig>,
    /// Whether benches with the same id in different benchmarks are compared with each other.
    pub compare_by_id: bool,
    /// `max_parallel`: at most this many of the group's benchmarks run at the same time
    /// (`None` or `Some(0)`: as many as there are workers).
    pub max_parallel: Option<usize>,
    /// Runs once before the group's benchmarks, in the harness, not measured (unless
    /// `measured_hooks` has it and the plan its job: then that job measures it in its place).
    pub setup: Option<fn()>,
    /// Runs once after the group's benchmarks, in the harness, not measured (unless
    /// `measured_hooks` has it).
    pub teardown: Option<fn()>,
    /// The benchmarks, from `#[binary_benchmark]` functions or the low-level API.
    pub benchmarks: Vec<BinaryBenchmark>,
    /// The hooks of an iai-callgrind 0.10 group given with `bench = true`, which are measured
    /// as benchmarks of their own (empty for every other form).
    pub measured_hooks: &'static [MeasuredHook],
}

/// A hook of an iai-callgrind 0.10 group (or of the all-in-`main!` form) that is measured:
/// `before = run_before, bench = true;`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredHook {
    /// Which hook.
    pub kind: HookKind,
    /// The hook as written (`run_before`), for the header.
    pub name: &'static str,
}

/// The four hooks of an iai-callgrind 0.10 binary benchmark group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookKind {
    /// Runs once before the group's benchmarks.
    Before,
    /// Runs once after the group's benchmarks.
    After,
    /// Runs before every command.
    Setup,
    /// Runs after every command.
    Teardown,
}

impl HookKind {
    /// The hook's key in the macros, and the id of its measurement.
    pub fn name(self) -> &'static str {
        match self {
            HookKind::Before => "before",
            HookKind::After => "after",
            HookKind::Setup => "setup",
            HookKind::Teardown => "teardown",
        }
    }

    /// The kind named `name` ([`HookKind::name`]).
    pub fn from_name(name: &str) -> Option<HookKind> {
        [
            HookKind::Before,
            HookKind::After,
            HookKind::Setup,
            HookKind::Teardown,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// One `library_benchmark_group!`.
#[derive(Debug)]
pub struct Group {
    /// The group's `name`.
    pub name: &'static str,
    /// The group's `config`.
    pub config: Option<LibraryBenchmarkConfig>,
    /// Whether benches with the same id in different functions are compared with each other.
    pub compare_by_id: bool,
    /// `max_parallel`: at most this many of the group's benchmarks run at the same time
    /// (`None` or `Some(0)`: as many as there are workers).
    pub max_parallel: Option<usize>,
    /// Runs once before the group's benchmarks, in the harness, not measured.
    pub setup: Option<fn()>,
    /// Runs once after the group's benchmarks, in the harness, not measured.
    pub teardown: Option<fn()>,
    /// The `#[library_benchmark]` functions in the order given to `benchmarks`.
    pub functions: Vec<Function>,
}

/// One `#[library_benchmark]` function with its benches.
#[derive(Debug)]
pub struct Function {
    /// The function's name.
    pub name: &'static str,
    /// The function's full path (`crate::module::function`), how Valgrind's tools name it in
    /// stacks; DHAT's totals are restricted to allocations under it.
    pub path: &'static str,
    /// The `config` of `#[library_benchmark(config = ...)]`.
    pub config: Option<LibraryBenchmarkConfig>,
    /// The function's benches, one per `#[bench]` and one per argument of `#[benches]`.
    pub benches: Vec<LibBench>,
}

/// One library benchmark: an id, its arguments as written, and the code that runs it.
#[derive(Debug)]
pub struct LibBench {
    /// The part after `bench::`, or `None` for a function without `#[bench]` attributes.
    pub id: Option<&'static str>,
    /// The arguments as written in the source, for the header line.
    pub args: &'static str,
    /// The `config` of this `#[bench]`/`#[benches]`.
    pub config: Option<LibraryBenchmarkConfig>,
    /// Runs setup, the measured body and teardown, in the measured process.
    pub run: fn(),
    /// For `#[benches::id(iter = ...)]`: how many items the expression gives (evaluated when
    /// the benchmarks are planned). The bench then stands for that many benches, `id_0`,
    /// `id_1`, ..., each running `run` on its item.
    pub iter: Option<fn() -> usize>,
}
