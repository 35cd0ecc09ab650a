//! The jobs of binary benchmark groups: one per command of each bench, with the config of the
//! most specific level that sets each value, and the names of the low-level API checked.

use std::collections::HashSet;

use super::{check_name, listed_twice, BenchId, BinaryJob, JobKind, Planner};
use crate::config::{resolve, Bench, BinaryBenchmark, BinaryBenchmarkConfig, ExitWith, Sandbox};
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
                check_name(
                    &benchmark.name,
                    "benchmark name",
                    group.name,
                    &benchmark.name,
                )?;
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
        let config = resolve(levels.iter().map(|l| l.map(|c| &c.base)));
        let sandbox = most_specific(&levels, |c| c.sandbox.clone()).filter(|s: &Sandbox| s.enabled);
        let config_exit = most_specific(&levels, |c| c.exit_with);
        let entry_point = most_specific(&levels, |c| c.entry_point.clone());
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
                args: command.display_short(),
            };
            let job = BinaryJob {
                index,
                command: command.clone(),
                setup: bench.setup.or(benchmark.setup),
                teardown: bench.teardown.or(benchmark.teardown),
                sandbox: sandbox.clone(),
                exit_with: command
                    .exit_with
                    .or(config_exit)
                    .unwrap_or(ExitWith::Success),
                entry_point: entry_point.clone(),
            };
            let group_index = self.main.groups.len() + index[0];
            let kind = JobKind::Binary(Box::new(job));
            self.push(group_index, kind, id, "", config.clone())?;
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

/// The value of the most specific level that sets it.
fn most_specific<T>(
    levels: &[Option<&BinaryBenchmarkConfig>],
    get: impl Fn(&BinaryBenchmarkConfig) -> Option<T>,
) -> Option<T> {
    levels.iter().rev().flatten().find_map(|c| get(c))
}
