//! What the harness checks of each result before reporting it, beside the limits: whether the
//! machine that produced the values differs from the one that produced what they are compared
//! with (the [`Fingerprint`], kept next to the profiles as `fingerprint.json` and
//! `baseline.NAME.fingerprint.json`), whether a benchmark measures almost nothing (the
//! compiler removed or hoisted its work), which would make every later change look huge, and
//! whether a custom entry point was ever entered.

use std::path::PathBuf;

use crate::cli::Cli;
use crate::config::{EventKind, ValgrindTool};
use crate::error::FileResult;
use crate::fingerprint::Fingerprint;
use crate::messages;
use crate::plan::{Job, JobKind};
use crate::result::{BenchResult, Outcome, Source};
use crate::store;

/// Below this many instructions a library benchmark's window holds suspiciously little: a call,
/// a return and a handful of instructions of real work at most.
pub const EMPTY_BELOW: u64 = 10;

/// The fingerprint file of the current values of a benchmark.
const CURRENT: &str = "fingerprint.json";

/// Where the fingerprint of `source`'s values of `job` is kept.
fn file(job: &Job, source: &Source) -> Option<PathBuf> {
    match source {
        Source::Run | Source::PreviousRun => Some(job.paths.dir.join(CURRENT)),
        Source::Baseline(name) => Some(job.paths.dir.join(format!("baseline.{name}.{CURRENT}"))),
    }
}

fn read(path: Option<PathBuf>) -> Option<Fingerprint> {
    let text = std::fs::read_to_string(path?).ok()?;
    serde_json::from_str(&text).ok()
}

/// Attaches the fingerprint of the new values and names the fields in which the machine of the
/// old values differs. A run's fingerprint becomes the benchmark's current one (and, with
/// `--save-baseline`, the baseline's); with `--load-baseline` both sides are saved ones.
pub(super) fn machine(
    cli: &Cli,
    job: &Job,
    this_run: Option<&Fingerprint>,
    result: &mut BenchResult,
) {
    if !matches!(result.outcome, Outcome::Measured { .. }) {
        return;
    }
    let new = match (&result.new_source, this_run) {
        (Source::Run, Some(fingerprint)) => Some(fingerprint.clone()),
        (Source::Run, None) => None,
        (source, _) => read(file(job, source)),
    };
    let Some(new) = new else {
        return;
    };
    let old_source = match &result.old_source {
        // The previous run's fingerprint is the current file until this run replaces it.
        Source::PreviousRun | Source::Run => Source::PreviousRun,
        other => other.clone(),
    };
    let old = read(file(job, &old_source));
    if let Some(old) = &old {
        result.machine = new.differences(old);
    }
    result.old_fingerprint.clone_from(&old);
    if result.new_source == Source::Run {
        let json = serde_json::to_string_pretty(&new).unwrap_or_default() + "\n";
        // Mostly the same machine as the previous run: the current file that says so stays.
        let current_stays = old_source == Source::PreviousRun && old.as_ref() == Some(&new);
        let current = (!current_stays).then(|| job.paths.dir.join(CURRENT));
        let baseline = (cli.save_baseline.as_ref())
            .map(|name| job.paths.dir.join(format!("baseline.{name}.{CURRENT}")));
        for path in current.into_iter().chain(baseline) {
            if let Err(e) = store::write_atomic(&path, json.as_bytes()).file_op("write", &path) {
                messages::warning!("{e}");
            }
        }
    }
    result.fingerprint = Some(new);
}

/// With a baseline named (`--baseline`), says why the benchmark was not compared with one of
/// its own machine and revision, if it was not: none saved, another machine's (any fingerprint
/// field differs), or, with `--baseline-revision`, another revision's or one that does not say.
/// A baseline that none was saved of and that this run saves (a first `--save-baseline=NAME`)
/// is no reason: the tally says it was saved.
pub(super) fn uncompared(cli: &Cli, result: &mut BenchResult) {
    let (Source::Baseline(name), Outcome::Measured { old, .. }) =
        (&result.old_source, &result.outcome)
    else {
        return;
    };
    let saves_it = result.new_source == Source::Run && cli.save_baseline.as_ref() == Some(name);
    if old.is_none() && saves_it {
        return;
    }
    let short = |rev: &str| rev[..rev.len().min(12)].to_owned();
    let saved = (result.old_fingerprint.as_ref()).map_or("", |f| f.revision.as_str());
    result.uncompared = if old.is_none() {
        Some(format!("no baseline `{name}` is saved for it"))
    } else if !result.machine.is_empty() {
        let fields: Vec<&str> = result.machine.iter().map(|d| d.field).collect();
        Some(format!(
            "baseline `{name}` is from another machine ({} differ)",
            fields.join(", ")
        ))
    } else if let Some(expected) = &cli.baseline_revision {
        if saved.is_empty() {
            Some(format!(
                "baseline `{name}` does not say which revision it measured ({} expected)",
                short(expected)
            ))
        } else if !saved.starts_with(expected.as_str()) {
            Some(format!(
                "baseline `{name}` measured {}, not {}",
                short(saved),
                short(expected)
            ))
        } else {
            None
        }
    } else {
        None
    };
}

/// Warns when a library benchmark's window holds fewer than [`EMPTY_BELOW`] instructions.
pub(super) fn empty(job: &Job, result: &mut BenchResult) {
    let Outcome::Measured { new, .. } = &result.outcome else {
        return;
    };
    if !matches!(job.kind, JobKind::Library(_)) {
        return;
    }
    if let Some(ir) = new.get(EventKind::Ir).filter(|ir| *ir < EMPTY_BELOW) {
        result.warnings.push(format!(
            "measures almost nothing ({ir} instructions): the compiler may have removed or \
             hoisted the work; pass inputs and results through black_box, or take them as \
             arguments (--fail-on-empty makes this fail)"
        ));
    }
}

/// A custom entry point that no call matched counts nothing: says so (instead of [`empty`]'s
/// advice, which would be wrong here); returns whether it did.
pub(super) fn never_entered(job: &Job, result: &mut BenchResult) -> bool {
    let Outcome::Measured { new, .. } = &result.outcome else {
        return false;
    };
    let entry = match &job.kind {
        JobKind::Binary(binary) => binary.entry_point.as_deref(),
        JobKind::Library(_) => crate::execute::args::custom_entry_point(job),
    };
    let Some(function) = entry.filter(|_| new.get(EventKind::Ir) == Some(0)) else {
        return false;
    };
    result.warnings.push(format!(
        "nothing was counted: the entry point `{function}` was never entered (check its name as \
         the profile writes it, `*` as a wildcard; a stripped program has no function names)"
    ));
    true
}

/// A benchmark that counted no instruction at all (but for a custom entry point never entered,
/// which [`never_entered`] explains) fails: collection was off for its whole window or
/// process, and a 0 compared with a 0 would pass every run. The reason names the arguments
/// that turn collection off, where the benchmark has any.
pub(super) fn counted_nothing(job: &Job, result: &mut BenchResult) {
    let Outcome::Measured { new, .. } = &result.outcome else {
        return;
    };
    if new.get(EventKind::Ir) != Some(0) {
        return;
    }
    let toggles: Vec<String> =
        crate::execute::args::collection_args(&job.config.raw_callgrind_args)
            .into_iter()
            .map(|a| format!("--{a}"))
            .collect();
    let reason = if toggles.is_empty() {
        "nothing was counted: collection was off for the whole benchmark (a \
         CALLGRIND_TOGGLE_COLLECT request in the code, or Valgrind arguments from \
         VALGRIND_OPTS, may have turned it off); check the benchmark's Callgrind arguments"
            .to_owned()
    } else if matches!(job.kind, JobKind::Library(_))
        || crate::execute::args::starts_uninstrumented(job)
    {
        format!(
            "nothing was counted: its Callgrind arguments `{}` left collection off for the \
             whole window (a `--collect-atstart=no` of its own, or a `--toggle-collect` \
             matching a function that encloses the body); drop them, or let the pattern name \
             functions the body calls",
            toggles.join(" ")
        )
    } else {
        format!(
            "nothing was counted: with `{}` Callgrind counts only inside functions that match, \
             and none ran (check the pattern as the profile writes names, `*` as a wildcard; a \
             stripped program has no function names)",
            toggles.join(" ")
        )
    };
    result.outcome = Outcome::Failed { reason };
}

/// Whether a warning of [`empty`] is among the result's.
pub(super) fn is_empty(result: &BenchResult) -> bool {
    result
        .warnings
        .iter()
        .any(|w| w.starts_with("measures almost nothing"))
}

/// The C library function through which a program learns how much memory the machine has free
/// (`sysconf(_SC_AVPHYS_PAGES)` calls it), as Callgrind's profile names it. Not the `sysinfo`
/// system call's wrapper alone: `get_phys_pages` (the total, which does not move) calls it too,
/// as Python does as it starts.
const FREE_MEMORY: [&str; 2] = ["get_avphys_pages", "__get_avphys_pages"];

/// What a Callgrind profile shows its program asked of the machine, read from the names of
/// the functions it ran.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Asked {
    /// How much memory is free ([`FREE_MEMORY`]): a program that asks acts on the machine's
    /// free memory, which no run controls. GNU sort sizes its buffer by it: `sort -rn` counted
    /// 5,470,264 instructions with 23 GB of 24 free and 5,470,269 with 15 (`sort -S 1M -rn`
    /// 5,471,453 both times), as a pipe through it moved by 5 on CI after the page cache was
    /// dropped.
    pub free_memory: bool,
    /// Random bytes from the kernel (`getrandom`, `getentropy`, std's `...::getrandom`).
    pub random: bool,
    /// A clock that stays real in the measured process ([`crate::clock::REAL_CLOCK_SYMBOL`]:
    /// `Instant::now` and the like), read inside the window.
    pub real_clock: bool,
}

impl Asked {
    /// What the bytes of a Callgrind profile show.
    pub fn of(bytes: &[u8]) -> Asked {
        let mut asked = Asked::default();
        for line in bytes.split(|&b| b == b'\n') {
            // `fn=(12) name`, `cfn=(12) name`, or the name alone where strings are not
            // compressed: the name is what follows the first space or `=`.
            let Some(rest) = line
                .strip_prefix(b"fn=")
                .or_else(|| line.strip_prefix(b"cfn="))
            else {
                continue;
            };
            let name = match rest.iter().position(|&b| b == b' ') {
                Some(space) if rest.first() == Some(&b'(') => &rest[space + 1..],
                _ => rest,
            };
            asked.free_memory |= FREE_MEMORY.iter().any(|f| name == f.as_bytes());
            asked.random |=
                name == b"getrandom" || name == b"getentropy" || name.ends_with(b"::getrandom");
            asked.real_clock |= name == crate::clock::REAL_CLOCK_SYMBOL.as_bytes();
        }
        asked
    }
}

/// Whether the ELF program at `path` is static: it names no dynamic loader (no `PT_INTERP`
/// program header), so no library can be preloaded into it. `false` where it cannot be read
/// as a 64-bit little-endian ELF file.
pub(super) fn is_static_program(path: &std::path::Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let read = || -> std::io::Result<bool> {
        let mut file = std::fs::File::open(path)?;
        let mut header = [0u8; 64];
        file.read_exact(&mut header)?;
        if &header[..4] != b"\x7fELF" || header[4] != 2 || header[5] != 1 {
            return Ok(false);
        }
        let phoff = u64::from_le_bytes(header[0x20..0x28].try_into().unwrap());
        let phentsize = u16::from_le_bytes([header[0x36], header[0x37]]) as usize;
        let phnum = u16::from_le_bytes([header[0x38], header[0x39]]) as usize;
        if phentsize < 4 {
            return Ok(false);
        }
        let mut headers = vec![0u8; phentsize * phnum];
        file.seek(SeekFrom::Start(phoff))?;
        file.read_exact(&mut headers)?;
        const PT_INTERP: u32 = 3;
        Ok(!headers
            .chunks(phentsize)
            .any(|h| u32::from_le_bytes(h[..4].try_into().unwrap()) == PT_INTERP))
    };
    read().unwrap_or(false)
}

/// The warning of a binary benchmark whose static program drew random numbers from the kernel.
pub(super) const STATIC_RANDOM: &str = "its program is static and drew random numbers from the \
kernel (getrandom), which the harness makes the same on every run only in programs that load \
shared libraries (through a preloaded one) or link benchgrind: a HashMap's keys, and with them \
its counts, may move from run to run; build the program for the gnu target, or give it fixed \
seeds";

/// The warning of a benchmark whose window read a clock that stays real
/// ([`crate::clock`]).
pub(super) const REAL_CLOCK: &str = "it read the monotonic clock (`Instant::now` or the like), \
which stays the real time so that timeouts and sleeps work: what it decides from the readings (a \
timeout, a rate, a time budget) may move its counts from run to run; the wall clock \
(`SystemTime`) is fixed and moves nothing";

/// The warning of a benchmark whose program asked how much memory is free, with what this
/// machine has free now.
pub(super) fn free_memory_warning() -> String {
    let now = free_memory()
        .map(|(free, total)| {
            format!(
                " ({} MiB of {} MiB free as it ended)",
                free >> 20,
                total >> 20
            )
        })
        .unwrap_or_default();
    format!(
        "its program asks how much memory the machine has free (`sysconf(_SC_AVPHYS_PAGES)`, \
         as GNU sort does to size its buffer), so its counts follow the machine's free \
         memory{now}, which the page cache and other programs change; to count the same on \
         every run, give it a fixed size where it takes one (`sort -S 1M`) or measure it where \
         memory is as free"
    )
}

/// The machine's free and total memory in bytes, as the kernel tells a program that asks.
fn free_memory() -> Option<(u64, u64)> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `sysinfo` fills the zeroed struct it is given and reads nothing else.
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        if unsafe { libc::sysinfo(&mut info) } != 0 {
            return None;
        }
        let unit = u64::from(info.mem_unit.max(1));
        Some((info.freeram as u64 * unit, info.totalram as u64 * unit))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The tools that see a program's heap and threads through a library Valgrind preloads into it
/// (their `vgpreload_*.so`, which replaces `malloc` and the pthread functions).
const PRELOADED: [ValgrindTool; 5] = [
    ValgrindTool::Memcheck,
    ValgrindTool::Helgrind,
    ValgrindTool::DRD,
    ValgrindTool::Massif,
    ValgrindTool::DHAT,
];

/// A library benchmark of a static bench binary (the portable build, for musl) that ran a tool
/// of [`PRELOADED`] is warned: a static program loads no library, so the tool sees no
/// allocation and no lock (measured: DHAT counted 0 bytes in 0 blocks of a musl build's 64
/// vectors). Callgrind, Cachegrind and BBV count as in any build.
pub(super) fn static_tools(job: &Job, result: &mut BenchResult) {
    if !crate::fingerprint::STATIC_BUILD || !matches!(job.kind, JobKind::Library(_)) {
        return;
    }
    let blind: Vec<String> = result
        .tools
        .iter()
        .filter(|t| PRELOADED.contains(&t.tool))
        .map(|t| t.tool.title().to_owned())
        .collect();
    if blind.is_empty() {
        return;
    }
    result.warnings.push(format!(
        "{} saw nothing of its heap or threads: this bench binary is linked statically (a build \
         for musl), and Valgrind replaces `malloc` and the pthread functions only in a program \
         that loads shared libraries; run these tools on a build for the gnu target (the \
         Callgrind counts of the static build are the portable ones)",
        blind.join(", ")
    ));
}
