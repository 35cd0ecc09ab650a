//! `suite build` and `suite clean`: run each engine's dependency checks, build and clean
//! commands from `engines.toml`, in file order, and report per engine.
//!
//! One engine failing does not stop the others; the exit code is 1 if any failed.

use std::path::PathBuf;

use super::{
    args::{self, Filter},
    format::engines::{Engine, Engines},
};

const BUILD_USAGE: &str = "\
Check dependencies and build every engine defined in engines.toml.

USAGE:
    benchgrind suite build [OPTIONS]

OPTIONS:
    -d, --dir <dir>             the suite directory (default: ./benchmarks)
    -e, --engine <regex>        only engines whose name matches (repeatable)
    -E, --engine-not <regex>    skip engines whose name matches
    -h, --help                  print this help
";

const CLEAN_USAGE: &str = "\
Run the clean commands of every engine defined in engines.toml.

USAGE:
    benchgrind suite clean [OPTIONS]

OPTIONS:
    -d, --dir <dir>             the suite directory (default: ./benchmarks)
    -e, --engine <regex>        only engines whose name matches (repeatable)
    -E, --engine-not <regex>    skip engines whose name matches
    -h, --help                  print this help
";

/// Parses `-d` and the engine filters; `None` when help was printed.
fn parse(p: &mut lexopt::Parser, usage: &str) -> anyhow::Result<Option<(PathBuf, Filter)>> {
    use lexopt::Arg::{Long, Short};
    let mut dir = PathBuf::from("benchmarks");
    let mut filter = Filter::default();
    while let Some(arg) = p.next().map_err(args::lex_err)? {
        match arg {
            Short('h') | Long("help") => {
                print!("{usage}");
                return Ok(None);
            }
            Short('d') | Long("dir") => dir = PathBuf::from(args::string(p, "-d/--dir")?),
            Short('e') | Long("engine") => {
                filter.add("-e/--engine", &args::string(p, "-e/--engine")?, false)?
            }
            Short('E') | Long("engine-not") => filter.add(
                "-E/--engine-not",
                &args::string(p, "-E/--engine-not")?,
                true,
            )?,
            other => return Err(args::lex_err(other.unexpected())),
        }
    }
    Ok(Some((dir, filter)))
}

/// Loads `engines.toml`, turning its problems into one error listing them all.
pub fn load_engines(dir: &std::path::Path) -> anyhow::Result<Engines> {
    Engines::load(dir).map_err(|problems| {
        let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        anyhow::anyhow!("{}", list.join("\n       "))
    })
}

fn selected<'a>(engines: &'a Engines, filter: &Filter) -> Vec<&'a Engine> {
    engines
        .order
        .iter()
        .filter(|n| filter.include(n))
        .map(|n| &engines.by_name[n])
        .collect()
}

fn build_one(e: &Engine) -> anyhow::Result<String> {
    for dep in &e.dependency {
        let out = dep
            .cmd
            .output()
            .map_err(|err| anyhow::anyhow!("dependency check failed: {err:#}"))?;
        if let Some(re) = &dep.regex {
            anyhow::ensure!(
                re.is_match(&out),
                "dependency check {} printed output that does not match {:?}",
                dep.cmd.display(),
                re.as_str()
            );
        }
    }
    for cmd in &e.build {
        println!("{}: running: {}", e.name, cmd.display());
        cmd.output()?;
    }
    e.version
        .get()
        .map_err(|err| anyhow::anyhow!("built, but getting the version failed: {err:#}"))
}

/// Runs `suite build`.
pub fn run_build(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    let Some((dir, filter)) = parse(p, BUILD_USAGE)? else {
        return Ok(0);
    };
    let engines = load_engines(&dir)?;
    let mut failed = vec![];
    for e in selected(&engines, &filter) {
        match build_one(e) {
            Ok(version) => println!("{}: build complete for version {version}", e.name),
            Err(err) => {
                println!("{}: build failed: {err:#}", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    if failed.is_empty() {
        Ok(0)
    } else {
        eprintln!(
            "error: {} engine(s) failed to build: {}",
            failed.len(),
            failed.join(", ")
        );
        Ok(1)
    }
}

/// Runs `suite clean`.
pub fn run_clean(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    let Some((dir, filter)) = parse(p, CLEAN_USAGE)? else {
        return Ok(0);
    };
    let engines = load_engines(&dir)?;
    let mut failed = vec![];
    for e in selected(&engines, &filter) {
        let result = e.clean.iter().try_for_each(|cmd| {
            println!("{}: running: {}", e.name, cmd.display());
            cmd.output().map(|_| ())
        });
        match result {
            Ok(()) => println!("{}: clean complete", e.name),
            Err(err) => {
                println!("{}: clean failed: {err:#}", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    if failed.is_empty() {
        Ok(0)
    } else {
        eprintln!(
            "error: {} engine(s) failed to clean: {}",
            failed.len(),
            failed.join(", ")
        );
        Ok(1)
    }
}
