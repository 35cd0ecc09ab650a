//! Planning `suite measure` and `suite list`: the (benchmark, engine) jobs that the filters
//! select from the suite directory, each ready to run or with the reason it cannot.
//!
//! Configuration problems (a broken definition file, an unknown engine, a missing count rule,
//! an engine without a version) are gathered, not fatal: the jobs they affect become error rows
//! and everything else still runs. With `-i/--ignore-missing-engines`, an engine without a
//! version is left out instead, as rebar does.

use std::{collections::BTreeMap, path::Path};

use super::{
    flags::Filters,
    format::{
        definitions::{self, Definition, Definitions},
        engines::{self, Engine, Engines},
        Problem,
    },
    results::Measurement,
};

/// The tool version written in the `rebar_version` column.
pub fn tool_version() -> String {
    format!("{} (benchgrind)", env!("CARGO_PKG_VERSION"))
}

/// One benchmark to run with one engine, or the reason it cannot run.
pub struct Job<'a> {
    /// The benchmark.
    pub def: &'a Definition,
    /// The engine's name.
    pub engine: String,
    /// The engine's version (`ERROR` when it cannot be had).
    pub version: String,
    /// The engine and the count every sample must report, or why the job cannot run.
    pub run: Result<(&'a Engine, u64), String>,
}

impl Job<'_> {
    /// The result row of this job with `err` set and no numbers.
    pub fn error_row(&self, err: String) -> Measurement {
        Measurement {
            name: self.def.name.clone(),
            model: self.def.model.clone(),
            rebar_version: tool_version(),
            engine: self.engine.clone(),
            engine_version: self.version.clone(),
            err: Some(err),
            haystack_len: self.def.haystack_len(),
            ..Measurement::default()
        }
    }
}

/// The suite directory loaded: `engines.toml` (its problems are fatal) and the definitions the
/// filters select (what was noticed about the others is printed as notes).
pub fn load(dir: &Path, filters: &Filters) -> anyhow::Result<(Engines, Definitions)> {
    let engines = engines::load(dir)?;
    let defs = definitions::load(dir, &|name, model, engines| {
        filters.select(name, model, engines)
    });
    for n in &defs.notes {
        crate::messages::note!("{n}");
    }
    Ok((engines, defs))
}

/// The jobs the filters select, in definition order; the problems found are added to
/// `problems`.
pub fn plan<'a>(
    filters: &Filters,
    engines: &'a Engines,
    defs: &'a [Definition],
    problems: &mut Vec<Problem>,
) -> Vec<Job<'a>> {
    let mut versions: BTreeMap<&str, Result<String, String>> = BTreeMap::new();
    let mut jobs = vec![];
    for def in defs {
        if !filters.name.include(&def.name) || !filters.model.include(&def.model) {
            continue;
        }
        if def.engines.is_empty() {
            crate::messages::note!(
                "{}: benchmark '{}' lists no engines, so nothing measures it",
                def.location,
                def.name
            );
        }
        for eref in def
            .engines
            .iter()
            .filter(|e| filters.engine.include(&e.name))
        {
            let mut job = Job {
                def,
                engine: eref.name.clone(),
                version: String::new(),
                run: Err(String::new()),
            };
            match engines.by_name.get(&eref.name) {
                None => {
                    let msg = format!(
                        "engine '{}' is not defined in {} (benchmark '{}'); add an [[engine]] with that name or remove it from `engines`",
                        eref.name,
                        engines.path.display(),
                        def.name
                    );
                    problems.push(Problem {
                        location: eref.location.clone(),
                        message: msg.clone(),
                    });
                    job.run = Err(msg);
                }
                Some(engine) => {
                    let version = versions
                        .entry(engine.name.as_str())
                        .or_insert_with(|| engine.version.get().map_err(|e| format!("{e:#}")));
                    if version.is_err() && filters.ignore_missing_engines {
                        continue;
                    }
                    resolve(&mut job, engine, version, problems);
                }
            }
            jobs.push(job);
        }
    }
    // Left out with -i, an engine without a version is no problem.
    for (name, v) in versions
        .into_iter()
        .filter(|_| !filters.ignore_missing_engines)
    {
        if let Err(e) = v {
            problems.push(Problem {
                location: engines.by_name[name].location.clone(),
                message: format!("cannot get the version of engine '{name}': {e} (run `benchgrind suite build`?)"),
            });
        }
    }
    jobs
}

/// Sets a job's version and what it runs, from its engine's version and its count rule.
fn resolve<'a>(
    job: &mut Job<'a>,
    engine: &'a Engine,
    version: &Result<String, String>,
    problems: &mut Vec<Problem>,
) {
    job.run = match (version, job.def.count_for(&engine.name)) {
        (Err(e), _) => {
            job.version = "ERROR".into();
            let msg = format!(
                "cannot get the version of engine '{}': {e} (run `benchgrind suite build`?)",
                engine.name
            );
            Err(msg)
        }
        (Ok(v), None) => {
            job.version = v.clone();
            let msg = format!(
                "benchmark '{}' has no `count` entry matching engine '{}'",
                job.def.name, engine.name
            );
            problems.push(Problem {
                location: job.def.location.clone(),
                message: msg.clone(),
            });
            Err(msg)
        }
        (Ok(v), Some(count)) => {
            job.version = v.clone();
            Ok((engine, count))
        }
    };
}

/// Prints the problems found in the suite, if any, before anything runs.
pub fn report_problems(problems: &[Problem]) {
    if problems.is_empty() {
        return;
    }
    crate::messages::error!(
        "{} problem(s) in the suite; the benchmarks they affect are errors, the rest still run:",
        problems.len()
    );
    for p in problems {
        crate::messages::item!("{p}");
    }
}

/// `suite list` (and `measure --list`): prints the (benchmark, model, engine, version) rows
/// that `measure` would run, then the problems; whether there were none.
pub fn list(dir: &Path, filters: &Filters) -> anyhow::Result<bool> {
    let (engines, defs) = load(dir, filters)?;
    let mut problems = defs.problems.clone();
    let jobs = plan(filters, &engines, &defs.defs, &mut problems);
    for j in &jobs {
        println!("{},{},{},{}", j.def.name, j.def.model, j.engine, j.version);
    }
    report_problems(&problems);
    Ok(problems.is_empty())
}
