//! What a run killed by SIGKILL (or a crash) leaves behind: fork-server directories
//! (`<home>/.servers/<pid>-<n>`, [`super::fork`]) and sandboxes
//! (`$TMPDIR/benchgrind-sandbox-<pid>-<n>-<nanos>`, `super::sandbox`) and the measured
//! processes' homes (`$TMPDIR/benchgrind-home-<pid>-run`, `super::launcher`). Each run removes, at
//! its start, those whose process is gone. A pid may have been reused since: a directory older
//! than the process now bearing its pid is not that process's either.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The prefix of sandbox directories in the temporary directory.
pub const SANDBOX_PREFIX: &str = "benchgrind-sandbox-";

/// The prefix of the measured processes' homes in the temporary directory
/// ([`super::launcher::EmptyHome`]).
pub const HOME_PREFIX: &str = "benchgrind-home-";

/// The directory below the home that holds the fork servers' directories.
pub const SERVERS: &str = ".servers";

/// Removes the server directories below `home` and the sandboxes whose process is gone;
/// returns the directories removed.
pub fn remove(home: &Path) -> Vec<PathBuf> {
    let servers = home.join(SERVERS);
    let mut removed = remove_stale(&servers, "");
    removed.extend(remove_stale(&std::env::temp_dir(), SANDBOX_PREFIX));
    removed.extend(remove_stale(&std::env::temp_dir(), HOME_PREFIX));
    // Gone once empty; a run starting a server now makes it again.
    let _ = std::fs::remove_dir(&servers);
    removed
}

/// Removes the directories of `dir` named `<prefix><pid>-...` whose process is gone.
fn remove_stale(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_dir() || !rest.contains('-') {
            continue;
        }
        let made = meta.modified().unwrap_or(SystemTime::now());
        if is_stale(pid, made) && std::fs::remove_dir_all(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed
}

/// Whether a directory of process `pid` last changed at `changed` belongs to no live process.
fn is_stale(pid: i32, changed: SystemTime) -> bool {
    if pid <= 0 || pid as u32 == std::process::id() {
        return false;
    }
    #[cfg(unix)]
    // SAFETY: kill(2) with signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    // Elsewhere nothing is left behind for lack of a check: taken as alive.
    #[cfg(not(unix))]
    let alive = true;
    if !alive {
        return true;
    }
    // Alive: stale only if the process started after the directory last changed (pid reused);
    // a second of slack for the clocks' resolution.
    started(pid).is_some_and(|start| start > changed + Duration::from_secs(2))
}

/// When a process started: /proc/stat's boot time plus /proc/<pid>/stat's start time.
fn started(pid: i32) -> Option<SystemTime> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let boot: u64 = stat
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    let own = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &own[own.rfind(')')? + 1..];
    // Field 22 of the line; the 20th after the name.
    let ticks: u64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
    #[cfg(unix)]
    // SAFETY: sysconf reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    #[cfg(not(unix))]
    let hz = 100;
    Some(
        SystemTime::UNIX_EPOCH
            + Duration::from_secs(boot)
            + Duration::from_millis(ticks * 1000 / hz),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_of_gone_or_younger_processes_are_removed_others_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let servers = tmp.path().join(SERVERS);
        // A process that is gone: a child, reaped.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let mine = std::process::id();
        for name in [
            format!("{gone}-0"),
            format!("{mine}-0"),
            "1-0".into(),
            "notes".into(),
        ] {
            std::fs::create_dir_all(servers.join(name)).unwrap();
        }
        let removed = remove_stale(&servers, "");
        assert_eq!(removed, [servers.join(format!("{gone}-0"))]);
        // pid 1 started at boot, before the directory: its directory is kept.
        assert!(servers.join("1-0").is_dir());
        assert!(servers.join(format!("{mine}-0")).is_dir());
        assert!(servers.join("notes").is_dir());
        // A directory older than the live process bearing its pid: the pid was reused.
        let old = SystemTime::now() - Duration::from_secs(3600 * 24 * 365 * 30);
        let started = started(mine as i32).unwrap();
        assert!(started > old && started <= SystemTime::now());
        assert!(!is_stale(1, SystemTime::now()));
        let mut sleeper = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        assert!(is_stale(sleeper.id() as i32, old));
        assert!(!is_stale(sleeper.id() as i32, SystemTime::now()));
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }
}
