//! What passes between the harness and the bench binary it starts as a child: the flags that
//! put the binary into a mode, the variables it reads, the files it writes, and the fork
//! server's requests and answers. Both sides ([`crate::execute`] and [`crate::measured`]) take
//! every name and format from here, so they cannot drift apart.

/// The flag that puts a bench binary in measured-process mode: `--benchgrind-run G F B
/// [--benchgrind-seed=N]` runs one bench and exits.
pub const FLAG: &str = "--benchgrind-run";

/// The flag, after the indices, that carries the seed of the fixed random stream. Passed on the
/// command line, not in the environment, which the measured process usually runs without.
pub const SEED_FLAG: &str = "--benchgrind-seed";

/// The flag that makes a bench binary sample one bench with perf's counters, natively:
/// `--benchgrind-perf OUT G F B [--benchgrind-seed=N]` writes the samples to `OUT`
/// ([`crate::perf::samples`]) and exits.
pub const PERF_FLAG: &str = "--benchgrind-perf";

/// The variable that carries the perf spec ([`crate::perf::samples::Spec`]) to the process
/// started with [`PERF_FLAG`].
pub const PERF_SPEC_ENV: &str = "BENCHGRIND_PERF_SPEC";

/// The flag that starts the fork server.
pub const SERVER_FLAG: &str = "--benchgrind-server";

/// The flag that makes a bench binary run a binary benchmark's setup or teardown:
/// `--benchgrind-hook setup|teardown G F B`, or measure a hook given `bench = true`:
/// `--benchgrind-hook measured before|after|setup|teardown G F B`.
pub const HOOK_FLAG: &str = "--benchgrind-hook";

/// The word after [`HOOK_FLAG`] that makes the hook process measure the hook.
pub const MEASURED_HOOK: &str = "measured";

/// The variable hooks find the workspace root in.
pub const WORKSPACE_ROOT_ENV: &str = "_WORKSPACE_ROOT";

/// The environment variable that [`crate::random::enable_from_env`] reads: a program under a
/// binary benchmark is started with it when its random bytes are to be deterministic.
pub const RANDOM_SEED_ENV: &str = "BENCHGRIND_RANDOM_SEED";

/// The symbol that `--toggle-collect` names on targets without client requests: the measured
/// window runs inside it.
/// Set for a measured process that runs under another tool than Callgrind (its name): the
/// measured window then sends no Callgrind request, which that tool would log as unknown.
pub const TOOL_ENV: &str = "BENCHGRIND_TOOL";

/// What the launcher appends to `VALGRIND_OPTS` of a measured process that opens the window
/// itself: Valgrind reads the variable at start, so the process starts uninstrumented; the
/// process cuts it off again before any benchmark runs ([`crate::measured`]), so that the
/// processes a benchmark starts (which Valgrind follows with the arguments of its command line
/// and the variable as they find it) are instrumented from their start. Leading space included.
pub const INSTR_ATSTART_OFF: &str = " --instr-atstart=no";

/// Cachegrind's spelling of [`INSTR_ATSTART_OFF`] (Valgrind 3.22 and newer), appended the same
/// way and cut off the same way; a process that finds it opens its window with Cachegrind's
/// start and stop requests.
pub const CACHEGRIND_INSTR_ATSTART_OFF: &str = " --instr-at-start=no";

/// The variable [`INSTR_ATSTART_OFF`] travels in.
pub const VALGRIND_OPTS_ENV: &str = "VALGRIND_OPTS";

/// The dynamic loader's variable that binds every symbol when a program starts
/// (`LD_BIND_NOW`): set for the bench binary of library benchmarks unless the benchmark sets it,
/// so that no first call of a shared library's function resolves its symbol inside the window.
pub const BIND_NOW_ENV: &str = "LD_BIND_NOW";

/// Set beside [`BIND_NOW_ENV`] when the harness added it: the measured process removes both
/// from its environment as it starts, so that the benchmark and the programs it starts see the
/// environment the benchmark asked for.
pub const BIND_NOW_ADDED_ENV: &str = "BENCHGRIND_BIND_NOW_ADDED";

/// Set for a measured process under DHAT only: the size in bytes of the "ballast" block that
/// the process allocates right before the measured window opens and frees right after it
/// closes, so that DHAT's global peak falls inside the window (see
/// [`crate::parse::dhat::Profile::ballast_at_peak`]). Never set under Callgrind.
pub const DHAT_BALLAST_ENV: &str = "BENCHGRIND_DHAT_BALLAST";

/// Set for a run of a benchmark with a shifted layout (`--layout-spread`) only, as
/// `HEAP:PADDING`: the measured process, when it starts (before anything allocates but the C
/// library), allocates a block that moves every later heap block by `HEAP` bytes and keeps it;
/// the variable itself, padded to its length, moves the initial stack
/// ([`crate::harness`]'s spread).
pub const LAYOUT_SHIFT_ENV: &str = "BENCHGRIND_LAYOUT_SHIFT";

/// The function that allocates the ballast block: its frame marks the ballast in DHAT's stacks.
pub const BALLAST_SYMBOL: &str = "__benchgrind_ballast";

/// The bits of a library bench index that hold the bench's place in its function's table; the
/// bits above hold the item of an `iter` bench (`#[benches::id(iter = ...)]`), plus one (0: not
/// an item). One index then names both, through the flags and requests unchanged.
pub const ITEM_SHIFT: u32 = 20;

/// The bench index of item `item` of the `iter` bench at `slot` of its function's table, or
/// `None` when either does not fit ([`ITEM_SHIFT`]).
pub fn item_index(slot: usize, item: usize) -> Option<usize> {
    if slot >= 1 << ITEM_SHIFT {
        return None;
    }
    let high = item.checked_add(1)?;
    (high < 1 << (usize::BITS - ITEM_SHIFT)).then_some(slot | high << ITEM_SHIFT)
}

/// A bench index split into the bench's place in its function's table and, for an `iter`
/// bench, the item ([`item_index`]).
pub fn split_index(index: usize) -> (usize, Option<usize>) {
    let slot = index & ((1 << ITEM_SHIFT) - 1);
    let high = index >> ITEM_SHIFT;
    (slot, high.checked_sub(1))
}

/// A decimal `u64`, without allocating (for the measured process before a benchmark runs).
pub fn parse_u64(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &d| {
        if d.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        } else {
            None
        }
    })
}

/// The symbol that `--toggle-collect` names on targets without client requests.
pub const FALLBACK_SYMBOL: &str = "__benchgrind_measured";

/// The files a fork server's child writes its stdout and stderr to, in the bench's directory.
pub const CAPTURE_FILES: [&str; 2] = ["capture.stdout", "capture.stderr"];

/// The fork server's request to run the bench at `index`: `SEQ G F B SEED DIR\n`, SEED `-` for
/// none. The directory goes as bytes, not lossy, whatever the path holds (newlines are refused
/// when planning).
pub fn request(seq: u64, index: [usize; 3], seed: Option<u64>, dir: &[u8]) -> Vec<u8> {
    let seed = seed.map_or_else(|| "-".to_owned(), |s| s.to_string());
    let [g, f, b] = index;
    let mut request = format!("{seq} {g} {f} {b} {seed} ").into_bytes();
    request.extend_from_slice(dir);
    request.push(b'\n');
    request
}

/// A request: sequence number, bench indices, seed and the bench's directory.
pub type Request<'a> = (u64, [usize; 3], Option<u64>, &'a [u8]);

/// Reads a [`request`] (without its newline); allocates nothing, for the server's loop.
pub fn parse_request(line: &[u8]) -> Option<Request<'_>> {
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

/// How a forked child ended, as the server answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Exit(i32),
    /// A signal killed it.
    Signal(i32),
}

/// The server's answer to request `seq`: `SEQ PID exit CODE` or `SEQ PID signal N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// The request's sequence number.
    pub seq: u64,
    /// The child's pid (in its Valgrind file names).
    pub pid: u32,
    /// How it ended.
    pub end: End,
}

/// Writes an answer with its newline into `out` (a stack buffer in the server); returns its
/// length.
pub fn write_answer(answer: Answer, out: &mut [u8]) -> usize {
    use std::io::Write;
    let mut cursor = std::io::Cursor::new(out);
    let (kind, value) = match answer.end {
        End::Exit(code) => ("exit", code),
        End::Signal(signal) => ("signal", signal),
    };
    let _ = writeln!(cursor, "{} {} {kind} {value}", answer.seq, answer.pid);
    cursor.position() as usize
}

/// Reads an answer line.
pub fn parse_answer(line: &str) -> Option<Answer> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [seq, pid, kind, value] = fields[..] else {
        return None;
    };
    let value = value.parse().ok()?;
    let end = match kind {
        "exit" => End::Exit(value),
        "signal" => End::Signal(value),
        _ => return None,
    };
    Some(Answer {
        seq: seq.parse().ok()?,
        pid: pid.parse().ok()?,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_without_allocating() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b"10485761"), Some(10485761));
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(parse_u64(b""), None);
        assert_eq!(parse_u64(b"1x"), None);
        assert_eq!(parse_u64(b"-1"), None);
    }

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

    #[test]
    fn item_indices_read_back() {
        assert_eq!(split_index(7), (7, None));
        let index = item_index(7, 0).unwrap();
        assert_ne!(index, 7);
        assert_eq!(split_index(index), (7, Some(0)));
        assert_eq!(split_index(item_index(3, 4095).unwrap()), (3, Some(4095)));
        assert_eq!(item_index(1 << ITEM_SHIFT, 0), None);
        assert_eq!(item_index(0, usize::MAX), None);
    }

    #[test]
    fn requests_and_answers_read_back() {
        let line = request(3, [1, 0, 2], Some(9), b"/t/d");
        assert_eq!(
            parse_request(&line[..line.len() - 1]),
            Some((3, [1, 0, 2], Some(9), &b"/t/d"[..]))
        );
        let answer = Answer {
            seq: 3,
            pid: 77,
            end: End::Signal(11),
        };
        let mut buf = [0u8; 64];
        let n = write_answer(answer, &mut buf);
        assert_eq!(&buf[..n], b"3 77 signal 11\n");
        assert_eq!(parse_answer("3 77 signal 11\n"), Some(answer));
        assert_eq!(parse_answer("3 77 exit"), None);
    }
}
