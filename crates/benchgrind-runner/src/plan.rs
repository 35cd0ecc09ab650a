//! Stage 2b of the pipeline, plan: the registered benchmarks, the command line and the
//! environment become a list of jobs, each with its folded configuration and its directory.
//! Configuration errors stop here, before Valgrind runs at all.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::args::Cli;
use crate::config::{resolve, ResolvedConfig};
use crate::spec::Main;
use crate::store::BenchPaths;
use crate::tools::ValgrindTool;

/// The names that identify one benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchId {
    /// The bench target (`CARGO_CRATE_NAME`).
    pub file: &'static str,
    /// The group's name.
    pub group: &'static str,
    /// The benchmark function's name.
    pub function: &'static str,
    /// The bench's id, if it has one.
    pub id: Option<&'static str>,
    /// The arguments as written.
    pub args: &'static str,
}

impl BenchId {
    /// `file::group::function::id`, as filters and JSON use it.
    pub fn full(&self) -> String {
        match self.id {
            Some(id) => format!("{}::{}::{}::{id}", self.file, self.group, self.function),
            None => format!("{}::{}::{}", self.file, self.group, self.function),
        }
    }

    /// `file::group::function`, the first part of the header line.
    pub fn path(&self) -> String {
        format!("{}::{}::{}", self.file, self.group, self.function)
    }

    /// `id:args` (or just `id`, or nothing), the second part of the header line.
    pub fn id_and_args(&self) -> String {
        match (self.id, self.args.is_empty()) {
            (Some(id), false) => format!("{id}:{}", self.args),
            (Some(id), true) => id.to_owned(),
            (None, false) => self.args.to_owned(),
            (None, true) => String::new(),
        }
    }
}

/// One benchmark to run.
#[derive(Debug, Clone)]
pub struct Job {
    /// Indices of group, function and bench in [`Main`]; the measured process finds its bench
    /// by them.
    pub index: [usize; 3],
    /// The benchmark's names.
    pub id: BenchId,
    /// The benchmark function's full path, as Valgrind's tools print it.
    pub function_path: &'static str,
    /// The folded configuration.
    pub config: ResolvedConfig,
    /// The benchmark's files.
    pub paths: BenchPaths,
}

/// The jobs, in registration order.
#[derive(Debug)]
pub struct Plan {
    /// The root of all output files.
    pub home: PathBuf,
    /// The selected benchmarks.
    pub jobs: Vec<Job>,
}

/// Resolves configs and paths below `home` and applies the filters.
pub fn plan(main: &Main, cli: &Cli, home: PathBuf) -> Result<Plan, String> {
    let mut groups = HashSet::new();
    let mut jobs = Vec::new();
    for (g, group) in main.groups.iter().enumerate() {
        if !groups.insert(group.name) {
            return Err(format!(
                "the group `{}` is given twice to main!; each group may run once",
                group.name
            ));
        }
        let mut functions = HashSet::new();
        for (f, function) in group.functions.iter().enumerate() {
            if !functions.insert(function.name) {
                return Err(format!(
                    "the benchmark function `{}` is listed twice in the group `{}`; list it once",
                    function.name, group.name
                ));
            }
            for (b, bench) in function.benches.iter().enumerate() {
                let id = BenchId {
                    file: main.bench_file,
                    group: group.name,
                    function: function.name,
                    id: bench.id,
                    args: bench.args,
                };
                if !cli.selects(&id.full()) {
                    continue;
                }
                let config = resolve([
                    main.config.as_ref(),
                    group.config.as_ref(),
                    function.config.as_ref(),
                    bench.config.as_ref(),
                ]);
                if config
                    .tools
                    .iter()
                    .any(|t| t.kind() == ValgrindTool::Callgrind)
                {
                    return Err(format!(
                        "{}: Tool::new(ValgrindTool::Callgrind) in its config; Callgrind always \
                         runs, give its arguments with raw_callgrind_args",
                        id.full()
                    ));
                }
                let paths = BenchPaths::new(
                    &home,
                    main.package,
                    main.bench_file,
                    group.name,
                    function.name,
                    bench.id,
                );
                jobs.push(Job {
                    index: [g, f, b],
                    id,
                    function_path: function.path,
                    config,
                    paths,
                });
            }
        }
    }
    Ok(Plan { home, jobs })
}
