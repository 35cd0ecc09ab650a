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
//!   the server touches only stack buffers, so every child starts from the same state. It is in
//!   `server`.
//!
//! A third flag, [`PROBE_FLAG`], makes it print the CPU it sees and exit: started under
//! `valgrind --tool=none`, that is the CPU Valgrind shows the benchmarks
//! ([`crate::execute::valgrind::cpu_under_valgrind`]).
//!
//! A binary benchmark's setup and teardown run in a process of their own ([`hook`]); the body
//! of a library benchmark runs in the measured [`window`]. Flags and formats are
//! [`crate::protocol`]'s.

pub mod hook;
#[cfg(unix)]
mod server;
#[cfg(target_os = "linux")]
pub(crate) mod stack;
/// Elsewhere nothing is measured: the arguments are read the allocating way and nothing moves.
#[cfg(not(target_os = "linux"))]
pub(crate) mod stack {
    /// Whether the arguments were captured: never here.
    pub fn captured() -> bool {
        false
    }

    /// Argument `i`: not captured here.
    pub fn arg(_i: usize) -> Option<&'static [u8]> {
        None
    }

    /// Nothing to move here.
    pub fn settle_environment() {}

    /// Runs `f(data)` where it is.
    pub fn run_at_fixed_depth(f: extern "C" fn(*mut u8) -> !, data: *mut u8) -> ! {
        f(data)
    }
}
mod table;
pub mod window;

use std::ffi::CStr;
use std::io::Write;

use crate::fingerprint::PROBE_FLAG;
use crate::protocol::{FLAG, SEED_FLAG, SERVER_FLAG};
#[cfg(unix)]
use server::serve;
use table::lookup;
pub use table::{iter_item, iter_item_missing, Table};

/// Under [`crate::protocol::LAYOUT_SHIFT_ENV`] (`HEAP:PADDING`), moves the heap: a block of
/// `HEAP` bytes taken from the top of the C allocator's heap before the program allocates, and
/// kept, puts every later block that many bytes further (the allocator's header of 8 bytes
/// included, so that `HEAP`, a multiple of 16, is the whole move). Run from `.init_array`, after
/// the C library's start and before `main` (on Linux, the only place benchgrind measures).
#[cfg(target_os = "linux")]
extern "C" fn shift_heap() {
    let Some(value) = env_bytes(crate::protocol::LAYOUT_SHIFT_ENV) else {
        return;
    };
    let heap = value.split(|&b| b == b':').next().unwrap_or_default();
    if let Some(bytes) = crate::protocol::parse_u64(heap).filter(|&b| b >= 32) {
        // SAFETY: malloc with any size is sound; the block is never freed (nor used).
        let block = unsafe { libc::malloc(bytes as usize - 8) };
        std::hint::black_box(block);
    }
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static SHIFT_HEAP: extern "C" fn() = shift_heap;

use stack::arg;

/// Returns when this process is not a measured process; else runs what it was started for and
/// exits.
pub fn measured_process(table: Table) {
    let first = match arg(1) {
        Some(first) => first,
        // Not captured (not the layout expected): the allocating way, which costs heap state.
        None if !stack::captured() => {
            return measured_process_allocating(table);
        }
        None => return,
    };
    if first == SERVER_FLAG.as_bytes() {
        prepare_window();
        settle();
        at_fixed_depth(table, None);
    }
    if first == PROBE_FLAG.as_bytes() {
        cpu_probe();
    }
    if first == crate::protocol::PERF_FLAG.as_bytes() {
        run_perf(table, [arg(2), arg(3), arg(4), arg(5), arg(6)]);
    }
    if first != FLAG.as_bytes() {
        return;
    }
    settle();
    at_fixed_depth(table, Some([arg(2), arg(3), arg(4), arg(5)]));
}

/// Brings the allocator (the program's global one, whichever it is) to the same state for every
/// benchmark, as a program that has run a while has it, before any setup: a block of each small
/// size allocated and freed. Without it the first allocation of the process, in
/// the setup or in the window, sets the allocator up (glibc's thread cache: `String::from` of
/// a short string counted 224 instructions in a window with nothing freed before, 90 after a
/// setup that freed one block), and a body's small blocks come from the cache or from the top of
/// the heap depending on what the setup happened to free. The same sizes in the same order for
/// every benchmark and bench binary, so nothing of the harness's own work shows. Not under DHAT,
/// which counts the window's own blocks and whose peak belongs in the window.
fn warm_heap() {
    let tool = env_bytes(crate::protocol::TOOL_ENV);
    if tool.is_some_and(|tool| tool == b"dhat") {
        return;
    }
    use std::alloc::{alloc, dealloc, Layout};
    let once = |size: usize| {
        let layout = Layout::from_size_align(size, 8).expect("the sizes are valid layouts");
        // SAFETY: a non-zero size; the block is freed at once with the same layout. Through
        // `black_box`: the compiler may drop an allocation nothing uses.
        unsafe {
            let block = std::hint::black_box(alloc(layout));
            if !block.is_null() {
                dealloc(block, layout);
            }
        }
    };
    // One at a time: the blocks end in the allocator's caches all the same (each freed block
    // to its size's), and the heap never holds more than the largest (DHAT and Massif peaks).
    // Every 16 bytes up to 1 KiB: the blocks glibc keeps per size in each thread's cache (and
    // musl's allocator in its size classes).
    for size in (1..=64).map(|i| 16 * i) {
        once(size);
    }
    // The cached blocks took 33 KiB from the top of glibc's heap (the free space past the last
    // block), which a program has at its start (132 KiB): a block larger than what is left,
    // freed, grows the heap and is trimmed back to the allocator's pad, so the top is again as
    // large as at a program's start. How large it is decides what a free does: freeing next to
    // a top that reaches 64 KiB also merges the small freed blocks (hashslab's
    // `lookup_key_size` of 100-byte keys counted 50,534 instructions without it, 70,213 with
    // it, as in a program's first run of the code). Below the 128 KiB from which glibc maps
    // blocks of their own. Not under Massif, whose peak belongs in the window.
    if !tool.is_some_and(|tool| tool == b"massif") {
        once(120_000);
    }
}

/// What a measured process does before it serves or runs a bench, whichever way its arguments
/// were read: the environment moved to its fixed place, the allocator warmed, the default
/// seed's random stream computed ahead (once for all the fork server's children).
fn settle() {
    stack::settle_environment();
    warm_heap();
    crate::random::compute_ahead(crate::random::DEFAULT_SEED);
}

/// What runs at the fixed depth: the fork server (no arguments) or one bench.
struct Fixed {
    table: Table,
    one: Option<[Option<&'static [u8]>; 4]>,
}

/// Serves (`one` is `None`) or runs one bench with its frames at the stack's fixed depth
/// ([`stack::run_at_fixed_depth`]), so that where the bench binary is does not move them.
fn at_fixed_depth(table: Table, one: Option<[Option<&'static [u8]>; 4]>) -> ! {
    extern "C" fn run(data: *mut u8) -> ! {
        // SAFETY: `data` is the `Fixed` below, whose frame is never left (nothing returns).
        let fixed = unsafe { &*(data as *const Fixed) };
        match fixed.one {
            None => serve(fixed.table),
            Some(rest) => run_one(fixed.table, rest),
        }
    }
    let mut fixed = Fixed { table, one };
    stack::run_at_fixed_depth(run, std::ptr::addr_of_mut!(fixed).cast())
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
        Some(first) if first == SERVER_FLAG.as_bytes() => {
            prepare_window();
            settle();
            at_fixed_depth(table, None)
        }
        Some(first) if first == FLAG.as_bytes() => {
            settle();
            at_fixed_depth(table, Some([get(2), get(3), get(4), get(5)]))
        }
        Some(first) if first == PROBE_FLAG.as_bytes() => cpu_probe(),
        Some(first) if first == crate::protocol::PERF_FLAG.as_bytes() => {
            run_perf(table, [get(2), get(3), get(4), get(5), get(6)])
        }
        _ => {}
    }
}

/// The value of the environment variable `key` (shorter than 63 bytes), without allocating.
fn env_bytes(key: &str) -> Option<&'static [u8]> {
    let mut name = [0u8; 64];
    name[..key.len()].copy_from_slice(key.as_bytes());
    // SAFETY: `name` is NUL-terminated (the key is shorter than the buffer); getenv reads the
    // environment without allocating and returns a pointer into it or null.
    let value = unsafe { libc::getenv(name.as_ptr().cast()) };
    // SAFETY: a non-null result points to a NUL-terminated string that lives as long as the
    // environment, which nothing changes here.
    (!value.is_null()).then(|| unsafe { CStr::from_ptr(value) }.to_bytes())
}

/// Cuts [`INSTR_ATSTART_OFF`](crate::protocol::INSTR_ATSTART_OFF), or Cachegrind's
/// [`CACHEGRIND_INSTR_ATSTART_OFF`](crate::protocol::CACHEGRIND_INSTR_ATSTART_OFF), off the end
/// of `VALGRIND_OPTS`, where the launcher put it, in place (no allocation: every benchmark
/// starts from the same heap): this process started uninstrumented, the processes its
/// benchmarks start must not (Valgrind follows them, reading the variable again). Returns
/// whether Cachegrind's was there.
#[cfg(not(unix))]
fn cut_instr_atstart() -> bool {
    false
}

/// See the other `cut_instr_atstart`.
#[cfg(unix)]
fn cut_instr_atstart() -> bool {
    extern "C" {
        static mut environ: *mut *mut std::ffi::c_char;
    }
    let name = crate::protocol::VALGRIND_OPTS_ENV.as_bytes();
    let callgrind = crate::protocol::INSTR_ATSTART_OFF.as_bytes();
    let cachegrind = crate::protocol::CACHEGRIND_INSTR_ATSTART_OFF.as_bytes();
    let mut cut_cachegrind = false;
    // SAFETY: `environ` is a null-terminated array of NUL-terminated strings that this
    // single-threaded process owns; an entry is only shortened, by a NUL within it.
    unsafe {
        let mut entry = *std::ptr::addr_of!(environ);
        while !entry.is_null() && !(*entry).is_null() {
            let bytes = CStr::from_ptr(*entry).to_bytes();
            let named = bytes.starts_with(name) && bytes.get(name.len()) == Some(&b'=');
            for marker in [callgrind, cachegrind] {
                if named && bytes.ends_with(marker) {
                    *(*entry).add(bytes.len() - marker.len()) = 0;
                    cut_cachegrind |= marker == cachegrind;
                    break;
                }
            }
            entry = entry.add(1);
        }
    }
    cut_cachegrind
}

/// Whether the harness said this process runs under another tool than Callgrind.
fn under_other_tool() -> bool {
    env_bytes(crate::protocol::TOOL_ENV).is_some_and(|tool| tool != b"callgrind")
}

/// Sets the window up as the harness asked: no Callgrind requests under another tool (and the
/// DHAT ballast); and the processes benchmarks start are to be instrumented from their start.
pub(crate) fn prepare_window() {
    let cachegrind = cut_instr_atstart();
    if cachegrind {
        window::cachegrind();
    } else if under_other_tool() {
        window::not_callgrind();
        window::set_ballast(dhat_ballast());
    }
}

/// The ballast the harness asked for (DHAT runs only), 0 for none.
fn dhat_ballast() -> u64 {
    env_bytes(crate::protocol::DHAT_BALLAST_ENV)
        .and_then(crate::protocol::parse_u64)
        .unwrap_or(0)
}

/// [`PROBE_FLAG`]: prints the CPU as this process sees it (under `valgrind --tool=none`, as
/// Valgrind shows it) and exits.
/// Outside Unix there is no fork server (the harness never starts one there).
#[cfg(not(unix))]
fn serve(_table: Table) -> ! {
    let _ = writeln!(
        std::io::stderr(),
        "benchgrind: the fork server needs Unix; {}",
        crate::protocol::SERVER_FLAG
    );
    std::process::exit(2);
}

fn cpu_probe() -> ! {
    println!("{}", crate::fingerprint::cpu_seen());
    let _ = std::io::stdout().flush();
    std::process::exit(0);
}

/// `--benchgrind-perf OUT G F B [--benchgrind-seed=N]`: samples one bench with perf's counters
/// ([`crate::perf::sampler`]) and exits.
fn run_perf(table: Table, rest: [Option<&[u8]>; 5]) -> ! {
    let out = rest[0].map(|o| std::path::PathBuf::from(String::from_utf8_lossy(o).into_owned()));
    let bench = parse_index(&rest[1..]).and_then(|(index, seed)| {
        if let Some(seed) = seed {
            crate::random::enable(seed);
        }
        lookup(table, index)
    });
    match (out, bench) {
        #[cfg(perf_counters)]
        (Some(out), Some(bench)) => crate::perf::sampler::run(bench, &out),
        _ => {
            crate::messages::error!(
                "{} needs a file, three indices of a benchmark of this binary and an optional \
                 {SEED_FLAG}=N, on Linux",
                crate::protocol::PERF_FLAG
            );
            std::process::exit(2);
        }
    }
}

/// The indices and seed of `G F B [--benchgrind-seed=N]`.
fn parse_index(rest: &[Option<&[u8]>]) -> Option<([usize; 3], Option<u64>)> {
    let number = |a: Option<&[u8]>| std::str::from_utf8(a?).ok()?.parse::<u64>().ok();
    let [g, f, b] = [number(rest[0])?, number(rest[1])?, number(rest[2])?].map(|n| n as usize);
    let seed = match rest[3] {
        None => None,
        Some(arg) => {
            let value = arg.strip_prefix(SEED_FLAG.as_bytes())?.strip_prefix(b"=")?;
            Some(number(Some(value))?)
        }
    };
    Some(([g, f, b], seed))
}

/// `--benchgrind-run G F B [--benchgrind-seed=N]`: runs one bench and exits.
fn run_one(table: Table, rest: [Option<&[u8]>; 4]) -> ! {
    let Some((index, seed)) = parse_index(&rest) else {
        crate::messages::error!("{FLAG} needs three indices and an optional {SEED_FLAG}=N");
        std::process::exit(2);
    };
    prepare_window();
    let code = match lookup(table, index) {
        Some(bench) => {
            if let Some(seed) = seed {
                crate::random::enable(seed);
            }
            crate::clock::fix();
            bench();
            0
        }
        None => {
            crate::messages::error!("no benchmark at {index:?}: the binary changed since the plan");
            1
        }
    };
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}
