//! Finding Valgrind and checking its version, once, before any benchmark runs.

use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::fingerprint;

/// The oldest Valgrind whose Callgrind has every option the runner passes.
pub const MIN_VERSION: (u32, u32) = (3, 16);

/// A usable Valgrind, as it was found: where, which version, and the command it is started
/// through.
#[derive(Debug, Clone)]
pub struct Valgrind {
    /// Absolute path of the `valgrind` launcher (or its name on a tool runner's `PATH`).
    pub path: PathBuf,
    /// `(major, minor, patch)`.
    pub version: (u32, u32, u32),
    /// The command Valgrind is started through (`--tool-runner CMD` and its arguments); empty
    /// for none.
    pub runner: Vec<String>,
}

impl Valgrind {
    /// The command that runs a program under this Valgrind: its launcher (through the runner,
    /// if any) with what every program benchgrind runs under Valgrind gets
    /// ([`super::args::NO_GDBSERVER`]). Valgrind's other arguments come next (and win).
    pub fn command(&self) -> Command {
        let mut cmd = launcher(&self.path, &self.runner);
        cmd.arg(super::args::NO_GDBSERVER);
        cmd
    }

    /// Whether Cachegrind has start and stop requests and can start uninstrumented: Valgrind
    /// 3.22 and newer. Older ones count the whole measured process.
    pub fn cachegrind_has_window(&self) -> bool {
        (self.version.0, self.version.1) >= (3, 22)
    }

    /// `valgrind-X.Y.Z`, as `valgrind --version` says it and fingerprints and reports write it.
    pub fn name(&self) -> String {
        let (major, minor, patch) = self.version;
        format!("valgrind-{major}.{minor}.{patch}")
    }
}

const INSTALL_HINT: &str = "install it with your package manager (Debian/Ubuntu: `sudo apt-get \
install valgrind`, Fedora: `sudo dnf install valgrind`, Arch: `sudo pacman -S valgrind`), or set \
BENCHGRIND_VALGRIND to the path of a `valgrind` binary";

/// Which Valgrind to run, as the command line or the environment chose it: a launcher
/// (`--valgrind-bin`, `BENCHGRIND_VALGRIND`), else `valgrind` on `PATH` (or, through a tool
/// runner, on the runner's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choice {
    /// The launcher chosen, if one was.
    pub binary: Option<PathBuf>,
    /// The command Valgrind is started through (`--tool-runner`); empty for none.
    pub runner: Vec<String>,
}

impl Choice {
    /// The choice of a command that has no flag of its own for it: `BENCHGRIND_VALGRIND` (or its
    /// older name `BENCHGRIND_VALGRIND_BIN`), else `PATH`.
    pub fn from_env() -> Choice {
        let binary = ["BENCHGRIND_VALGRIND", "BENCHGRIND_VALGRIND_BIN"]
            .iter()
            .find_map(|name| std::env::var_os(name).filter(|v| !v.is_empty()))
            .map(PathBuf::from);
        Choice {
            binary,
            runner: Vec::new(),
        }
    }

    /// Finds the chosen Valgrind and checks its version (`valgrind --version` takes 5-15 ms:
    /// callers find it once and carry it).
    pub fn locate(&self) -> Result<Valgrind, Problem> {
        let path = match &self.binary {
            Some(p) => p.clone(),
            None if !self.runner.is_empty() => PathBuf::from("valgrind"),
            None => find_in_path("valgrind").ok_or_else(|| {
                problem!("benchgrind needs Valgrind 3.16 or newer, but `valgrind` is not on PATH: {INSTALL_HINT}")
            })?,
        };
        let output = launcher(&path, &self.runner)
            .arg("--version")
            .output()
            .map_err(|e| {
                problem!(
                    "cannot run Valgrind at {}: {e}; {INSTALL_HINT}",
                    path.display()
                )
            })?;
        let text = String::from_utf8_lossy(&output.stdout);
        let version = parse_version(text.trim()).ok_or_else(|| {
            problem!(
                "{} --version printed `{}`, which is not a Valgrind version; {INSTALL_HINT}",
                path.display(),
                text.trim()
            )
        })?;
        if (version.0, version.1) < MIN_VERSION {
            return Err(problem!(
                "Valgrind {}.{}.{} at {} is too old: benchgrind needs 3.16 or newer; {INSTALL_HINT}",
                version.0,
                version.1,
                version.2,
                path.display()
            ));
        }
        Ok(Valgrind {
            path,
            version,
            runner: self.runner.clone(),
        })
    }
}

/// Finds Valgrind for a command without flags of its own for it ([`Choice::from_env`]).
pub fn locate() -> Result<Valgrind, Problem> {
    Choice::from_env().locate()
}

/// Valgrind at `path`, started through `runner` when there is one (`CMD ARGS path`), else
/// `path` itself.
fn launcher(path: &Path, runner: &[String]) -> Command {
    match runner {
        [runner, args @ ..] => {
            let mut cmd = Command::new(runner);
            cmd.args(args).arg(path);
            cmd
        }
        [] => Command::new(path),
    }
}

/// Looks a program up in the directories of `PATH`.
pub fn find_in_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    path.is_file()
}

/// Parses `valgrind-3.19.0` (also `valgrind-3.22.0.GIT` and `valgrind-3.16`).
fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let rest = text.strip_prefix("valgrind-")?;
    let mut parts = rest.split(['.', '-']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// The CPU Valgrind shows the program, from the cache in `home` or by running `exe` with
/// [`fingerprint::PROBE_FLAG`] under `valgrind --tool=none`. Empty when the probe fails: a fingerprint
/// field left empty is never reported as a difference.
pub fn cpu_under_valgrind(valgrind: &Valgrind, exe: &Path, home: &Path) -> String {
    let key = format!("{} on {}", valgrind.name(), fingerprint::cpu_seen());
    let cache = home.join(fingerprint::CACHE_FILE);
    let cached = std::fs::read_to_string(&cache).unwrap_or_default();
    if let Some(answer) = fingerprint::cached_answer(&cached, &key) {
        return answer.to_owned();
    }
    let Ok(output) = valgrind
        .command()
        .args(["--tool=none", "-q"])
        .arg(exe)
        .arg(fingerprint::PROBE_FLAG)
        .env_clear()
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
    else {
        return String::new();
    };
    let answer = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() || answer.is_empty() || answer.contains('\n') {
        return String::new();
    }
    let mut lines: Vec<&str> = cached.lines().filter(|l| !l.starts_with(&key)).collect();
    let line = format!("{key}\t{answer}");
    lines.push(&line);
    let _ = crate::store::write_atomic(&cache, (lines.join("\n") + "\n").as_bytes());
    answer
}

#[cfg(test)]
mod tests {
    use super::{parse_version, Valgrind};

    #[test]
    fn every_valgrind_starts_without_a_gdbserver_through_its_runner() {
        let mut valgrind = Valgrind {
            path: "/usr/bin/valgrind".into(),
            version: (3, 19, 0),
            runner: Vec::new(),
        };
        let cmd = valgrind.command();
        assert_eq!(cmd.get_program(), "/usr/bin/valgrind");
        let args: Vec<_> = cmd.get_args().collect();
        assert_eq!(args, ["--vgdb=no"]);
        assert_eq!(valgrind.name(), "valgrind-3.19.0");
        valgrind.runner = vec!["ssh".into(), "host".into()];
        let cmd = valgrind.command();
        assert_eq!(cmd.get_program(), "ssh");
        let args: Vec<_> = cmd.get_args().collect();
        assert_eq!(args, ["host", "/usr/bin/valgrind", "--vgdb=no"]);
    }

    #[test]
    fn versions() {
        assert_eq!(parse_version("valgrind-3.19.0"), Some((3, 19, 0)));
        assert_eq!(parse_version("valgrind-3.22.0.GIT"), Some((3, 22, 0)));
        assert_eq!(parse_version("valgrind-3.16"), Some((3, 16, 0)));
        assert_eq!(parse_version("3.19.0"), None);
    }
}
