//! `engines.toml`: the engines a suite knows, each a set of commands (version, run, dependency
//! checks, build, clean), in rebar's format.
//!
//! Commands run in the engine's (or the command's) `cwd`, relative to where `benchgrind` runs;
//! a `bin` containing `/` is resolved against that `cwd`, a bare name through `PATH` (rebar's
//! rule). Unknown keys are ignored, as rebar does, so existing files load unchanged.

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

/// A command from `engines.toml`, with the engine's `cwd` already applied.
#[derive(Clone, Debug)]
pub struct Command {
    /// Working directory, relative to where `benchgrind` runs.
    pub cwd: Option<String>,
    /// The program.
    pub bin: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub envs: Vec<(String, String)>,
}

impl Command {
    fn from_wire(
        engine_cwd: Option<&str>,
        cwd: Option<String>,
        bin: String,
        args: Vec<String>,
        envs: Vec<WireEnv>,
    ) -> Command {
        Command {
            cwd: cwd.or_else(|| engine_cwd.map(str::to_string)),
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

    /// Runs the command to completion; on failure the error quotes the last line of stderr.
    pub fn output(&self) -> anyhow::Result<Vec<u8>> {
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
    fn from_wire(w: WireEngine, loc: &str, bad: &mut dyn FnMut(String)) -> Option<Engine> {
        let cwd = w.cwd.as_deref();
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
                    cmd: Command::from_wire(cwd, d.cwd, d.bin, d.args, d.envs),
                    regex,
                }),
                Err(m) => bad(m),
            }
        }
        let commands = |list: Vec<WireCommand>| -> Vec<Command> {
            list.into_iter()
                .map(|c| Command::from_wire(cwd, c.cwd, c.bin, c.args, c.envs))
                .collect()
        };
        Some(Engine {
            name: w.name.into_inner(),
            location: loc.to_string(),
            version: Version {
                cmd: Some(Command::from_wire(
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
            run: Command::from_wire(cwd, w.run.cwd, w.run.bin, w.run.args, w.run.envs),
            dependency,
            build: commands(w.build),
            clean: commands(w.clean),
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
}

/// Loads `dir/engines.toml` for a command that needs it, turning its problems into one error
/// listing them all.
pub fn load(dir: &Path) -> anyhow::Result<Engines> {
    Engines::load(dir).map_err(|problems| {
        let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        anyhow::anyhow!("{}", list.join("\n       "))
    })
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
    /// problems.
    pub fn parse(path: &Path, text: &str) -> Result<Engines, Vec<Problem>> {
        let path = path.to_path_buf();
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
            if let Some(engine) = Engine::from_wire(w, &loc, &mut bad) {
                engines.order.push(name.clone());
                engines.by_name.insert(name, engine);
            }
        }
        if problems.is_empty() {
            Ok(engines)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names() {
        for ok in ["rust/memmem", "a", "libc-x/memmem/restricted"] {
            assert!(valid_engine_name(ok), "{ok}");
        }
        for bad in ["", "/a", "a/", "a//b", "a b", "a_b"] {
            assert!(!valid_engine_name(bad), "{bad}");
        }
    }

    #[test]
    fn display_like_rebar() {
        let c = Command {
            cwd: Some("runner".into()),
            bin: "cargo".into(),
            args: vec!["build".into(), "--release".into()],
            envs: vec![],
        };
        assert_eq!(c.display(), r#"cd "runner" && "cargo" "build" "--release""#);
        assert_eq!(c.program(), PathBuf::from("cargo"));
        let r = Command {
            bin: "./target/release/runner".into(),
            ..c
        };
        assert!(r.program().ends_with("runner/./target/release/runner"));
    }
}
