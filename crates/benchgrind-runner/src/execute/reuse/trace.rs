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

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

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

/// `AT_FDCWD` as Valgrind prints it on 64-bit targets, and as a signed number.
const AT_FDCWD: [&str; 2] = ["4294967196", "-100"];

/// How a call uses the path arguments it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// Reads it or looks at it.
    Read,
    /// Changes it.
    Change,
    /// Enters it (`chdir`).
    Enter,
}

/// The arguments of a call: which are directory descriptors for the path after them and how
/// the paths are used; `None` for a call this reader does not know.
fn shape(name: &str) -> Option<(&'static [Option<usize>], Use)> {
    // Each slot: `Some(i)` is a path whose directory descriptor is argument `i`, `None` a path
    // relative to the working directory.
    const PATH: &[Option<usize>] = &[None];
    const AT: &[Option<usize>] = &[Some(0)];
    const TWO: &[Option<usize>] = &[None, None];
    const TWO_AT: &[Option<usize>] = &[Some(0), Some(2)];
    let shape: (&[Option<usize>], Use) = match name {
        "stat" | "newstat" | "stat64" | "lstat" | "newlstat" | "lstat64" | "access"
        | "readlink" | "statfs" | "statfs64" | "execve" | "getxattr" | "lgetxattr"
        | "listxattr" | "llistxattr" | "uselib" => (PATH, Use::Read),
        "newfstatat" | "fstatat64" | "statx" | "faccessat" | "faccessat2" | "readlinkat"
        | "execveat" | "name_to_handle_at" => (AT, Use::Read),
        "mkdir" | "rmdir" | "unlink" | "chmod" | "chown" | "lchown" | "utime" | "utimes"
        | "truncate" | "truncate64" | "setxattr" | "lsetxattr" | "removexattr" | "lremovexattr"
        | "mknod" => (PATH, Use::Change),
        "mkdirat" | "unlinkat" | "fchmodat" | "fchmodat2" | "fchownat" | "utimensat"
        | "futimesat" | "mknodat" => (AT, Use::Change),
        "rename" | "link" | "symlink" => (TWO, Use::Change),
        "renameat" | "renameat2" | "linkat" => (TWO_AT, Use::Change),
        "chdir" => (PATH, Use::Enter),
        _ => return None,
    };
    Some(shape)
}

/// One argument as Valgrind prints it: a number, or a string (`0x...(text)`).
#[derive(Debug, PartialEq, Eq)]
enum Arg<'a> {
    Number(&'a str),
    Text(&'a str),
}

/// The arguments of `sys_name ( ... )`, from the text after the opening parenthesis.
fn arguments(mut rest: &str) -> Vec<Arg<'_>> {
    let mut args = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with(')') {
            return args;
        }
        let hex_end = rest
            .strip_prefix("0x")
            .map(|h| 2 + h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len()));
        match hex_end.filter(|&end| rest[end..].starts_with('(')) {
            Some(end) => {
                let body = &rest[end + 1..];
                // The text ends at the parenthesis before the next argument or the list's end.
                let close = (0..body.len()).find(|&i| {
                    body.as_bytes()[i] == b')'
                        && (body[i + 1..].starts_with(',') || body[i + 1..].starts_with(" )"))
                });
                let Some(close) = close else {
                    args.push(Arg::Text(body));
                    return args;
                };
                args.push(Arg::Text(&body[..close]));
                rest = &body[close + 1..];
            }
            None => {
                let end = rest.find([',', ' ', ')']).unwrap_or(rest.len());
                args.push(Arg::Number(&rest[..end]));
                rest = &rest[end..];
            }
        }
        rest = rest.trim_start();
        match rest.strip_prefix(',') {
            Some(after) => rest = after,
            None => return args,
        }
    }
}

/// A number Valgrind printed, decimal or `0x` hexadecimal.
fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The result of a call, from the text after `-->`: the descriptor or value of a success.
fn success(text: &str) -> Option<u64> {
    let start = text.find("Success(")? + "Success(".len();
    let end = text[start..].find(')')? + start;
    number(&text[start..end])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(cwd: &str, log: &str) -> Traced {
        let mut tracer = Tracer::new(Path::new(cwd));
        tracer.log(log);
        tracer.finish()
    }

    #[test]
    fn arguments_are_numbers_and_texts_whatever_the_text_holds() {
        assert_eq!(
            arguments("4294967196, 0x1fff000a30(a, b) c), 0 ) --> [async] ... "),
            vec![
                Arg::Number("4294967196"),
                Arg::Text("a, b) c"),
                Arg::Number("0")
            ]
        );
        assert_eq!(
            arguments("0x4035eb0(/etc) )[sync] --> Success(0x0) "),
            vec![Arg::Text("/etc")]
        );
        assert_eq!(arguments(")[sync]"), vec![]);
    }

    // The lines below are as Valgrind 3.19 wrote them for `cat`, `ls` and `sh` (paths changed).
    #[test]
    fn opens_stats_and_listings_are_inputs_with_their_results_placed() {
        let log = "\
==1== Command: prog
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1fff000a30(input.txt), 0 ) --> [async] ... 
SYSCALL[1,1](257) ... [async] --> Success(0x3) 
SYSCALL[1,1](21) sys_access ( 0x402a2a0(/etc/ld.so.preload), 4 )[sync] --> Failure(0x2) 
SYSCALL[1,1](262) sys_newfstatat ( 1, 0x49dcdd5(), 0x1fff000560 )[sync] --> Success(0x0) 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1fff000a2b(/data), 591872 ) --> [async] ... 
SYSCALL[1,1](257) ... [async] --> Success(0x4) 
SYSCALL[1,1](217) sys_getdents64 ( 4, 0x403e2a0, 32768 ) --> [async] ... 
SYSCALL[1,1](217) ... [async] --> Success(0x50) 
SYSCALL[1,1](262) sys_newfstatat ( 4, 0x403e2c0(entry), 0x1fff000460, 256 )[sync] --> Success(0x0) 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x4035ea8(/dev/null), 577, 438 ) --> [async] ... 
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x4035ea8(out.json), 577, 438 ) --> [async] ... 
SYSCALL[1,1](332) sys_statx ( 4294967196, 0x1fff000a31(/proc/self/maps), 2304, 4095, 0x1fff000420 )[sync] --> Success(0x0) 
";
        let traced = trace("/work", log);
        let inputs: Vec<_> = traced
            .inputs
            .iter()
            .map(|(p, l)| (p.to_str().unwrap(), *l))
            .collect();
        assert_eq!(
            inputs,
            [
                ("/data", true),
                ("/data/entry", false),
                ("/etc/ld.so.preload", false),
                ("/work/input.txt", false)
            ]
        );
        assert_eq!(
            traced.written.iter().collect::<Vec<_>>(),
            [Path::new("/work/out.json")]
        );
        assert!(traced.changed.is_empty());
        assert_eq!(traced.unplaced, None);
    }

    #[test]
    fn changes_and_calls_that_cannot_be_placed_are_said() {
        let changed = trace(
            "/w",
            "SYSCALL[1,1](87) sys_unlink ( 0x1(old.txt) )[sync] --> Success(0x0) \n\
             SYSCALL[1,1](257) sys_openat ( 4294967196, 0x2(log), 1089, 420 ) --> [async] ... \n",
        );
        assert_eq!(
            changed.changed.iter().collect::<Vec<_>>(),
            [Path::new("/w/log"), Path::new("/w/old.txt")]
        );
        let unknown_fd = trace(
            "/w",
            "SYSCALL[1,1](262) sys_newfstatat ( 7, 0x3(x), 0x4, 0 )[sync] --> Success(0x0) \n",
        );
        assert!(unknown_fd
            .unplaced
            .unwrap()
            .contains("relative to a directory"));
        let entered = trace(
            "/w",
            "SYSCALL[1,1](80) sys_chdir ( 0x4035eb0(/etc) )[sync] --> Success(0x0) \n\
             SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1(hostname), 0 ) --> [async] ... \n",
        );
        assert!(entered.inputs.contains_key(Path::new("/etc")));
        assert!(entered.unplaced.unwrap().contains("working directory"));
        let unknown = trace(
            "/w",
            "SYSCALL[1,1](999) sys_frobnicate ( 0x1(/x) )[sync] --> Success(0x0) \n",
        );
        assert!(unknown.unplaced.unwrap().contains("frobnicate"));
    }
}
