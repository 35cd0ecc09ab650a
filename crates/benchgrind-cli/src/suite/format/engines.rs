//! `engines.toml`: the engines a suite knows, each a set of commands (version, run, dependency
//! checks, build, clean), in rebar's format.
//!
//! Commands run in the engine's (or the command's) `cwd`, which is relative to the suite
//! directory (`-d`, the directory of `engines.toml`) as in rebar: `cwd = "../engines/x"` beside
//! `benchmarks/`, and the suite directory itself without a `cwd`. A `cwd` that is no directory
//! there but is one relative to where `benchgrind` runs (the layout of rebar's "bring your own
//! benchmarks" walkthrough, `cwd = "runner"` beside `benchmarks/`) is taken from there, with a
//! note naming it. A `bin` containing `/` is resolved against that `cwd`, a bare name through
//! `PATH` (rebar's rule). Unknown keys are ignored, as rebar does, so existing files load
//! unchanged.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process,
};

use anyhow::Context;
use benchgrind_runner::error::FileResult;
use serde::Deserialize;

use super::{parse_toml, Lines, Problem};
use crate::suite::flags::Filter;

/// `engines.toml`, as written.
#[derive(Deserialize)]
struct WireFile {
    #[serde(default)]
    engine: Vec<WireEngine>,
}

/// One `[[engine]]`.
#[derive(Deserialize)]
struct WireEngine {
    name: toml::Spanned<String>,
    cwd: Option<String>,
    version: WireVersion,
    run: WireCommand,
    #[serde(default)]
    dependency: Vec<WireDependency>,
    #[serde(default)]
    build: Vec<WireCommand>,
    #[serde(default)]
    clean: Vec<WireCommand>,
}

/// A command: `run`, `build` or `clean` entry.
#[derive(Deserialize)]
struct WireCommand {
    cwd: Option<String>,
    bin: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    envs: Vec<WireEnv>,
}

/// An environment variable of a command.
#[derive(Deserialize)]
struct WireEnv {
    name: String,
    value: String,
}

/// `[engine.version]`: a command or a file, and a regex with a `version` group.
#[derive(Deserialize)]
struct WireVersion {
    cwd: Option<String>,
    bin: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    envs: Vec<WireEnv>,
    file: Option<String>,
    regex: Option<String>,
}

/// A dependency check: a command and, optionally, a regex its output must match.
#[derive(Deserialize)]
struct WireDependency {
    cwd: Option<String>,
    bin: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    envs: Vec<WireEnv>,
    regex: Option<String>,
}

/// A command from `engines.toml`, with the engine's `cwd` already applied and resolved.
#[derive(Clone, Debug)]
pub struct Command {
    /// Working directory as written: resolved against the suite directory first, then the
    /// current one.
    pub cwd: Option<String>,
    /// The program.
    pub bin: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub envs: Vec<(String, String)>,
}

/// Resolves the `cwd`s of one engines file against its suite directory, and remembers those
/// found only relative to the current directory, for one note per `cwd`.
struct Cwds {
    /// The suite directory: where `engines.toml` is.
    dir: PathBuf,
    /// `cwd` as written -> (the suite-relative path looked for, the engines using it), for
    /// those taken relative to the current directory instead.
    fallbacks: BTreeMap<String, (PathBuf, Vec<String>)>,
}

impl Cwds {
    /// Where the commands of engine `engine` run, for `cwd` as written (the command's, else
    /// the engine's): the suite directory joined with it, as rebar does (an absolute `cwd`
    /// stays as it is); when that is no directory but `cwd` is one relative to the current
    /// directory, that one. `None` (the current directory) only for an unnamed suite directory
    /// without a `cwd`.
    fn resolve(&mut self, engine: &str, cwd: Option<&str>) -> Option<String> {
        let Some(cwd) = cwd else {
            return (!self.dir.as_os_str().is_empty())
                .then(|| self.dir.to_string_lossy().into_owned());
        };
        let in_suite = self.dir.join(cwd);
        if !in_suite.is_dir() && Path::new(cwd).is_dir() {
            let (_, engines) = self
                .fallbacks
                .entry(cwd.to_string())
                .or_insert_with(|| (in_suite, vec![]));
            if !engines.iter().any(|e| e == engine) {
                engines.push(engine.to_string());
            }
            return Some(cwd.to_string());
        }
        Some(in_suite.to_string_lossy().into_owned())
    }

    /// One note per `cwd` taken relative to the current directory.
    fn notes(self) -> Vec<String> {
        self.fallbacks
            .into_iter()
            .map(|(cwd, (looked, engines))| {
                format!(
                    "cwd {cwd:?} (engine {}): using {cwd}, relative to the current directory, since {} (relative to the suite directory, as rebar takes it) does not exist; `cwd = {:?}` works with rebar too",
                    engines.join(", "),
                    looked.display(),
                    relative_to_suite(&self.dir, cwd.as_ref()),
                )
            })
            .collect()
    }
}

/// `path` (relative to the current directory) as a `cwd` relative to the suite directory `dir`,
/// for the note: `runner` with `dir` = `benchmarks` is `../runner`.
fn relative_to_suite(dir: &Path, path: &Path) -> String {
    use std::path::Component;
    let absolute = || {
        std::path::absolute(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string()
    };
    if path.is_absolute() || dir.is_absolute() {
        return absolute();
    }
    let mut up = PathBuf::new();
    for c in dir.components() {
        match c {
            Component::Normal(_) => up.push(".."),
            Component::CurDir => {}
            // `..` in `-d`: the way back is not known from the names alone.
            _ => return absolute(),
        }
    }
    up.join(path).display().to_string()
}

impl Command {
    fn from_wire(
        cwds: &mut Cwds,
        engine: &str,
        engine_cwd: Option<&str>,
        cwd: Option<String>,
        bin: String,
        args: Vec<String>,
        envs: Vec<WireEnv>,
    ) -> Command {
        Command {
            cwd: cwds.resolve(engine, cwd.as_deref().or(engine_cwd)),
            bin,
            args,
            envs: envs.into_iter().map(|e| (e.name, e.value)).collect(),
        }
    }

    /// The program path: joined with `cwd` when it contains a `/`, else looked up in `PATH`.
    pub fn program(&self) -> PathBuf {
        match &self.cwd {
            Some(cwd) if self.bin.contains('/') && !Path::new(&self.bin).is_absolute() => {
                let here = std::env::current_dir().unwrap_or_default();
                here.join(cwd).join(&self.bin)
            }
            _ => PathBuf::from(&self.bin),
        }
    }

    /// A `std::process::Command` ready to spawn (stdio left to the caller).
    pub fn to_std(&self) -> process::Command {
        let mut cmd = process::Command::new(self.program());
        if let Some(cwd) = &self.cwd {
            cmd.current_dir(cwd);
        }
        cmd.args(&self.args);
        cmd.envs(self.envs.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// The command as a user would type it: `cd "runner" && "cargo" "build" "--release"`.
    pub fn display(&self) -> String {
        let mut s = String::new();
        if let Some(cwd) = &self.cwd {
            s.push_str(&format!("cd {cwd:?} && "));
        }
        for (k, v) in &self.envs {
            s.push_str(&format!("{k}={v:?} "));
        }
        s.push_str(&format!("{:?}", self.bin));
        for a in &self.args {
            s.push_str(&format!(" {a:?}"));
        }
        s
    }

    /// Fails when the working directory does not exist, saying where `cwd` is looked for.
    pub fn check_cwd(&self) -> anyhow::Result<()> {
        match &self.cwd {
            Some(cwd) if !Path::new(cwd).is_dir() => anyhow::bail!(
                "cannot run {}: the directory {cwd:?} does not exist (`cwd` in engines.toml is relative to the suite directory, -d/--dir)",
                self.display()
            ),
            _ => Ok(()),
        }
    }

    /// Runs the command to completion; on failure the error quotes the last line of stderr.
    pub fn output(&self) -> anyhow::Result<Vec<u8>> {
        self.check_cwd()?;
        let out = self
            .to_std()
            .stdin(process::Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", self.display()))?;
        if out.status.success() {
            return Ok(out.stdout);
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
            Some(last) => anyhow::bail!(
                "{} failed ({}): {}",
                self.display(),
                out.status,
                last.trim()
            ),
            None => anyhow::bail!(
                "{} failed ({}) with empty stderr",
                self.display(),
                out.status
            ),
        }
    }
}

/// How to get an engine's version: a command or a file, optionally narrowed by a regex with a
/// `version` group; without a regex, the last line of the output, trimmed.
#[derive(Clone, Debug)]
pub struct Version {
    cmd: Option<Command>,
    file: Option<String>,
    regex: Option<regex::bytes::Regex>,
}

impl Version {
    /// Runs the command or reads the file and extracts the version string.
    pub fn get(&self) -> anyhow::Result<String> {
        let out = match (&self.file, &self.cmd) {
            // As in rebar, the file is relative to where benchmarks run, not to `cwd`.
            (Some(file), _) => std::fs::read(file).file_op("read version file", Path::new(file))?,
            (None, Some(cmd)) => cmd.output()?,
            (None, None) => anyhow::bail!("[engine.version] needs either `bin` or `file`"),
        };
        let version = match &self.regex {
            None => String::from_utf8_lossy(&out)
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string())
                .context("the version output is empty")?,
            Some(re) => {
                let caps = re.captures(&out).with_context(|| {
                    format!("version regex {:?} did not match the output", re.as_str())
                })?;
                let m = caps
                    .name("version")
                    .context("the `version` group did not participate in the match")?;
                String::from_utf8_lossy(m.as_bytes()).trim().to_string()
            }
        };
        anyhow::ensure!(
            !version.is_empty() && !version.contains('\n'),
            "the version string is empty or spans lines"
        );
        Ok(version)
    }
}

/// A dependency check: a command that must succeed (and whose output must match `regex`).
#[derive(Clone, Debug)]
pub struct Dependency {
    /// The command to run.
    pub cmd: Command,
    /// When set, the output must match.
    pub regex: Option<regex::bytes::Regex>,
}

/// One engine of `engines.toml`.
#[derive(Clone, Debug)]
pub struct Engine {
    /// Unique name, `^[-A-Za-z0-9]+(/[-A-Za-z0-9]+)*$`.
    pub name: String,
    /// Where it is defined (`engines.toml:line`), for messages.
    pub location: String,
    /// How to get its version.
    pub version: Version,
    /// The runner program, fed KLV on stdin.
    pub run: Command,
    /// Checks run before building.
    pub dependency: Vec<Dependency>,
    /// Build steps.
    pub build: Vec<Command>,
    /// Clean steps.
    pub clean: Vec<Command>,
}

impl Engine {
    /// Resolves one engine's wire form, found at `loc`; its problems go to `bad`. `None` when
    /// the engine cannot be used at all (a problem with a dependency check still gives one).
    fn from_wire(
        w: WireEngine,
        loc: &str,
        cwds: &mut Cwds,
        bad: &mut dyn FnMut(String),
    ) -> Option<Engine> {
        let cwd = w.cwd.as_deref();
        let name = w.name.get_ref().clone();
        let v = w.version;
        if v.bin.is_none() && v.file.is_none() {
            bad("[engine.version] needs either `bin` (a command) or `file`".into());
            return None;
        }
        let version_regex = match v
            .regex
            .as_deref()
            .map(|r| compile(r, "version"))
            .transpose()
        {
            Ok(Some(re)) if !re.capture_names().any(|n| n == Some("version")) => {
                bad(format!(
                    "the version regex {:?} has no `(?P<version>...)` group",
                    re.as_str()
                ));
                return None;
            }
            Ok(re) => re,
            Err(m) => {
                bad(m);
                return None;
            }
        };
        let mut dependency = vec![];
        for d in w.dependency {
            match d
                .regex
                .as_deref()
                .map(|r| compile(r, "dependency"))
                .transpose()
            {
                Ok(regex) => dependency.push(Dependency {
                    cmd: Command::from_wire(cwds, &name, cwd, d.cwd, d.bin, d.args, d.envs),
                    regex,
                }),
                Err(m) => bad(m),
            }
        }
        let mut commands = |list: Vec<WireCommand>| -> Vec<Command> {
            list.into_iter()
                .map(|c| Command::from_wire(cwds, &name, cwd, c.cwd, c.bin, c.args, c.envs))
                .collect()
        };
        let build = commands(w.build);
        let clean = commands(w.clean);
        Some(Engine {
            name: w.name.into_inner(),
            location: loc.to_string(),
            version: Version {
                cmd: Some(Command::from_wire(
                    cwds,
                    &name,
                    cwd,
                    v.cwd,
                    v.bin.unwrap_or_default(),
                    v.args,
                    v.envs,
                ))
                .filter(|c| !c.bin.is_empty()),
                file: v.file,
                regex: version_regex,
            },
            run: Command::from_wire(
                cwds, &name, cwd, w.run.cwd, w.run.bin, w.run.args, w.run.envs,
            ),
            dependency,
            build,
            clean,
        })
    }
}

/// All engines, by name.
#[derive(Clone, Debug, Default)]
pub struct Engines {
    /// The file they came from.
    pub path: PathBuf,
    /// Engines by name (the file's order is kept in `order`).
    pub by_name: BTreeMap<String, Engine>,
    /// Names in file order.
    pub order: Vec<String>,
    /// Notes for the user: the `cwd`s taken relative to the current directory.
    pub notes: Vec<String>,
}

/// Loads `dir/engines.toml` for a command that needs it, turning its problems into one error
/// listing them all.
pub fn load(dir: &Path) -> anyhow::Result<Engines> {
    let engines = Engines::load(dir).map_err(|problems| {
        let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        anyhow::anyhow!("{}", list.join("\n       "))
    })?;
    for n in &engines.notes {
        crate::messages::note!("{}: {n}", engines.path.display());
    }
    Ok(engines)
}

/// Checks an engine or benchmark-engine name against rebar's format.
pub fn valid_engine_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('/').all(|part| {
            !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// Compiles a regex from the file; `what` names it in the error.
fn compile(re: &str, what: &str) -> Result<regex::bytes::Regex, String> {
    regex::bytes::Regex::new(re).map_err(|e| format!("invalid {what} regex {re:?}: {e}"))
}

impl Engines {
    /// The engines whose names pass `filter`, in file order.
    pub fn selected(&self, filter: &Filter) -> Vec<&Engine> {
        self.order
            .iter()
            .filter(|n| filter.include(n))
            .map(|n| &self.by_name[n])
            .collect()
    }

    /// Loads `dir/engines.toml`. Any problem here is fatal for the commands that need engines:
    /// every problem found is returned, each with `engines.toml:line`.
    pub fn load(dir: &Path) -> Result<Engines, Vec<Problem>> {
        let path = dir.join("engines.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            vec![Problem {
                location: path.display().to_string(),
                message: format!("cannot read the engines file: {e} (is -d/--dir pointing at the suite directory?)"),
            }]
        })?;
        Engines::parse(&path, &text)
    }

    /// Parses the text of an engines file as [`Engines::load`] does; `path` is named in
    /// problems, and its directory is the suite directory that `cwd`s are relative to.
    pub fn parse(path: &Path, text: &str) -> Result<Engines, Vec<Problem>> {
        let path = path.to_path_buf();
        let mut cwds = Cwds {
            dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            fallbacks: BTreeMap::new(),
        };
        let wire: WireFile = parse_toml(&path, text).map_err(|p| vec![p])?;
        let lines = Lines::new(text);
        let mut engines = Engines {
            path: path.clone(),
            ..Engines::default()
        };
        let mut problems = vec![];
        for w in wire.engine {
            let loc = lines.location(&path, Some(w.name.span().start));
            let name = w.name.get_ref().clone();
            let mut bad = |m: String| {
                problems.push(Problem {
                    location: loc.clone(),
                    message: format!("engine '{name}': {m}"),
                })
            };
            if !valid_engine_name(&name) {
                bad("the name must match ^[-A-Za-z0-9]+(/[-A-Za-z0-9]+)*$".into());
                continue;
            }
            if engines.by_name.contains_key(&name) {
                bad("defined twice; engine names must be unique".into());
                continue;
            }
            if let Some(engine) = Engine::from_wire(w, &loc, &mut cwds, &mut bad) {
                engines.order.push(name.clone());
                engines.by_name.insert(name, engine);
            }
        }
        engines.notes = cwds.notes();
        if problems.is_empty() {
            Ok(engines)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
#[path = "engines_tests.rs"]
mod tests;
