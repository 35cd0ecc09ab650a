//! The one launcher of every process benchgrind measures: the bench binary and binary
//! benchmarks' commands (the executors), a suite's runner programs (`benchgrind suite`) and
//! Google Benchmark binaries (`benchgrind gbench`). A [`Launcher`] holds what makes such a
//! process repeatable and is decided once per run: the Valgrind it runs under (or none, in test
//! mode), the processor and scheduling policy it runs with ([`placements`]), address space
//! layout randomisation (off unless `--allow-aslr`) and the preload library. What is particular
//! to a caller (a job's environment, a suite engine's variables, gbench's cleared environment)
//! stays with the caller.
//!
//! Processors and policies are Linux's; on other systems nothing runs under Valgrind, and a
//! launcher starts programs natively as they are.

use crate::error::FileResult;
use crate::error::Problem;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// The variables that name where a user's configuration, caches and data are: measured
/// processes with a cleared environment get them all pointing at the run's [`EmptyHome`], so
/// that a count does not depend on whose account runs it (a program that finds no `HOME` looks
/// the user up in the password database and reads what is in that home: ripgrep as root
/// counted 70,660 instructions more than as another user, for root's git configuration).
pub const HOME_VARIABLES: [&str; 5] = [
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
];

/// An empty directory of the run's own in the temporary directory, removed when the last
/// launcher holding it goes. Its name has the same length for every run and user (the process
/// id padded to ten digits), since the length of a path in the environment moves counts; one a
/// killed run left is removed by the next ([`super::leftovers`]).
#[derive(Debug)]
pub struct EmptyHome {
    path: PathBuf,
}

impl EmptyHome {
    /// Makes the directory.
    pub fn create() -> Result<EmptyHome, Problem> {
        let name = format!(
            "{}{:010}-run",
            super::leftovers::HOME_PREFIX,
            std::process::id()
        );
        let path = std::env::temp_dir().join(name);
        // An earlier process with the same pid may have left one: start empty.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir(&path).file_op("create the measured processes' home", &path)?;
        Ok(EmptyHome { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for EmptyHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

pub use super::realtime::{Placement, Policy};

/// Where measured processes run, one placement per processor this process may use, decided once
/// per run: under `SCHED_FIFO` where that is permitted, else under `SCHED_BATCH`; none with
/// `realtime` false (`--realtime=no`: processes run as any other).
pub fn placements(realtime: bool) -> Vec<Placement> {
    if !realtime {
        return Vec::new();
    }
    let policy = if super::realtime::available() {
        Policy::Realtime
    } else {
        Policy::Batch
    };
    super::realtime::allowed_cpus()
        .into_iter()
        .map(|cpu| Placement { cpu, policy })
        .collect()
}

/// What starts a measured process: see the module's documentation.
#[derive(Clone, Debug, Default)]
pub struct Launcher {
    /// The Valgrind found; `None` runs programs natively (test mode).
    valgrind: Option<super::valgrind::Valgrind>,
    /// `--allow-aslr`: processes keep address space layout randomization.
    allow_aslr: bool,
    /// Processor and policy; `None` leaves both to the system.
    placement: Option<Placement>,
    /// The preload library ([`super::preload`]), where it was built.
    preload: Option<PathBuf>,
    /// The home of measured processes with a cleared environment.
    home: Option<Arc<EmptyHome>>,
    /// How measured processes get a process-id namespace of their own, where they can.
    namespace: Option<super::pidns::Way>,
}

impl Launcher {
    /// Runs programs natively, as they are (test mode).
    pub fn native() -> Launcher {
        Launcher::default()
    }

    /// Runs programs under `valgrind`, each in a process-id namespace of its own where this user
    /// may make one ([`super::pidns`]).
    pub fn under(valgrind: super::valgrind::Valgrind) -> Launcher {
        Launcher {
            valgrind: Some(valgrind),
            namespace: super::pidns::way(),
            ..Launcher::default()
        }
    }

    /// Whether measured processes run with the machine's process ids, under Valgrind where
    /// no namespace can be made ([`super::pidns::UNAVAILABLE`] says what that means).
    pub fn machine_pids(&self) -> bool {
        !self.is_native() && self.namespace.is_none()
    }

    /// The process id of the measured process, as it knows itself, started as `spawned`.
    pub fn measured_pid(&self, spawned: u32) -> u32 {
        match (self.is_native(), self.namespace) {
            (false, Some(_)) => super::pidns::measured_pid(spawned),
            _ => spawned,
        }
    }

    /// The same launcher placing its processes as `placement` says.
    pub fn placed(self, placement: Option<Placement>) -> Launcher {
        Launcher { placement, ..self }
    }

    /// The same launcher with the preload library at `library`.
    pub fn preloading(self, library: Option<PathBuf>) -> Launcher {
        Launcher {
            preload: library,
            ..self
        }
    }

    /// The same launcher leaving ASLR on (`--allow-aslr`) or turning it off (the default).
    pub fn aslr(self, allow: bool) -> Launcher {
        Launcher {
            allow_aslr: allow,
            ..self
        }
    }

    /// The same launcher giving processes with a cleared environment `home`
    /// ([`HOME_VARIABLES`]).
    pub fn homed(self, home: Option<Arc<EmptyHome>>) -> Launcher {
        Launcher { home, ..self }
    }

    /// Points [`HOME_VARIABLES`] of `cmd`, whose environment was cleared, at the run's empty
    /// home; what the benchmark sets itself comes after and wins.
    pub fn home_of_its_own(&self, cmd: &mut Command) {
        if let Some(home) = &self.home {
            for key in HOME_VARIABLES {
                cmd.env(key, home.path());
            }
        }
    }

    /// Whether programs run natively.
    pub fn is_native(&self) -> bool {
        self.valgrind.is_none()
    }

    /// The Valgrind launcher, or an empty path when running natively.
    pub fn valgrind_path(&self) -> &Path {
        self.valgrind
            .as_ref()
            .map_or(Path::new(""), |v| v.path.as_path())
    }

    /// The Valgrind programs run under; `None` when they run natively.
    pub fn valgrind(&self) -> Option<&super::valgrind::Valgrind> {
        self.valgrind.as_ref()
    }

    /// Where processes run, if placed.
    pub fn placement(&self) -> Option<Placement> {
        self.placement
    }

    /// The command that runs `program` (its own arguments come next): under Valgrind with
    /// `valgrind_args`, or natively (the arguments then unused); placed, and with ASLR off
    /// unless `--allow-aslr`.
    pub fn command<I, S>(&self, valgrind_args: I, program: &Path) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.unprepared(valgrind_args, program);
        self.prepare(&mut cmd);
        cmd
    }

    /// [`Self::command`] in a session of its own, without a controlling terminal, and so in a
    /// process group of its own that it leads (which a harness's interrupt kills with all it
    /// started): the measured processes see no terminal whether the harness runs in one or not
    /// (a container, CI). A process with a controlling terminal counts otherwise: bash opens
    /// `/dev/tty` and asks the terminal's foreground group as it starts, and a bash pipe of
    /// three counted 52 instructions fewer as a library benchmark from a terminal than from
    /// a container-like run with none (6,730,456 and 6,730,508). For a command that does not
    /// read the terminal.
    pub fn command_without_terminal<I, S>(&self, valgrind_args: I, program: &Path) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.unprepared(valgrind_args, program);
        // First: the namespace's init and the measured process start in the session.
        own_session(&mut cmd);
        self.prepare(&mut cmd);
        cmd
    }

    /// The command that runs `program` under Valgrind with `valgrind_args`, or natively.
    fn unprepared<I, S>(&self, valgrind_args: I, program: &Path) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        match &self.valgrind {
            None => Command::new(program),
            Some(valgrind) => {
                let mut cmd = valgrind.command();
                cmd.args(valgrind_args).arg(program);
                cmd
            }
        }
    }

    /// Places `cmd` and turns its ASLR off (unless `--allow-aslr`), for a command made
    /// elsewhere; under Valgrind, in a process-id namespace of its own where one can be made.
    pub fn prepare(&self, cmd: &mut Command) {
        #[cfg(target_os = "linux")]
        {
            if let (Some(placement), false) = (self.placement, self.is_native()) {
                super::realtime::apply(cmd, placement);
            }
            // After the placement: the namespace's init and the measured process inherit it.
            if let (Some(way), false) = (self.namespace, self.is_native()) {
                super::pidns::apply(cmd, way);
            }
            if !self.allow_aslr {
                no_aslr(cmd);
            }
        }
        // Elsewhere nothing is placed and ASLR is left as it is.
        #[cfg(not(target_os = "linux"))]
        let _ = (cmd, self.allow_aslr);
    }

    /// Sets `LD_PRELOAD` of `cmd` to the preload library followed by `existing` (what the
    /// process would have had otherwise), when running under Valgrind with the library built.
    /// Returns whether it did.
    pub fn preload(&self, cmd: &mut Command, existing: Option<&OsStr>) -> bool {
        match (&self.preload, self.is_native()) {
            (Some(library), false) => {
                cmd.env("LD_PRELOAD", ld_preload(library, existing));
                true
            }
            _ => false,
        }
    }
}

/// `LD_PRELOAD` with `library` first and what the process would otherwise have after it.
pub fn ld_preload(library: &Path, existing: Option<&OsStr>) -> OsString {
    let mut value = library.as_os_str().to_owned();
    if let Some(existing) = existing.filter(|e| !e.is_empty()) {
        value.push(":");
        value.push(existing);
    }
    value
}

/// Starts `cmd` in a session of its own (`setsid`): the leader of its own process group, with
/// no controlling terminal.
#[cfg(unix)]
fn own_session(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid(2) is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Elsewhere processes stay in the harness's session.
#[cfg(not(unix))]
fn own_session(_cmd: &mut Command) {}

/// Starts `cmd` with address space layout randomisation off: the only `personality(2)` call.
#[cfg(target_os = "linux")]
fn no_aslr(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: personality(2) is async-signal-safe and touches no memory of the parent; it only
    // sets a flag of the about-to-exec process.
    unsafe {
        cmd.pre_exec(|| {
            let current = libc::personality(0xffff_ffff);
            if current != -1 {
                libc::personality((current | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_valgrind(path: &str) -> super::super::valgrind::Valgrind {
        super::super::valgrind::Valgrind {
            path: path.into(),
            version: (3, 19, 0),
            runner: Vec::new(),
        }
    }

    #[test]
    fn native_runs_the_program_itself_and_valgrind_puts_its_arguments_first() {
        let native = Launcher::native().command(["--tool=callgrind"], Path::new("/bin/true"));
        assert_eq!(native.get_program(), "/bin/true");
        assert_eq!(native.get_args().count(), 0);

        let valgrind = Launcher::under(test_valgrind("/usr/bin/valgrind"))
            .command(["--tool=callgrind"], Path::new("/bin/true"));
        assert_eq!(valgrind.get_program(), "/usr/bin/valgrind");
        let args: Vec<_> = valgrind.get_args().collect();
        assert_eq!(args, ["--vgdb=no", "--tool=callgrind", "/bin/true"]);
    }

    #[test]
    fn the_preload_library_goes_first_and_only_under_valgrind() {
        let library = PathBuf::from("/lib/pre.so");
        let mut cmd = Command::new("x");
        assert!(!Launcher::native()
            .preloading(Some(library.clone()))
            .preload(&mut cmd, None));
        let launcher = Launcher::under(test_valgrind("valgrind")).preloading(Some(library));
        assert!(launcher.preload(&mut cmd, Some(OsStr::new("/lib/user.so"))));
        let set: Vec<_> = cmd.get_envs().collect();
        assert_eq!(
            set,
            [(
                OsStr::new("LD_PRELOAD"),
                Some(OsStr::new("/lib/pre.so:/lib/user.so"))
            )]
        );
    }

    #[test]
    fn no_placement_without_realtime_and_one_policy_for_all_processors() {
        assert!(placements(false).is_empty());
        let placed = placements(true);
        assert!(!placed.is_empty());
        assert!(placed.iter().all(|p| p.policy == placed[0].policy));
    }
}
