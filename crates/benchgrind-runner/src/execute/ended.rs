//! How a process ended, in words for the report: a panic message, an exit code or a signal,
//! and Valgrind's own complaint from its log.

use crate::error::Problem;
use crate::problem;

/// How a process that failed ended, for the report: the panic message when its stderr holds
/// one, else its exit code or signal.
pub(crate) fn describe_end(status: &std::process::ExitStatus, stderr: &str) -> String {
    match (panic_message(stderr), status.code()) {
        (Some(panic), _) => format!("panicked: {panic}"),
        // Rust's exit code for a panic whose hook is not std's (color-eyre, human-panic): its
        // words are in stderr, from the line that names the panic.
        (None, Some(101)) if !stderr.trim().is_empty() => format!(
            "exited with code 101 (a panic); its stderr said:\n    {}",
            panic_lines(stderr, 6).join("\n    ")
        ),
        (None, Some(code)) => format!("exited with code {code}"),
        (None, None) => format!("was killed by signal {}", signal(status).unwrap_or(0)),
    }
}

/// Up to `n` non-empty lines of `stderr` from the last one that speaks of a panic (where panic
/// hooks put their message), else its last `n`; terminal colours and other escape sequences
/// left out.
fn panic_lines(stderr: &str, n: usize) -> Vec<String> {
    let plain = strip_escapes(stderr);
    let lines: Vec<String> = plain
        .lines()
        .map(|l| l.trim_end().to_owned())
        .filter(|l| !l.trim().is_empty())
        .collect();
    let start = lines
        .iter()
        .rposition(|l| l.to_lowercase().contains("panic"))
        .unwrap_or(lines.len().saturating_sub(n));
    lines[start..].iter().take(n).cloned().collect()
}

/// `text` without ANSI escape sequences (`ESC [ ... letter`).
fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The signal that ended a process, where there are signals.
pub(crate) fn signal(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal()
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// The message of a Rust panic in captured stderr: the text after `panicked at <location>:`.
pub(crate) fn panic_message(stderr: &str) -> Option<String> {
    let start = stderr.find("panicked at ")?;
    let rest = &stderr[start..];
    let mut lines = rest.lines();
    let first = lines.next()?;
    let location = first
        .trim_start_matches("panicked at ")
        .trim_end_matches(':');
    let message: Vec<&str> = lines
        .take_while(|l| !l.starts_with("note: ") && !l.starts_with("stack backtrace"))
        .collect();
    Some(format!("{} (at {location})", message.join("\n").trim()))
}

/// Valgrind's own complaint in a log (an unknown option, a bad value), if any.
pub(crate) fn valgrind_error(log: &str) -> Option<String> {
    log.lines()
        .map(|l| {
            l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .trim()
        })
        .find(|l| {
            l.starts_with("valgrind:")
                || l.starts_with("Bad option")
                || l.contains("Unknown option")
        })
        .map(str::to_owned)
}

/// Why Valgrind could not be started in `cwd`: the error, or that the directory is gone (a bench
/// binary runs its benchmarks in its package's directory, which it was built in; one moved or
/// removed since makes the start fail with "No such file or directory", which would otherwise
/// seem to be about Valgrind).
pub(crate) fn cannot_start(
    valgrind: &std::path::Path,
    cwd: &std::path::Path,
    e: &std::io::Error,
) -> Problem {
    if !cwd.is_dir() {
        return problem!(
            "cannot start Valgrind in {}: that directory does not exist (the package's directory \
             when the bench binary was built; build and run it where the package is now)",
            cwd.display()
        );
    }
    problem!("cannot start {}: {e}", valgrind.display())
}

/// What Valgrind writes to a process's log when the process wants more threads at once than
/// `--max-threads` allows.
const OUT_OF_THREAD_SLOTS: &str = "Max number of threads is too low";

/// Whether a Callgrind run whose logs are in the benchmark directory `dir` (the measured
/// process's and those of the processes it started) ended because it ran out of thread slots.
pub(crate) fn out_of_thread_slots(dir: &std::path::Path) -> bool {
    let measured = dir.join("callgrind.log.new");
    let children = std::fs::read_dir(dir.join(super::parts::CHILDREN)).into_iter();
    let logs = children.flatten().flatten().map(|e| e.path());
    std::iter::once(measured).chain(logs).any(|log| {
        std::fs::read_to_string(log).is_ok_and(|text| text.contains(OUT_OF_THREAD_SLOTS))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_under_another_hook_is_told_by_its_lines_of_stderr() {
        use std::os::unix::process::ExitStatusExt;
        let status = std::process::ExitStatus::from_raw(101 << 8);
        let stderr = "\u{1b}[31mThe application panicked (crashed).\u{1b}[0m\n\
                      Message:  \u{1b}[36mcalled `Result::unwrap()` on an `Err` value:\n   \
                      0: \u{1b}[91mError opening data.hdt, did you download it?\u{1b}[0m\n\n\
                      Location: benches/gungraun.rs:15\n\nBacktrace omitted.\n\
                      Run with RUST_BACKTRACE=full to include source snippets.\n";
        let said = describe_end(&status, stderr);
        assert!(said.starts_with("exited with code 101 (a panic); its stderr said:"));
        assert!(
            said.contains("\n    The application panicked (crashed)."),
            "{said}"
        );
        assert!(
            said.contains("\n       0: Error opening data.hdt, did you download it?"),
            "{said}"
        );
        assert!(!said.contains('\u{1b}'), "{said}");
        // Other codes, and a silent 101, as before.
        let status = std::process::ExitStatus::from_raw(201 << 8);
        assert_eq!(describe_end(&status, "x\n"), "exited with code 201");
        let status = std::process::ExitStatus::from_raw(101 << 8);
        assert_eq!(describe_end(&status, ""), "exited with code 101");
    }

    #[test]
    fn a_start_in_a_directory_that_is_gone_says_so() {
        let gone = std::path::Path::new("/nonexistent/package");
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        let reason = cannot_start(std::path::Path::new("/usr/bin/valgrind"), gone, &e);
        assert!(
            reason.contains("/nonexistent/package: that directory does not exist"),
            "{reason}"
        );
        let here = std::env::temp_dir();
        let reason = cannot_start(std::path::Path::new("/usr/bin/valgrind"), &here, &e);
        assert!(
            reason.starts_with("cannot start /usr/bin/valgrind: "),
            "{reason}"
        );
    }

    #[test]
    fn panic_messages_from_stderr() {
        let stderr = "\nthread 'main' panicked at benches/x.rs:10:5:\nboom: 3\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(stderr).as_deref(),
            Some("boom: 3 (at benches/x.rs:10:5)")
        );
        assert_eq!(panic_message("nothing"), None);
    }

    #[test]
    fn valgrind_complaints_from_the_log() {
        let log = "==12== Callgrind\nvalgrind: Unknown option: --frob=1\n";
        assert_eq!(
            valgrind_error(log).as_deref(),
            Some("valgrind: Unknown option: --frob=1")
        );
    }
}
