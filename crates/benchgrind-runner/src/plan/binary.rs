//! The jobs of binary benchmark groups: one per command of each bench, with the config of the
//! most specific level that sets each value, and the names of the low-level API checked. The
//! header of a binary benchmark shows its arguments as written and the command line as
//! iai-callgrind 0.13 does (`id:("arg") -> target/release/exe arg`), or as 0.10 did for the
//! benches of a 0.10 `Run` (`id:exe "arg"`), which also run in a sandbox unless a level says
//! otherwise.

use crate::error::Problem;
use crate::problem;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{check_name, listed_twice, BenchId, BinaryJob, JobKind, Planner};
use crate::config::{
    resolve, Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, ExitWith, Hook,
    ResolvedConfig, Sandbox,
};
use crate::protocol::{HOOK_FLAG, MEASURED_HOOK, WORKSPACE_ROOT_ENV};
use crate::spec::{BinaryGroup, HookKind};

impl Planner<'_> {
    /// The jobs of the binary benchmark groups (numbered after the library groups).
    pub(super) fn binary_groups(&mut self) -> Result<(), Problem> {
        for (g, group) in self.main.binary_groups.iter().enumerate() {
            self.group(group.name)?;
            self.measured_hooks(g, group, [HookKind::Before, HookKind::Setup])?;
            let mut names = HashSet::new();
            for (f, benchmark) in group.benchmarks.iter().enumerate() {
                if !names.insert(benchmark.name.as_str()) {
                    return Err(listed_twice(&benchmark.name, group.name));
                }
                // A 0.10 group (`benchmark = |...|`) has one benchmark without a name.
                if !benchmark.name.is_empty() {
                    check_name(
                        &benchmark.name,
                        "benchmark name",
                        group.name,
                        &benchmark.name,
                    )?;
                }
                let mut ids = HashSet::new();
                for (b, bench) in benchmark.benches.iter().enumerate() {
                    let at = Place {
                        index: [g, f, b],
                        group,
                        benchmark,
                        bench,
                    };
                    self.binary_bench(&at, &mut ids)?;
                }
            }
            self.measured_hooks(g, group, [HookKind::Teardown, HookKind::After])?;
        }
        Ok(())
    }

    /// The jobs that measure the group's hooks of `kinds` given `bench = true`: the bench binary
    /// as a hook process under Valgrind, with the window around the hook alone, in the sandbox
    /// the group's `Run`s share (or the package's directory without one). `before` and `after`
    /// run in their place: the harness runs these jobs instead of calling them. `setup` and
    /// `teardown` are measured once more than they run around the commands (a teardown after an
    /// unmeasured setup, as around a command).
    fn measured_hooks(
        &mut self,
        g: usize,
        group: &BinaryGroup,
        kinds: [HookKind; 2],
    ) -> Result<(), Problem> {
        // In the order they run, however the keys were written.
        let in_order = kinds
            .iter()
            .flat_map(|&kind| group.measured_hooks.iter().filter(move |m| m.kind == kind));
        for measured in in_order {
            let id = measured.kind.name();
            check_hook_id(group, id)?;
            let Some((index, mut settled, setup)) = self.hook_place(g, group, measured.kind) else {
                // No command runs the hook: there is nothing to measure.
                continue;
            };
            // The hook process sees the environment unmeasured hooks see.
            settled.config.env_clear = false;
            let exe = std::env::current_exe().unwrap_or_else(|_| self.main.bench_file.into());
            let command = Command::new(exe)
                .args([HOOK_FLAG, MEASURED_HOOK, id])
                .args(index.map(|i| i.to_string()))
                .env(WORKSPACE_ROOT_ENV, self.main.workspace_root)
                .build();
            let job = BinaryJob {
                index,
                command,
                setup,
                teardown: None,
                // Only a group's `Run`s give a hook a sandbox: theirs, shared.
                shared_sandbox: settled.sandbox.is_some(),
                sandbox: settled.sandbox.clone(),
                exit_with: ExitWith::Success,
                entry_point: None,
                hook: Some(measured.kind),
            };
            let bench_id = BenchId {
                file: self.main.bench_file.to_owned(),
                group: group.name.to_owned(),
                function: String::new(),
                case: Some(id.to_owned()),
                args: measured.name.to_owned(),
                truncate: settled.config.truncate_description,
            };
            let group_index = self.main.groups.len() + g;
            let kind = JobKind::Binary(Box::new(job));
            self.push(group_index, kind, bench_id, "", settled.config)?;
        }
        Ok(())
    }

    /// Where a hook of `kind` is measured: its indices for the hook process, the config and
    /// sandbox of the first `Run` that has it (for `before` and `after`, the config of `main!`
    /// and the group and the first `Run`'s sandbox), and the setup that runs first (a
    /// teardown's); `None` if no `Run` has it.
    fn hook_place(
        &self,
        g: usize,
        group: &BinaryGroup,
        kind: HookKind,
    ) -> Option<([usize; 3], Settled, Option<Hook>)> {
        let mut levels = vec![self.main.binary_config.as_ref(), group.config.as_ref()];
        if matches!(kind, HookKind::Before | HookKind::After) {
            // The config of `main!` and the group; the sandbox the group's `Run`s share (its
            // first `Run`'s), if it has one, else where the harness runs them unmeasured.
            let mut settled = Settled::new(&levels, &Bench::new(""), self.main.manifest_dir);
            settled.sandbox = group.benchmarks.iter().find_map(|benchmark| {
                let bench = benchmark.benches.iter().find(|b| b.legacy)?;
                let mut levels = levels.clone();
                levels.extend([benchmark.config.as_ref(), bench.config.as_ref()]);
                Settled::new(&levels, bench, self.main.manifest_dir).sandbox
            });
            return Some(([g, 0, 0], settled, None));
        }
        let (f, b) = first_with(group, kind)?;
        let benchmark = &group.benchmarks[f];
        let bench = &benchmark.benches[b];
        levels.extend([benchmark.config.as_ref(), bench.config.as_ref()]);
        let settled = Settled::new(&levels, bench, self.main.manifest_dir);
        let setup = bench.setup.or(benchmark.setup);
        Some((
            [g, f, b],
            settled,
            setup.filter(|_| kind == HookKind::Teardown),
        ))
    }

    /// The jobs of one bench: one per command.
    fn binary_bench(&mut self, at: &Place, ids: &mut HashSet<String>) -> Result<(), Problem> {
        let Place {
            index,
            group,
            benchmark,
            bench,
        } = *at;
        if let Some(id) = &bench.id {
            check_name(id, "bench id", group.name, &benchmark.name)?;
        }
        if bench.commands.is_empty() {
            return Err(problem!(
                "the bench `{}` of `{}` in group `{}` has no command; give it one with \
                 Bench::command",
                bench.id.as_deref().unwrap_or(""),
                benchmark.name,
                group.name
            ));
        }
        let levels = [
            self.main.binary_config.as_ref(),
            group.config.as_ref(),
            benchmark.config.as_ref(),
            bench.config.as_ref(),
        ];
        let settled = Settled::new(&levels, bench, self.main.manifest_dir);
        let many = bench.commands.len() > 1;
        for (c, command) in bench.commands.iter().enumerate() {
            let id = match (&bench.id, many) {
                (Some(id), true) => Some(format!("{id}_{c}")),
                (Some(id), false) => Some(id.clone()),
                (None, true) => Some(c.to_string()),
                (None, false) => None,
            };
            if let Some(id) = &id {
                if !ids.insert(id.clone()) {
                    return Err(problem!(
                        "the bench id `{id}` appears twice in `{}` of group `{}`; ids must be \
                         unique within a benchmark",
                        benchmark.name,
                        group.name
                    ));
                }
            }
            let id = BenchId {
                file: self.main.bench_file.to_owned(),
                group: group.name.to_owned(),
                function: benchmark.name.clone(),
                case: id,
                args: header_args(bench, command, self.main.workspace_root),
                truncate: settled.config.truncate_description,
            };
            let job = settled.job(at, command);
            let group_index = self.main.groups.len() + index[0];
            let kind = JobKind::Binary(Box::new(job));
            self.push(group_index, kind, id, "", settled.config.clone())?;
        }
        Ok(())
    }
}

/// Where a bench is: its indices and its group, benchmark and own registration.
#[derive(Clone, Copy)]
struct Place<'a> {
    index: [usize; 3],
    group: &'a BinaryGroup,
    benchmark: &'a BinaryBenchmark,
    bench: &'a Bench,
}

/// What the levels of config (`main!`, group, benchmark, bench) settle on for a bench's
/// commands.
struct Settled {
    config: ResolvedConfig,
    sandbox: Option<Sandbox>,
    exit_with: Option<ExitWith>,
    entry_point: Option<String>,
    current_dir: Option<PathBuf>,
    setup_parallel: bool,
}

impl Settled {
    fn new(levels: &[Option<&BinaryBenchmarkConfig>], bench: &Bench, manifest_dir: &str) -> Self {
        let sandbox = most_specific(levels, |c| c.sandbox.clone());
        Settled {
            config: resolve(levels.iter().map(|l| l.map(|c| &c.base))),
            sandbox: sandbox_of(bench, sandbox, manifest_dir).filter(|s| s.enabled),
            exit_with: most_specific(levels, |c| c.exit_with.clone()),
            entry_point: most_specific(levels, |c| c.entry_point.clone()),
            current_dir: most_specific(levels, |c| c.current_dir.clone()),
            setup_parallel: most_specific(levels, |c| c.setup_parallel).unwrap_or(false),
        }
    }

    /// The job of one of the bench's commands; the command's own settings win over the levels'.
    fn job(&self, at: &Place, command: &Command) -> BinaryJob {
        let mut command = command.clone();
        if command.current_dir.is_none() {
            command.current_dir.clone_from(&self.current_dir);
        }
        command.setup_parallel |= self.setup_parallel;
        let exit_with = command
            .exit_with
            .clone()
            .or_else(|| self.exit_with.clone())
            .unwrap_or(ExitWith::Success);
        BinaryJob {
            index: at.index,
            command,
            setup: at.bench.setup.or(at.benchmark.setup),
            teardown: at.bench.teardown.or(at.benchmark.teardown),
            sandbox: self.sandbox.clone(),
            shared_sandbox: at.bench.legacy && self.sandbox.is_some(),
            exit_with,
            entry_point: self.entry_point.clone(),
            hook: None,
        }
    }
}

/// The id a measured hook takes must not be the id of one of the group's `Run`s.
fn check_hook_id(group: &BinaryGroup, id: &str) -> Result<(), Problem> {
    let clash = group.benchmarks.iter().any(|benchmark| {
        benchmark.name.is_empty()
            && benchmark
                .benches
                .iter()
                .any(|b| b.id.as_deref() == Some(id))
    });
    if clash {
        return Err(problem!(
            "group `{}` measures its `{id}` (`bench = true`) under the id `{id}`, which a Run's \
             Arg of the group also has; rename that Arg",
            group.name
        ));
    }
    Ok(())
}

/// The first `Run` (benchmark and bench index) of `group` that runs a setup or teardown hook.
fn first_with(group: &BinaryGroup, kind: HookKind) -> Option<(usize, usize)> {
    group
        .benchmarks
        .iter()
        .enumerate()
        .find_map(|(f, benchmark)| {
            let b = benchmark.benches.iter().position(|bench| {
                bench.legacy
                    && match kind {
                        HookKind::Setup => bench.setup.or(benchmark.setup).is_some(),
                        _ => bench.teardown.or(benchmark.teardown).is_some(),
                    }
            })?;
            Some((f, b))
        })
}

/// The value of the most specific level that sets it.
fn most_specific<T>(
    levels: &[Option<&BinaryBenchmarkConfig>],
    get: impl Fn(&BinaryBenchmarkConfig) -> Option<T>,
) -> Option<T> {
    levels.iter().rev().flatten().find_map(|c| get(c))
}

/// The sandbox of a bench, given the one its config levels settle on. A 0.10 bench runs in a
/// sandbox unless a level says otherwise (0.10's default), and its relative fixture paths start
/// at the package's directory (where 0.10 looked for them) when they exist there.
fn sandbox_of(bench: &Bench, configured: Option<Sandbox>, manifest_dir: &str) -> Option<Sandbox> {
    if !bench.legacy {
        return configured;
    }
    let mut sandbox = configured.unwrap_or_else(|| Sandbox::new(true));
    for fixture in &mut sandbox.fixtures {
        let in_package = Path::new(manifest_dir).join(&*fixture);
        if fixture.is_relative() && in_package.exists() {
            *fixture = in_package;
        }
    }
    Some(sandbox)
}

/// The part of a binary benchmark's header after `id:`: `(args) -> program args` as
/// iai-callgrind 0.13 prints it, or `program args` for a 0.10 `Run`.
fn header_args(bench: &Bench, command: &Command, workspace_root: &str) -> String {
    if bench.legacy {
        let name = command
            .program
            .file_name()
            .unwrap_or(command.program.as_os_str());
        let args = command
            .args
            .iter()
            .map(|a| quote(&a.to_string_lossy(), '"'));
        return std::iter::once(name.to_string_lossy().into_owned())
            .chain(args)
            .collect::<Vec<_>>()
            .join(" ");
    }
    let program = command
        .program
        .strip_prefix(workspace_root)
        .unwrap_or(&command.program);
    let mut line = format!(
        "({}) -> {}",
        bench.args_display.as_deref().unwrap_or(""),
        program.display()
    );
    for arg in &command.args {
        line.push(' ');
        line.push_str(&quote(&arg.to_string_lossy(), '\''));
    }
    line
}

/// An argument as a shell would need it: quoted when it holds anything but a plain word.
fn quote(arg: &str, mark: char) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ',' | ':'));
    if plain {
        arg.to_owned()
    } else {
        format!("{mark}{arg}{mark}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Arg, BinaryBenchmarkGroup, Run};
    use crate::spec::{Main, MeasuredHook};
    use std::ffi::OsString;

    fn hook() {}

    /// A 0.10 group (`Run`s of `echo`) whose `before`, `setup`, `teardown` and `after` are
    /// measured, with `ids` as its `Arg`s' ids.
    fn measured_group(ids: &[&str]) -> Main {
        let mut group = BinaryBenchmarkGroup::default();
        for id in ids {
            group.bench(Run::with_arg(Arg::new(*id, ["x"])));
        }
        // Written in another order than they run.
        let hooks = [
            HookKind::After,
            HookKind::Teardown,
            HookKind::Before,
            HookKind::Setup,
        ]
        .map(|kind| MeasuredHook { kind, name: "f" });
        Main {
            package: "pkg",
            bench_file: "file",
            manifest_dir: "/nowhere",
            workspace_root: "/nowhere",
            config: None,
            groups: Vec::new(),
            binary_config: None,
            binary_groups: vec![BinaryGroup {
                name: "g",
                config: None,
                compare_by_id: false,
                max_parallel: None,
                setup: Some(hook),
                teardown: Some(hook),
                benchmarks: group.into_benchmarks(Some("echo"), Some(hook), Some(hook)),
                measured_hooks: Box::leak(Box::new(hooks)),
            }],
            setup: None,
            teardown: None,
        }
    }

    fn plan_of(main: &Main) -> Result<super::super::Plan, Problem> {
        let cli = crate::cli::parse(&["--bench".into()], &|_| None).unwrap();
        super::super::plan(main, &cli, "/nowhere/home".into())
    }

    #[test]
    fn measured_hooks_are_jobs_first_and_last_that_open_the_window() {
        let plan = plan_of(&measured_group(&["a", "b"])).unwrap();
        let ids: Vec<String> = plan.jobs.iter().map(|j| j.id.id_and_args()).collect();
        assert_eq!(
            ids,
            [
                "before:f",
                "setup:f",
                "a:echo x",
                "b:echo x",
                "teardown:f",
                "after:f"
            ]
        );
        let JobKind::Binary(before) = &plan.jobs[0].kind else {
            panic!("a binary job")
        };
        assert_eq!(before.hook, Some(HookKind::Before));
        // In the sandbox the group's `Run`s share, as 0.10 ran its hooks.
        assert!(before.shared_sandbox && before.sandbox.is_some() && before.setup.is_none());
        let args = &before.command.args;
        assert_eq!(
            args[..3],
            [HOOK_FLAG, MEASURED_HOOK, "before"].map(OsString::from)
        );
        let JobKind::Binary(teardown) = &plan.jobs[4].kind else {
            panic!("a binary job")
        };
        // Measured after an unmeasured setup, in the sandbox the commands share.
        assert!(teardown.setup.is_some() && teardown.shared_sandbox);
        let JobKind::Binary(command) = &plan.jobs[2].kind else {
            panic!("a binary job")
        };
        assert!(command.shared_sandbox);
        // The measured hook opens the window itself: it starts uninstrumented (through
        // `VALGRIND_OPTS`); the command is counted whole.
        let uninstrumented = crate::execute::args::starts_uninstrumented;
        assert_eq!(
            uninstrumented(&plan.jobs[0]),
            crate::client_request::SUPPORTED
        );
        assert!(!uninstrumented(&plan.jobs[2]));
    }

    #[test]
    fn a_run_with_a_measured_hooks_id_is_an_error_naming_it() {
        let e = plan_of(&measured_group(&["a", "setup"])).unwrap_err();
        assert!(
            e.contains("`setup`") && e.contains("rename that Arg"),
            "{e}"
        );
    }

    #[test]
    fn headers_show_arguments_and_command_as_iai_callgrind_did() {
        let mut bench = Bench::new("foo");
        bench.args_display = Some("\"foo\"".to_owned());
        let command = Command::new("/ws/target/release/echo")
            .args(["foo", "A=1"])
            .build();
        assert_eq!(
            header_args(&bench, &command, "/ws"),
            "(\"foo\") -> target/release/echo foo 'A=1'"
        );
        bench.legacy = true;
        assert_eq!(header_args(&bench, &command, "/ws"), "echo foo \"A=1\"");
    }

    #[test]
    fn a_legacy_bench_runs_in_a_sandbox_unless_a_level_says_otherwise() {
        let mut legacy = Bench::new("x");
        legacy.legacy = true;
        assert_eq!(
            sandbox_of(&legacy, None, "/nowhere"),
            Some(Sandbox::new(true))
        );
        let off = sandbox_of(&legacy, Some(Sandbox::new(false)), "/nowhere");
        assert_eq!(off, Some(Sandbox::new(false)));
        assert_eq!(sandbox_of(&Bench::new("x"), None, "/nowhere"), None);
    }
}
