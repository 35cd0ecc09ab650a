//! The files a measured process touched, read from Valgrind's trace of its system calls
//! (`--trace-syscalls=yes`, which every recorded run of Callgrind gets and which moves no count):
//! each call is logged with its path arguments resolved to text and its result, e.g.
//!
//! ```text
//! SYSCALL[3488,1](257) sys_openat ( 4294967196, 0x1fff000a30(data/input.txt), 0 ) --> [async] ...
//! SYSCALL[3488,1](257) ... [async] --> Success(0x3)
//! ```
//!
//! Every path a process opened, looked at (`stat`, `access`, `readlink`, `statfs`), listed
//! (`getdents` of a directory it opened) or ran is an input, whether it existed or not (a file
//! that appears later changes what the program does). A path only created or truncated for
//! writing is not; a path changed in another way (renamed, removed, appended to, opened for
//! reading and writing) makes the run unfit for reuse, as does any call the reader cannot place
//! (a path relative to a directory it did not see opened, a system call with a path it does not
//! know). Pseudo-file systems (`/proc`, `/sys`, `/dev`) are left out: they are the kernel's
//! state, not files.

mod calls;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use calls::{arguments, number, shape, success, Arg, Use, AT_FDCWD};

/// What the calls of one benchmark's process touched.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Traced {
    /// Paths read, opened, looked at or run, absolute; `true` where a directory was listed.
    pub inputs: BTreeMap<PathBuf, bool>,
    /// Paths only created or truncated for writing.
    pub written: BTreeSet<PathBuf>,
    /// Paths changed in a way that depends on what was there (removed, renamed, appended to,
    /// opened for reading and writing, created only if absent).
    pub changed: BTreeSet<PathBuf>,
    /// Why the calls cannot all be placed, if they cannot: the record would be incomplete.
    pub unplaced: Option<String>,
}

/// Reads the calls of one or more logs of the same process, in order.
#[derive(Debug)]
pub struct Tracer {
    cwd: PathBuf,
    /// Directories each process opened, by descriptor (for `getdents` and `*at` calls).
    fds: HashMap<(u32, u64), PathBuf>,
    /// The call each thread is in, for results printed on a later line.
    pending: HashMap<(u32, u32), (String, Option<PathBuf>)>,
    /// Whether a process changed its directory: relative paths of the processes that did not
    /// are then ambiguous.
    entered: bool,
    traced: Traced,
}

impl Tracer {
    /// A reader whose processes start in `cwd`.
    pub fn new(cwd: &Path) -> Tracer {
        Tracer {
            cwd: cwd.to_owned(),
            fds: HashMap::new(),
            pending: HashMap::new(),
            entered: false,
            traced: Traced::default(),
        }
    }

    /// Reads one log's calls; other lines are skipped.
    pub fn log(&mut self, text: &str) {
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("SYSCALL[") {
                self.line(rest);
            }
        }
    }

    /// What the logs read so far touched.
    pub fn finish(self) -> Traced {
        self.traced
    }

    fn unplaced(&mut self, why: String) {
        self.traced.unplaced.get_or_insert(why);
    }

    /// One call, after `SYSCALL[`.
    fn line(&mut self, rest: &str) {
        let Some((ids, rest)) = rest.split_once(']') else {
            return;
        };
        let Some((pid, tid)) = ids.split_once(',') else {
            return;
        };
        let (Ok(pid), Ok(tid)) = (pid.parse::<u32>(), tid.parse::<u32>()) else {
            return;
        };
        // `(nr) name ( args ) ...`, or `(nr) ... [async] --> result` for a call's end.
        let Some((_, rest)) = rest.split_once(") ") else {
            return;
        };
        if let Some(result) = rest.strip_prefix("... ") {
            if let Some((name, path)) = self.pending.remove(&(pid, tid)) {
                self.ended(pid, &name, path, result);
            }
            return;
        }
        let Some((name, args)) = rest.split_once(" ( ").or_else(|| rest.split_once("( ")) else {
            return;
        };
        let name = name.trim();
        let name = name.strip_prefix("sys_").unwrap_or(name);
        let result = args.split_once("-->").map(|(_, r)| r);
        let args = arguments(args);
        let path = self.call(pid, name, &args);
        match result {
            Some(result) if result.contains("[async] ...") => {
                self.pending.insert((pid, tid), (name.to_owned(), path));
            }
            Some(result) => self.ended(pid, name, path, result),
            None => {}
        }
    }

    /// A call's end: a directory opened gets its descriptor, a directory entered becomes the
    /// working directory.
    fn ended(&mut self, pid: u32, name: &str, path: Option<PathBuf>, result: &str) {
        let (Some(path), Some(value)) = (path, success(result)) else {
            return;
        };
        match name {
            "open" | "openat" => {
                self.fds.insert((pid, value), path);
            }
            "chdir" => {
                self.cwd = path;
                self.entered = true;
            }
            _ => {}
        }
    }

    /// The absolute path of a path argument relative to the directory descriptor `dirfd` (or
    /// the working directory).
    fn resolve(&mut self, pid: u32, dirfd: Option<&Arg>, path: &str) -> Option<PathBuf> {
        let path = Path::new(path);
        if path.is_absolute() {
            return Some(path.to_owned());
        }
        let base = match dirfd {
            None => Some(self.cwd.clone()),
            Some(Arg::Number(fd)) if AT_FDCWD.contains(fd) => Some(self.cwd.clone()),
            Some(Arg::Number(fd)) => number(fd).and_then(|fd| self.fds.get(&(pid, fd)).cloned()),
            Some(Arg::Text(_)) => None,
        };
        match base {
            Some(_) if self.entered => {
                self.unplaced(format!(
                    "it changed its working directory and then used the relative path {}",
                    path.display()
                ));
                None
            }
            Some(base) => Some(base.join(path)),
            None => {
                self.unplaced(format!(
                    "it used the path {} relative to a directory whose opening the trace does \
                     not show",
                    path.display()
                ));
                None
            }
        }
    }

    fn note(&mut self, path: PathBuf, how: Use) {
        if pseudo(&path) {
            return;
        }
        match how {
            Use::Read | Use::Enter => {
                self.traced.inputs.entry(path).or_insert(false);
            }
            Use::Change => {
                self.traced.changed.insert(path);
            }
        }
    }

    /// Notes what a call touches; returns the path whose descriptor or directory its result
    /// gives (an opened directory, a directory entered).
    fn call(&mut self, pid: u32, name: &str, args: &[Arg]) -> Option<PathBuf> {
        match name {
            "open" | "openat" | "creat" => {
                let (dirfd, at) = match name {
                    "openat" => (args.first(), 1),
                    _ => (None, 0),
                };
                let Some(Arg::Text(text)) = args.get(at) else {
                    return None;
                };
                let flags = match (name, args.get(at + 1)) {
                    ("creat", _) => 0o1101,
                    (_, Some(Arg::Number(n))) => number(n).unwrap_or(u64::MAX),
                    _ => u64::MAX,
                };
                let path = self.resolve(pid, dirfd, text)?;
                let access = flags & 3;
                let (create, exclusive, truncate, append) = (
                    flags & 0o100 != 0,
                    flags & 0o200 != 0,
                    flags & 0o1000 != 0,
                    flags & 0o2000 != 0,
                );
                if access == 0 && !create && !truncate {
                    self.note(path.clone(), Use::Read);
                } else if access == 1 && (create || truncate) && !exclusive && !append {
                    if !pseudo(&path) {
                        self.traced.written.insert(path.clone());
                    }
                } else {
                    self.note(path.clone(), Use::Change);
                }
                Some(path)
            }
            "getdents" | "getdents64" => {
                let fd = match args.first() {
                    Some(Arg::Number(fd)) => number(fd),
                    _ => None,
                };
                match fd.and_then(|fd| self.fds.get(&(pid, fd)).cloned()) {
                    Some(dir) if pseudo(&dir) => {}
                    Some(dir) => {
                        self.traced.inputs.insert(dir, true);
                    }
                    None => self.unplaced(
                        "it listed a directory whose opening the trace does not show".into(),
                    ),
                }
                None
            }
            "fchdir" => {
                self.entered = true;
                self.unplaced("it changed its working directory by descriptor (fchdir)".into());
                None
            }
            _ => {
                let texts = args.iter().filter(|a| matches!(a, Arg::Text(_))).count();
                let Some((slots, how)) = shape(name) else {
                    if texts > 0 && !harmless(name) {
                        self.unplaced(format!("it made a system call benchgrind does not read ({name}) with a text argument"));
                    }
                    return None;
                };
                // The path arguments in order, each with its directory descriptor.
                let mut texts = args
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| matches!(a, Arg::Text(_)));
                let mut entered = None;
                for slot in slots {
                    let Some((_, Arg::Text(text))) = texts.next() else {
                        break;
                    };
                    if text.is_empty() {
                        // `AT_EMPTY_PATH`: the descriptor itself, already opened.
                        continue;
                    }
                    let dirfd = slot.and_then(|i| args.get(i));
                    if let Some(path) = self.resolve(pid, dirfd, text) {
                        if how == Use::Enter {
                            entered = Some(path.clone());
                        }
                        self.note(path, how);
                    }
                }
                entered
            }
        }
    }
}

/// Calls whose text arguments are not paths.
fn harmless(name: &str) -> bool {
    matches!(
        name,
        "memfd_create" | "prctl" | "sethostname" | "setdomainname" | "write" | "pwrite64"
    )
}

/// Whether a path is on a pseudo-file system (the kernel's state, not a file).
pub fn pseudo(path: &Path) -> bool {
    ["/proc", "/sys", "/dev"]
        .iter()
        .any(|root| path.starts_with(root))
}

/// Takes the system calls out of a log Valgrind wrote with [`crate::execute::args::TRACE_SYSCALLS`]:
/// the log is rewritten as it would have been without them; the calls are returned.
pub fn take(log: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(log) else {
        return String::new();
    };
    if !text.contains("SYSCALL[") {
        return String::new();
    }
    let (mut calls, mut rest) = (String::new(), String::new());
    for line in text.split_inclusive('\n') {
        // A result printed on a line of its own (` --> [pre-success] ...`) is part of a call.
        if line.starts_with("SYSCALL[") || line.starts_with(" --> ") {
            calls.push_str(line);
        } else {
            rest.push_str(line);
        }
    }
    let _ = crate::store::write_hint(log, rest.as_bytes());
    calls
}
