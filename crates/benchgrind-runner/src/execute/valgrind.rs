//! Finding Valgrind and checking its version, once, before any benchmark runs.

use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::fingerprint;

/// The oldest Valgrind whose Callgrind has every option the runner passes.
pub const MIN_VERSION: (u32, u32) = (3, 16);

/// A usable Valgrind.
#[derive(Debug, Clone)]
pub struct Valgrind {
    /// Absolute path of the `valgrind` launcher.
    pub path: PathBuf,
    /// `(major, minor, patch)`.
    pub version: (u32, u32, u32),
}

const INSTALL_HINT: &str = "install it with your package manager (Debian/Ubuntu: `sudo apt-get \
install valgrind`, Fedora: `sudo dnf install valgrind`, Arch: `sudo pacman -S valgrind`), or set \
BENCHGRIND_VALGRIND to the path of a `valgrind` binary";

/// The command Valgrind is started through (`--tool-runner`), set once when the command line is
/// read; empty for none.
static RUNNER: OnceLock<Vec<String>> = OnceLock::new();

/// Sets the [`command`]'s runner, once; later calls change nothing.
pub fn set_runner(runner: Vec<String>) {
    let _ = RUNNER.set(runner);
}

/// The command that runs a program under Valgrind at `path`: `launcher` with what every
/// program benchgrind runs under Valgrind gets ([`super::args::NO_GDBSERVER`]). Valgrind's other
/// arguments come next (and win).
pub fn command(path: &Path) -> Command {
    let mut cmd = launcher(path);
    cmd.arg(super::args::NO_GDBSERVER);
    cmd
}

/// Valgrind at `path`, started through the runner when one was set (`CMD ARGS path`), else
/// `path` itself.
fn launcher(path: &Path) -> Command {
    match RUNNER.get().map(Vec::as_slice) {
        Some([runner, args @ ..]) => {
            let mut cmd = Command::new(runner);
            cmd.args(args).arg(path);
            cmd
        }
        _ => Command::new(path),
    }
}

/// `--valgrind-bin`, set once when the command line is read.
static CHOSEN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Makes [`locate`] take this launcher (`--valgrind-bin`) over `BENCHGRIND_VALGRIND` and `PATH`;
/// the first call of a process wins.
pub fn choose(path: PathBuf) {
    let _ = CHOSEN.set(path);
}

/// Finds Valgrind: `--valgrind-bin` if given, else `BENCHGRIND_VALGRIND` if set, else
/// `valgrind` on `PATH` (or, through a tool runner, on the runner's); checks the version. The
/// first answer stands for the rest of the process (`valgrind --version` takes 5-15 ms, and
/// nothing a run does moves Valgrind).
pub fn locate() -> Result<Valgrind, Problem> {
    static LOCATED: OnceLock<Result<Valgrind, Problem>> = OnceLock::new();
    LOCATED.get_or_init(locate_now).clone()
}

fn locate_now() -> Result<Valgrind, Problem> {
    let through_runner = RUNNER.get().is_some_and(|r| !r.is_empty());
    let chosen = CHOSEN.get().map(|p| p.as_os_str().to_owned());
    let path = match chosen.or_else(|| std::env::var_os("BENCHGRIND_VALGRIND")) {
        Some(p) => PathBuf::from(p),
        None if through_runner => PathBuf::from("valgrind"),
        None => find_in_path("valgrind").ok_or_else(|| {
            format!("benchgrind needs Valgrind 3.16 or newer, but `valgrind` is not on PATH: {INSTALL_HINT}")
        })?,
    };
    let output = launcher(&path).arg("--version").output().map_err(|e| {
        format!(
            "cannot run Valgrind at {}: {e}; {INSTALL_HINT}",
            path.display()
        )
    })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let version = parse_version(text.trim()).ok_or_else(|| {
        format!(
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
    Ok(Valgrind { path, version })
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
pub fn cpu_under_valgrind(valgrind: &Path, version: &str, exe: &Path, home: &Path) -> String {
    let key = format!("{version} on {}", fingerprint::cpu_seen());
    let cache = home.join(fingerprint::CACHE_FILE);
    let cached = std::fs::read_to_string(&cache).unwrap_or_default();
    if let Some(answer) = fingerprint::cached_answer(&cached, &key) {
        return answer.to_owned();
    }
    let Ok(output) = command(valgrind)
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
    use super::parse_version;

    #[test]
    fn every_valgrind_starts_without_a_gdbserver() {
        let cmd = super::command(std::path::Path::new("/usr/bin/valgrind"));
        assert_eq!(cmd.get_program(), "/usr/bin/valgrind");
        let args: Vec<_> = cmd.get_args().collect();
        assert_eq!(args, ["--vgdb=no"]);
    }

    #[test]
    fn versions() {
        assert_eq!(parse_version("valgrind-3.19.0"), Some((3, 19, 0)));
        assert_eq!(parse_version("valgrind-3.22.0.GIT"), Some((3, 22, 0)));
        assert_eq!(parse_version("valgrind-3.16"), Some((3, 16, 0)));
        assert_eq!(parse_version("3.19.0"), None);
    }
}
