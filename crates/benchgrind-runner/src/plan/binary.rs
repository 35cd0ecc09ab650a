//! The jobs of binary benchmark groups: one per command of each bench, with the config of the
//! most specific level that sets each value, and the names of the low-level API checked. The
//! header of a binary benchmark shows its arguments as written and the command line as
//! iai-callgrind 0.13 does (`id:("arg") -> target/release/exe arg`), or as 0.10 did for the
//! benches of a 0.10 `Run` (`id:exe "arg"`), which also run in a sandbox unless a level says
//! otherwise.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{check_name, listed_twice, BenchId, BinaryJob, JobKind, Planner};
use crate::config::{
    resolve, Bench, BinaryBenchmark, BinaryBenchmarkConfig, Command, ExitWith, ResolvedConfig,
    Sandbox,
};
use crate::spec::BinaryGroup;

impl Planner<'_> {
    /// The jobs of the binary benchmark groups (numbered after the library groups).
    pub(super) fn binary_groups(&mut self) -> Result<(), String> {
        for (g, group) in self.main.binary_groups.iter().enumerate() {
            self.group(group.name)?;
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
        }
        Ok(())
    }

    /// The jobs of one bench: one per command.
    fn binary_bench(&mut self, at: &Place, ids: &mut HashSet<String>) -> Result<(), String> {
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
            return Err(format!(
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
                    return Err(format!(
                        "the bench id `{id}` appears twice in `{}` of group `{}`; ids must be \
                         unique within a benchmark",
                        benchmark.name, group.name
                    ));
                }
            }
            let id = BenchId {
                file: self.main.bench_file.to_owned(),
                group: group.name.to_owned(),
                function: benchmark.name.clone(),
                id,
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
            exit_with: most_specific(levels, |c| c.exit_with),
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
            .or(self.exit_with)
            .unwrap_or(ExitWith::Success);
        BinaryJob {
            index: at.index,
            command,
            setup: at.bench.setup.or(at.benchmark.setup),
            teardown: at.bench.teardown.or(at.benchmark.teardown),
            sandbox: self.sandbox.clone(),
            exit_with,
            entry_point: self.entry_point.clone(),
        }
    }
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
