//! The measured process: the bench binary started by Valgrind, before `main!` builds anything.
//!
//! Two modes, both finding the bench in the static table `main!` generates (never in the
//! registration data, whose heap footprint grows with every benchmark registered):
//! - `--benchgrind-run G F B [--benchgrind-seed=N]` runs one bench and exits (one Valgrind
//!   process per benchmark, `--isolation=process`);
//! - `--benchgrind-server` is the fork server: it reads requests `SEQ G F B SEED DIR\n` on
//!   stdin, forks a child per request that runs the bench (setup, measured call, teardown) with
//!   stdin from `/dev/null` and its output in `DIR/capture.stdout` and `DIR/capture.stderr`,
//!   waits for it and answers `SEQ PID exit CODE\n` or `SEQ PID signal N\n`. Answers go to a
//!   private descriptor (stdout is moved there at start and pointed at `/dev/null`), so nothing a
//!   benchmark prints can ever be taken for an answer; the sequence number catches any other
//!   slip. Callgrind gives each child its own profile (`%p` in the file names). Between requests
//!   the server touches only stack buffers, so every child starts from the same state.

use std::ffi::{c_char, c_int, CStr};
use std::io::Write;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use crate::child::{FLAG, SEED_FLAG};

/// The flag that starts the fork server.
pub const SERVER_FLAG: &str = "--benchgrind-server";

/// The table of bench code: group, function, bench.
pub type Table = &'static [&'static [&'static [fn()]]];

/// argc and argv as the C runtime passed them, captured before `main` (see [`CAPTURE`]).
static ARGC: AtomicUsize = AtomicUsize::new(0);
static ARGV: AtomicPtr<*const c_char> = AtomicPtr::new(std::ptr::null_mut());

extern "C" fn capture(argc: c_int, argv: *const *const c_char, _envp: *const *const c_char) {
    ARGC.store(argc.max(0) as usize, Ordering::Relaxed);
    ARGV.store(argv.cast_mut(), Ordering::Relaxed);
}

/// glibc calls the functions of `.init_array` with argc, argv and envp, so the arguments can be
/// read without `std::env::args_os`, which copies them to the heap: the measured process then
/// starts every bench from the same heap, whichever way it was started.
#[used]
#[link_section = ".init_array"]
static CAPTURE: extern "C" fn(c_int, *const *const c_char, *const *const c_char) = capture;

/// Argument `i` (0 is the program) without allocating, if captured and present.
fn arg(i: usize) -> Option<&'static [u8]> {
    let argv = ARGV.load(Ordering::Relaxed);
    if argv.is_null() || i >= ARGC.load(Ordering::Relaxed) {
        return None;
    }
    // SAFETY: argv has argc valid, NUL-terminated entries that live as long as the process.
    unsafe {
        let ptr = *argv.add(i);
        (!ptr.is_null()).then(|| CStr::from_ptr(ptr).to_bytes())
    }
}

/// Returns when this process is not a measured process; else runs what it was started for and
/// exits.
pub fn measured_process(table: Table) {
    let first = match arg(1) {
        Some(first) => first,
        // Not captured (not glibc): the allocating way, which only costs some heap state.
        None if ARGV.load(Ordering::Relaxed).is_null() => {
            return measured_process_allocating(table);
        }
        None => return,
    };
    if first == SERVER_FLAG.as_bytes() {
        serve(table);
    }
    if first != FLAG.as_bytes() {
        return;
    }
    run_one(table, [arg(2), arg(3), arg(4), arg(5)]);
}

fn measured_process_allocating(table: Table) {
    let args: Vec<Vec<u8>> = std::env::args_os()
        .map(|a| a.into_encoded_bytes())
        .collect();
    let get = |i: usize| -> Option<&'static [u8]> {
        args.get(i)
            .map(|a| &*Box::leak(a.clone().into_boxed_slice()))
    };
    match args.get(1).map(Vec::as_slice) {
        Some(first) if first == SERVER_FLAG.as_bytes() => serve(table),
        Some(first) if first == FLAG.as_bytes() => run_one(table, [get(2), get(3), get(4), get(5)]),
        _ => {}
    }
}

/// `--benchgrind-run G F B [--benchgrind-seed=N]`: runs one bench and exits.
fn run_one(table: Table, rest: [Option<&[u8]>; 4]) -> ! {
    let number = |a: Option<&[u8]>| std::str::from_utf8(a?).ok()?.parse::<u64>().ok();
    let parsed = (|| {
        let [g, f, b] = [number(rest[0])?, number(rest[1])?, number(rest[2])?].map(|n| n as usize);
        let seed = match rest[3] {
            None => None,
            Some(arg) => {
                let value = arg.strip_prefix(SEED_FLAG.as_bytes())?.strip_prefix(b"=")?;
                Some(number(Some(value))?)
            }
        };
        Some(([g, f, b], seed))
    })();
    let Some((index, seed)) = parsed else {
        eprintln!("benchgrind: {FLAG} needs three indices and an optional {SEED_FLAG}=N");
        std::process::exit(2);
    };
    let code = match lookup(table, index) {
        Some(bench) => {
            if let Some(seed) = seed {
                crate::random::enable(seed);
            }
            bench();
            0
        }
        None => {
            eprintln!("benchgrind: no benchmark at {index:?}: the binary changed since the plan");
            1
        }
    };
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}

fn lookup(table: Table, [g, f, b]: [usize; 3]) -> Option<fn()> {
    table.get(g)?.get(f)?.get(b).copied()
}

/// The descriptor answers go to: stdout, moved out of the way of everything else.
const ANSWERS: i32 = 100;

/// The fork server's loop; exits when stdin closes.
fn serve(table: Table) -> ! {
    // SAFETY: plain descriptor operations on descriptors this process owns; F_DUPFD_CLOEXEC
    // keeps the answer pipe out of the children's programs, and stdout becomes /dev/null.
    unsafe {
        if libc::fcntl(1, libc::F_DUPFD_CLOEXEC, ANSWERS) != ANSWERS {
            fatal(b"benchgrind server: cannot set up the answer descriptor\n");
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null < 0 || libc::dup2(null, 1) < 0 {
            fatal(b"benchgrind server: cannot open /dev/null\n");
        }
        libc::close(null);
    }
    let mut buf = [0u8; 8192];
    let mut len = 0usize;
    loop {
        let end = loop {
            if let Some(pos) = buf[..len].iter().position(|&b| b == b'\n') {
                break pos;
            }
            if len == buf.len() {
                fatal(b"benchgrind server: request too long\n");
            }
            // SAFETY: reads into the unused tail of a stack buffer of which it owns `len..`.
            let n = unsafe { libc::read(0, buf[len..].as_mut_ptr().cast(), buf.len() - len) };
            if n == 0 {
                // SAFETY: plain process exit; the server has nothing to flush.
                unsafe { libc::_exit(0) };
            }
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                fatal(b"benchgrind server: cannot read requests\n");
            }
            len += n as usize;
        };
        let mut line = [0u8; 8192];
        line[..end].copy_from_slice(&buf[..end]);
        buf.copy_within(end + 1..len, 0);
        len -= end + 1;
        handle(table, &line[..end]);
    }
}

/// One request: fork, run in the child, wait and answer in the parent.
fn handle(table: Table, request: &[u8]) {
    let Some((seq, index, seed, dir)) = parse_request(request) else {
        fatal(b"benchgrind server: malformed request\n");
    };
    // SAFETY: the server is single-threaded, so the child may run arbitrary code after fork.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        fatal(b"benchgrind server: fork failed\n");
    }
    if pid == 0 {
        child(table, index, seed, dir);
    }
    let mut status = 0;
    loop {
        // SAFETY: waits for the child just forked; `status` is a valid out pointer.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            break;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            fatal(b"benchgrind server: waitpid failed\n");
        }
    }
    let mut answer = [0u8; 64];
    let mut cursor = std::io::Cursor::new(&mut answer[..]);
    let _ = if libc::WIFEXITED(status) {
        writeln!(cursor, "{seq} {pid} exit {}", libc::WEXITSTATUS(status))
    } else {
        writeln!(cursor, "{seq} {pid} signal {}", libc::WTERMSIG(status))
    };
    let n = cursor.position() as usize;
    write_all(ANSWERS, &answer[..n]);
}

/// In the child: no input, output to the capture files, the seed, the bench, exit.
fn child(table: Table, index: [usize; 3], seed: Option<u64>, dir: &[u8]) -> ! {
    // SAFETY: descriptor operations on this process's own descriptors.
    unsafe {
        libc::close(ANSWERS);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if null < 0 || libc::dup2(null, 0) < 0 {
            fatal(b"benchgrind: cannot open /dev/null for the benchmark's stdin\n");
        }
        libc::close(null);
    }
    redirect(dir, b"/capture.stdout\0", 1);
    redirect(dir, b"/capture.stderr\0", 2);
    let Some(bench) = lookup(table, index) else {
        write_all(
            2,
            b"benchgrind: no benchmark at these indices: the binary changed\n",
        );
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(1) };
    };
    if let Some(seed) = seed {
        crate::random::enable(seed);
    }
    let code = match std::panic::catch_unwind(bench) {
        Ok(()) => 0,
        Err(_) => 101,
    };
    let _ = std::io::stdout().flush();
    // SAFETY: ends the child; Callgrind writes its profile at exit.
    unsafe { libc::_exit(code) };
}

/// Points `fd` at `dir` + `name` (NUL-terminated), created or truncated; built on the stack.
fn redirect(dir: &[u8], name: &[u8], fd: i32) {
    let mut path = [0u8; 8192];
    if dir.len() + name.len() > path.len() {
        fatal(b"benchgrind server: path too long\n");
    }
    path[..dir.len()].copy_from_slice(dir);
    path[dir.len()..dir.len() + name.len()].copy_from_slice(name);
    // SAFETY: `path` is NUL-terminated (name ends with NUL) and outlives the call.
    let file = unsafe {
        libc::open(
            path.as_ptr().cast(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC,
            0o644,
        )
    };
    // SAFETY: both descriptors are valid; dup2 replaces `fd` atomically.
    let redirected = file >= 0 && unsafe { libc::dup2(file, fd) } == fd;
    if !redirected {
        fatal(b"benchgrind: cannot create the benchmark's capture file\n");
    }
    // SAFETY: `file` is a descriptor this process opened.
    unsafe { libc::close(file) };
}

/// A request: sequence number, bench indices, seed and the bench's directory.
type Request<'a> = (u64, [usize; 3], Option<u64>, &'a [u8]);

/// `SEQ G F B SEED DIR`, SEED `-` for none; DIR is the rest of the line.
fn parse_request(line: &[u8]) -> Option<Request<'_>> {
    let mut rest = line;
    let mut next = || -> Option<&[u8]> {
        let pos = rest.iter().position(|&b| b == b' ')?;
        let field = &rest[..pos];
        rest = &rest[pos + 1..];
        Some(field)
    };
    let number = |field: &[u8]| std::str::from_utf8(field).ok()?.parse::<u64>().ok();
    let seq = number(next()?)?;
    let g = number(next()?)? as usize;
    let f = number(next()?)? as usize;
    let b = number(next()?)? as usize;
    let seed_field = next()?;
    let seed = if seed_field == b"-" {
        None
    } else {
        Some(number(seed_field)?)
    };
    (!rest.is_empty()).then_some((seq, [g, f, b], seed, rest))
}

fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a valid slice.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

fn fatal(message: &[u8]) -> ! {
    write_all(2, message);
    // SAFETY: plain process exit.
    unsafe { libc::_exit(70) };
}

#[cfg(test)]
mod tests {
    use super::parse_request;

    #[test]
    fn requests() {
        assert_eq!(
            parse_request(b"7 1 2 3 - /tmp/some dir"),
            Some((7, [1, 2, 3], None, &b"/tmp/some dir"[..]))
        );
        assert_eq!(
            parse_request(b"0 0 0 0 42 /x"),
            Some((0, [0, 0, 0], Some(42), &b"/x"[..]))
        );
        assert_eq!(parse_request(b"0 0 0 0 42 "), None);
        assert_eq!(parse_request(b"0 0 0 x - /x"), None);
        assert_eq!(parse_request(b"0 0"), None);
    }
}
