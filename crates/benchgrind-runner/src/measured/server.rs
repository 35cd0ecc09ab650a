//! The fork server inside the measured process: reads requests on stdin, forks a child per
//! request that runs the bench, and answers how it ended (see [`crate::protocol`]). Between
//! requests it touches only stack buffers, so every child starts from the same state.
//!
//! The child does as little as it can before its benchmark: everything it runs that the server
//! never ran is translated by Valgrind afresh in every child (about 17 µs per block under
//! Callgrind). So the server sets the child's descriptors up before it forks (stdin is
//! `/dev/null` for good, stdout and stderr are pointed at the capture files for the time of the
//! fork), and it drops the translations of its own start-up once, before its first request: the
//! first window's start discards every translation there is, in every child (unchaining each,
//! which writes to pages the child then copies).

use std::io::Write;

use super::table::{lookup, Table};
use crate::protocol::{parse_request, write_answer, Answer, End, CAPTURE_FILES};

/// The descriptor answers go to: stdout, moved out of the way of everything else.
const ANSWERS: i32 = 100;
/// The descriptor requests come from: stdin, moved out of the children's way.
const REQUESTS: i32 = 101;
/// The harness's stderr, where the server's own complaints go.
const COMPLAINTS: i32 = 102;
/// `/dev/null`, for stdout and stderr between requests.
const NULL: i32 = 103;
/// The server's descriptors, which no child keeps.
const OWN: [i32; 4] = [ANSWERS, REQUESTS, COMPLAINTS, NULL];

/// The fork server's loop; exits when stdin closes.
pub(super) fn serve(table: Table) -> ! {
    discard_translations();
    // SAFETY: plain descriptor operations on descriptors this process owns; F_DUPFD_CLOEXEC
    // keeps the server's own descriptors out of the programs children start, and stdin,
    // stdout and stderr become /dev/null.
    unsafe {
        for (from, to) in [(1, ANSWERS), (0, REQUESTS), (2, COMPLAINTS)] {
            if libc::fcntl(from, libc::F_DUPFD_CLOEXEC, to) != to {
                fatal(b"benchgrind server: cannot set up its descriptors\n");
            }
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null < 0 || libc::fcntl(null, libc::F_DUPFD_CLOEXEC, NULL) != NULL {
            fatal(b"benchgrind server: cannot open /dev/null\n");
        }
        libc::close(null);
        for fd in [0, 1, 2] {
            if libc::dup2(NULL, fd) != fd {
                fatal(b"benchgrind server: cannot open /dev/null\n");
            }
        }
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
            let n =
                unsafe { libc::read(REQUESTS, buf[len..].as_mut_ptr().cast(), buf.len() - len) };
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

/// Drops every translation Valgrind made so far (of the process's start-up, thousands of
/// blocks that no benchmark runs again), so that the discard at each window's start has only
/// the server's own few to undo. Counts nothing and changes nothing the program sees.
fn discard_translations() {
    use crate::client_request::{request, valgrind};
    // Valgrind's whole address space but for the first page, as Callgrind's own discard.
    request(0, valgrind::DISCARD_TRANSLATIONS, [0x1000, !0xfff, 0, 0, 0]);
}

/// One request: fork, run in the child, wait and answer in the parent.
fn handle(table: Table, request: &[u8]) {
    let Some((seq, index, seed, dir)) = parse_request(request) else {
        fatal(b"benchgrind server: malformed request\n");
    };
    // The child's stdout and stderr, inherited through the fork.
    let ready = redirect(dir, CAPTURE_FILES[0], 1) && redirect(dir, CAPTURE_FILES[1], 2);
    // SAFETY: the server is single-threaded, so the child may run arbitrary code after fork.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        fatal(b"benchgrind server: fork failed\n");
    }
    if pid == 0 {
        child(table, index, seed, ready);
    }
    // SAFETY: points the server's stdout and stderr back at /dev/null, closing the files.
    unsafe {
        libc::dup2(NULL, 1);
        libc::dup2(NULL, 2);
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
    let end = if libc::WIFEXITED(status) {
        End::Exit(libc::WEXITSTATUS(status))
    } else {
        End::Signal(libc::WTERMSIG(status))
    };
    let mut answer = [0u8; 64];
    let n = write_answer(
        Answer {
            seq,
            pid: pid as u32,
            end,
        },
        &mut answer,
    );
    write_all(ANSWERS, &answer[..n]);
}

/// In the child (stdin, stdout and stderr already set up, if `ready`): the seed, the bench,
/// exit.
fn child(table: Table, index: [usize; 3], seed: Option<u64>, ready: bool) -> ! {
    if !ready {
        fatal(b"benchgrind: cannot create the benchmark's capture file\n");
    }
    for fd in OWN {
        // SAFETY: closes the server's descriptors, which this process inherited.
        unsafe { libc::close(fd) };
    }
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
    crate::clock::fix();
    let code = match std::panic::catch_unwind(bench) {
        Ok(()) => 0,
        Err(_) => 101,
    };
    let _ = std::io::stdout().flush();
    // SAFETY: ends the child; Callgrind writes its profile at exit.
    unsafe { libc::_exit(code) };
}

/// Points `fd` at the file `name` in `dir`, created or truncated; the path is built on the
/// stack. False if that could not be done.
fn redirect(dir: &[u8], name: &str, fd: i32) -> bool {
    let mut path = [0u8; 8192];
    let name = name.as_bytes();
    // `dir`, `/`, `name` and the NUL.
    if dir.len() + name.len() + 2 > path.len() {
        return false;
    }
    path[..dir.len()].copy_from_slice(dir);
    path[dir.len()] = b'/';
    path[dir.len() + 1..dir.len() + 1 + name.len()].copy_from_slice(name);
    // SAFETY: `path` is NUL-terminated (the buffer is zeroed past the name) and outlives the
    // call.
    let file = unsafe {
        libc::open(
            path.as_ptr().cast(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC,
            0o644,
        )
    };
    // SAFETY: both descriptors are valid; dup2 replaces `fd` atomically (and the copy is
    // inherited by the programs the benchmark starts).
    let redirected = file >= 0 && unsafe { libc::dup2(file, fd) } == fd;
    if file >= 0 {
        // SAFETY: `file` is a descriptor this process opened.
        unsafe { libc::close(file) };
    }
    redirected
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
    // The harness's stderr: before the server's descriptors are set up it is still 2.
    // SAFETY: fcntl only asks whether the descriptor is open.
    let to = if unsafe { libc::fcntl(COMPLAINTS, libc::F_GETFD) } >= 0 {
        COMPLAINTS
    } else {
        2
    };
    write_all(to, message);
    // SAFETY: plain process exit.
    unsafe { libc::_exit(70) };
}
