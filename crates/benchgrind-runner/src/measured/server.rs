//! The fork server inside the measured process: reads requests on stdin, forks a child per
//! request that runs the bench, and answers how it ended (see [`crate::protocol`]). Between
//! requests it touches only stack buffers, so every child starts from the same state.

use std::io::Write;

use super::table::{lookup, Table};
use crate::protocol::{parse_request, write_answer, Answer, End, CAPTURE_FILES};

/// The descriptor answers go to: stdout, moved out of the way of everything else.
const ANSWERS: i32 = 100;

/// The fork server's loop; exits when stdin closes.
pub(super) fn serve(table: Table) -> ! {
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
    redirect(dir, CAPTURE_FILES[0], 1);
    redirect(dir, CAPTURE_FILES[1], 2);
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

/// Points `fd` at the file `name` in `dir`, created or truncated; the path is built on the stack.
fn redirect(dir: &[u8], name: &str, fd: i32) {
    let mut path = [0u8; 8192];
    let name = name.as_bytes();
    // `dir`, `/`, `name` and the NUL.
    if dir.len() + name.len() + 2 > path.len() {
        fatal(b"benchgrind server: path too long\n");
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
    // SAFETY: both descriptors are valid; dup2 replaces `fd` atomically.
    let redirected = file >= 0 && unsafe { libc::dup2(file, fd) } == fd;
    if !redirected {
        fatal(b"benchgrind: cannot create the benchmark's capture file\n");
    }
    // SAFETY: `file` is a descriptor this process opened.
    unsafe { libc::close(file) };
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
