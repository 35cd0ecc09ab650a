//! Stage 2b of the pipeline, plan: the registered benchmarks, the command line and the
//! environment become a list of jobs, each with its folded configuration and its directory.
//! Configuration errors stop here, before Valgrind runs at all.

mod binary;
mod command_line;

use crate::error::Problem;
use crate::problem;
use std::collections::HashSet;
use std::path::PathBuf;

use crate::cli::{Cli, Reuse};
use crate::config::{
    is_file_name, resolve, Command, ExitWith, Hook, ResolvedConfig, Sandbox, ValgrindTool,
};
use crate::spec::{HookKind, LibBench, Main};
use crate::store::BenchPaths;

/// The names that identify one benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchId {
    /// The bench target (`CARGO_CRATE_NAME`).
    pub file: String,
    /// The group's name.
    pub group: String,
    /// The benchmark function's name.
    pub function: String,
    /// The id of the bench case (`#[bench::ID(...)]`, a binary benchmark's `Run`'s), if it has
    /// one: the last part of [`BenchId::full`].
    pub case: Option<String>,
    /// The arguments as written, or the command line of a binary benchmark.
    pub args: String,
    /// How many characters of `args` the header shows (`None`: all).
    pub truncate: Option<usize>,
}

impl BenchId {
    /// `file::group::function::id`, as filters and JSON use it. Parts that a form of `main!`
    /// has not (the group of `main!(a, b)`, the function of a 0.10 group) are left out.
    pub fn full(&self) -> String {
        let id = self.case.as_deref().unwrap_or("");
        join(&[&self.file, &self.group, &self.function, id])
    }

    /// `file::group::function`, the first part of the header line; for `main!(a, b)` (Iai's
    /// form) the function's name alone.
    pub fn path(&self) -> String {
        if self.group.is_empty() && !self.function.is_empty() {
            return self.function.clone();
        }
        join(&[&self.file, &self.group, &self.function])
    }

    /// `id:args` (or just `id`, or nothing), the second part of the header line; long argument
    /// lists are cut.
    pub fn id_and_args(&self) -> String {
        let args = match self.truncate {
            Some(max) if self.args.chars().count() > max => {
                let cut: String = self.args.chars().take(max).collect();
                format!("{cut}...")
            }
            _ => self.args.clone(),
        };
        match (&self.case, args.is_empty()) {
            (Some(id), false) => format!("{id}:{args}"),
            (Some(id), true) => id.clone(),
            (None, false) => args,
            (None, true) => String::new(),
        }
    }
}

/// What a job runs.
#[derive(Debug, Clone)]
pub enum JobKind {
    /// A library bench, by its indices (group, function, bench) in [`Main::groups`].
    Library([usize; 3]),
    /// A command of a binary bench.
    Binary(Box<BinaryJob>),
}

/// A binary benchmark, resolved.
#[derive(Debug, Clone)]
pub struct BinaryJob {
    /// Indices (group, benchmark, bench) in [`Main::binary_groups`]: the hooks' address in the
    /// child process.
    pub index: [usize; 3],
    /// The command.
    pub command: Command,
    /// Runs before the command (in a child process).
    pub setup: Option<Hook>,
    /// Runs after the command when it exited as expected (in a child process).
    pub teardown: Option<Hook>,
    /// The sandbox, if enabled.
    pub sandbox: Option<Sandbox>,
    /// Whether the sandbox is the group's, shared by its commands and hooks (the `Run`s of
    /// iai-callgrind 0.9 to 0.12; `execute::SharedSandbox`), not a new one for this command.
    pub shared_sandbox: bool,
    /// The expected exit.
    pub exit_with: ExitWith,
    /// The function whose inclusive cost is measured, instead of the whole process.
    pub entry_point: Option<String>,
    /// For the measurement of a hook given `bench = true` (iai-callgrind 0.10): which one. The
    /// command is then the bench binary as a hook process, which opens the measured window
    /// around the hook alone, as a library benchmark's body.
    pub hook: Option<HookKind>,
}

/// One benchmark to run.
#[derive(Debug, Clone)]
pub struct Job {
    /// The index of the job's group among library groups, then binary groups (in [`Plan::jobs`]
    /// order: all library groups come first).
    pub group: usize,
    /// At most this many jobs of the job's group run at the same time (the group's
    /// `max_parallel`; `None`: no limit but the number of workers).
    pub max_parallel: Option<usize>,
    /// What it runs.
    pub kind: JobKind,
    /// The benchmark's names.
    pub id: BenchId,
    /// The benchmark function's full path (`crate::module::function`) for library benchmarks,
    /// how Valgrind's tools name it in stacks; empty for binary benchmarks.
    pub function_path: &'static str,
    /// The folded configuration.
    pub config: ResolvedConfig,
    /// The benchmark's files.
    pub paths: BenchPaths,
    /// Whether its inputs are recorded, and its last results reused when they match
    /// ([`crate::execute::reuse`]).
    pub reuse: Reuse,
}

/// What the run does with records of inputs: nothing where no Valgrind runs.
fn reuse(cli: &Cli) -> Reuse {
    if cli.test_mode || cli.load_baseline.is_some() || cli.canned.is_some() {
        Reuse::Off
    } else {
        cli.reuse
    }
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
pub fn plan(main: &Main, cli: &Cli, home: PathBuf) -> Result<Plan, Problem> {
    if home.as_os_str().as_encoded_bytes().contains(&b'\n') {
        return Err(problem!(
            "the output directory {:?} contains a newline; choose another with --home",
            home
        ));
    }
    let mut planner = Planner {
        main,
        cli,
        home,
        groups: HashSet::new(),
        jobs: Vec::new(),
    };
    planner.library_groups()?;
    planner.binary_groups()?;
    Ok(Plan {
        home: planner.home,
        jobs: planner.jobs,
    })
}

/// The plan in the making.
struct Planner<'a> {
    main: &'a Main,
    cli: &'a Cli,
    home: PathBuf,
    /// The group names seen, library and binary.
    groups: HashSet<&'static str>,
    jobs: Vec<Job>,
}

impl Planner<'_> {
    /// Adds a benchmark's job, if the filters and the partition select it.
    fn push(
        &mut self,
        group: usize,
        kind: JobKind,
        mut id: BenchId,
        function_path: &'static str,
        mut config: ResolvedConfig,
    ) -> Result<(), Problem> {
        let cli = self.cli;
        if !cli.selects(&id.full()) {
            return Ok(());
        }
        if config
            .tools
            .iter()
            .any(|t| t.kind() == ValgrindTool::Callgrind)
        {
            return Err(problem!(
                "{}: Tool::new(ValgrindTool::Callgrind) in its config; configure Callgrind with \
                 a Callgrind value (`.tool(Callgrind::with_args([...]))`) or raw_callgrind_args, \
                 choose the tool that benchmarks with default_tool",
                id.full()
            ));
        }
        if let Some((k, n)) = cli.partition {
            if share(&id.full(), n) != k - 1 {
                return Ok(());
            }
        }
        command_line::fold(&mut config, cli);
        id.truncate = config.truncate_description;
        let paths = BenchPaths::new(
            &self.home,
            self.main.package,
            self.main.bench_file,
            &id.group,
            &id.function,
            id.case.as_deref(),
        );
        // Library groups come first in the numbering, then binary groups.
        let main = self.main;
        let max_parallel = match main.groups.get(group) {
            Some(g) => g.max_parallel,
            None => main.binary_groups[group - main.groups.len()].max_parallel,
        };
        self.jobs.push(Job {
            group,
            // 0 is no limit, as gungraun reads it.
            max_parallel: max_parallel.filter(|&n| n > 0),
            kind,
            id,
            function_path,
            config,
            paths,
            reuse: reuse(self.cli),
        });
        Ok(())
    }

    /// A group name, checked to be the only one of its name.
    fn group(&mut self, name: &'static str) -> Result<(), Problem> {
        if self.groups.insert(name) {
            Ok(())
        } else {
            Err(twice(name))
        }
    }

    /// The jobs of the library benchmark groups.
    fn library_groups(&mut self) -> Result<(), Problem> {
        let main = self.main;
        for (g, group) in main.groups.iter().enumerate() {
            self.group(group.name)?;
            let mut functions = HashSet::new();
            for (f, function) in group.functions.iter().enumerate() {
                if !functions.insert(function.name) {
                    return Err(listed_twice(function.name, group.name));
                }
                // The macro rejects a second id; one that an `iter` makes can clash still.
                let mut ids = HashSet::new();
                for (b, bench) in function.benches.iter().enumerate() {
                    for (index, id) in bench_indices(b, bench, function.name)? {
                        if !ids.insert(id.clone()) {
                            return Err(problem!(
                                "`{}` in group `{}` has two benches with the id `{}` (an \
                                 `iter = ...` numbers its benches `id_0`, `id_1`, ...); rename \
                                 one of them",
                                function.name,
                                group.name,
                                id.unwrap_or_default()
                            ));
                        }
                        let config = resolve([
                            main.config.as_ref(),
                            group.config.as_ref(),
                            function.config.as_ref(),
                            bench.config.as_ref(),
                        ]);
                        let id = BenchId {
                            file: main.bench_file.to_owned(),
                            group: group.name.to_owned(),
                            function: function.name.to_owned(),
                            case: id,
                            args: bench.args.to_owned(),
                            truncate: config.truncate_description,
                        };
                        self.push(
                            g,
                            JobKind::Library([g, f, index]),
                            id,
                            function.path,
                            config,
                        )?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The bench indices and ids of the bench at `b` of `function`: itself, or for an `iter` bench
/// one per item of its expression (`id_0`, `id_1`, ...; see [`crate::protocol::item_index`]).
fn bench_indices(
    b: usize,
    bench: &LibBench,
    function: &str,
) -> Result<Vec<(usize, Option<String>)>, Problem> {
    let Some(count) = bench.iter else {
        return Ok(vec![(b, bench.id.map(str::to_owned))]);
    };
    let id = bench.id.unwrap_or_default();
    (0..count())
        .map(|item| {
            let index = crate::protocol::item_index(b, item).ok_or_else(|| {
                problem!(
                    "`iter` of `{function}` bench `{id}` gives more items than benchgrind can \
                     number ({item} and more); split it into several #[benches] attributes"
                )
            })?;
            Ok((index, Some(format!("{id}_{item}"))))
        })
        .collect()
}

/// The non-empty parts, joined with `::`.
fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("::")
}

/// Which of `n` shares a benchmark belongs to: FNV-1a of its id, so the split is the same on
/// every machine and does not move when other benchmarks are added.
pub fn share(id: &str, n: u32) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash % u64::from(n)) as u32
}

/// Names and ids of the low-level API become directory names and parts of ids: they must be
/// file names ([`is_file_name`]), spaces allowed.
fn check_name(name: &str, what: &str, group: &str, benchmark: &str) -> Result<(), Problem> {
    // iai-callgrind 0.10's `Arg` ids have spaces ("some id"), which file names can hold.
    if is_file_name(&name.replace(' ', "_")) {
        Ok(())
    } else {
        Err(problem!(
            "the {what} {name:?} of `{benchmark}` in group `{group}` may use only letters, \
             digits, spaces, `_`, `-` and `.`"
        ))
    }
}

fn twice(group: &str) -> Problem {
    problem!("the group `{group}` is given twice to main!; each group may run once")
}

fn listed_twice(function: &str, group: &str) -> Problem {
    problem!("the benchmark `{function}` is listed twice in the group `{group}`; list it once")
}

/// A library job `f::g::FUNCTION` of the default configuration, its directory below `home`
/// made, for the unit tests of what runs jobs.
#[cfg(test)]
pub(crate) fn test_job(home: &std::path::Path, function: &str, reuse: Reuse) -> Job {
    let paths = BenchPaths::new(home, "p", "f", "g", function, None);
    std::fs::create_dir_all(&paths.dir).expect("a benchmark directory in the test's home");
    Job {
        group: 0,
        max_parallel: None,
        kind: JobKind::Library([0, 0, 0]),
        id: BenchId {
            file: "f".into(),
            group: "g".into(),
            function: function.into(),
            case: None,
            args: String::new(),
            truncate: None,
        },
        function_path: "",
        config: crate::config::resolve([]),
        paths,
        reuse,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Function, Group};

    fn run() {}

    fn three() -> usize {
        3
    }

    fn bench(id: &'static str, iter: Option<fn() -> usize>) -> LibBench {
        LibBench {
            id: Some(id),
            args: "",
            config: None,
            run,
            iter,
        }
    }

    /// One library group with `max_parallel` and the function `f` with these benches.
    fn main_of(max_parallel: Option<usize>, benches: Vec<LibBench>) -> Main {
        Main {
            package: "pkg",
            bench_file: "file",
            manifest_dir: "/nowhere",
            workspace_root: "/nowhere",
            config: None,
            groups: vec![Group {
                name: "g",
                config: None,
                compare_by_id: false,
                max_parallel,
                setup: None,
                teardown: None,
                functions: vec![Function {
                    name: "f",
                    path: "file::f",
                    config: None,
                    benches,
                }],
            }],
            binary_config: None,
            binary_groups: Vec::new(),
            setup: None,
            teardown: None,
        }
    }

    fn plan_of(main: &Main) -> Result<Plan, Problem> {
        let cli = crate::cli::parse(&["--bench".into()], &|_| None).unwrap();
        plan(main, &cli, "/nowhere/home".into())
    }

    #[test]
    fn an_iter_bench_is_a_job_per_item_with_the_item_in_its_index() {
        let main = main_of(
            Some(2),
            vec![bench("one", None), bench("many", Some(three))],
        );
        let plan = plan_of(&main).unwrap();
        let jobs: Vec<(Option<&str>, [usize; 3])> = plan
            .jobs
            .iter()
            .map(|j| match j.kind {
                JobKind::Library(index) => (j.id.case.as_deref(), index),
                _ => panic!("a library job"),
            })
            .collect();
        let item = |i| crate::protocol::item_index(1, i).unwrap();
        assert_eq!(
            jobs,
            [
                (Some("one"), [0, 0, 0]),
                (Some("many_0"), [0, 0, item(0)]),
                (Some("many_1"), [0, 0, item(1)]),
                (Some("many_2"), [0, 0, item(2)]),
            ]
        );
        assert!(plan.jobs.iter().all(|j| j.max_parallel == Some(2)));
    }

    #[test]
    fn max_parallel_0_is_no_limit() {
        let plan = plan_of(&main_of(Some(0), vec![bench("one", None)])).unwrap();
        assert_eq!(plan.jobs[0].max_parallel, None);
    }

    #[test]
    fn an_id_that_an_iter_makes_twice_is_an_error_naming_it() {
        let main = main_of(
            None,
            vec![bench("many_1", None), bench("many", Some(three))],
        );
        let Err(err) = plan_of(&main) else {
            panic!("no plan error");
        };
        assert!(
            err.contains("`f` in group `g` has two benches with the id `many_1`"),
            "{err}"
        );
    }
}
