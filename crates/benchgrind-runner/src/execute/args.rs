//! The Valgrind command lines: Callgrind's for a job, and the other tools' (DHAT, Massif, BBV,
//! Memcheck, Helgrind, DRD, Cachegrind), each with benchgrind's defaults first, the user's
//! arguments next, and the output files last, so that no user argument can move the files the
//! runner reads.

use super::parts::{LOG_PATTERN, OUT_PATTERN};
use crate::client_request::SUPPORTED;
use crate::config::{EntryPoint, Tool, ValgrindTool};
use crate::plan::{Job, JobKind};
use crate::protocol::FALLBACK_SYMBOL;
use crate::store::{BenchPaths, Which};

/// Fixed cache geometry: Valgrind's auto-detection differs between hosts (on some VMs it picks a
/// 256 MiB direct-mapped LL and warns), which would make cache metrics machine-dependent.
pub const CACHE_GEOMETRY: [&str; 3] = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

/// What every Callgrind run gets so that a benchmark counts everything it causes, the same way
/// on every run: the processes it starts (each writes its own profile), each thread's costs
/// apart (the report adds them up and shows them per thread on request), Valgrind's lock
/// passed the same way on every run (below), and profiles that name every function and line in
/// full, so that the profiles of threads and processes join into one ([`super::parts`]).
///
/// The lock is Valgrind's default one (`--fair-sched=no`, a pipe), not its ticket lock
/// (`--fair-sched=yes`): a thread gives the lock up around every system call that may block
/// (a futex wake too) and asks for it again after. With the ticket lock a thread that asked
/// while the holder was away gets it first; with the pipe the holder takes it straight back
/// unless it really waited. Under `SCHED_FIFO` on one processor ([`super::realtime`]) a woken
/// thread only asks while the holder runs if the holder slept where it did not choose to (a
/// page fault reading from disk), so the ticket lock let that timing into the order of turns:
/// with the page cache dropped every 50 ms, a tokio benchmark took another path in 13 of 15
/// runs and a rayon pool's in 2, against 15 of 15 alike with the pipe.
pub const COUNT_EVERYTHING: [&str; 7] = [
    "--trace-children=yes",
    // A forked child starts with its parent's counts: the parent dumps and zeroes them first
    // (glibc 2.34 and later forks in `_Fork`, older ones in `__libc_fork`).
    "--dump-before=_Fork",
    "--dump-before=__libc_fork",
    "--separate-threads=yes",
    "--fair-sched=no",
    "--compress-strings=no",
    "--compress-pos=no",
];

/// Valgrind logs every system call of the measured processes, with their path arguments, for
/// the record of a job's inputs ([`super::reuse`]); it moves no count.
pub const TRACE_SYSCALLS: &str = "--trace-syscalls=yes";

/// No gdbserver in measured processes. With Valgrind's default (`--vgdb=yes`) every process maps
/// a file `/tmp/vgdb-pipe-shared-mem-vgdb-<pid>-by-<user>-on-<host>`, which the program sees in
/// `/proc/self/maps`; glibc reads that file to find the main thread's stack, which every Rust
/// program does as it starts (std's stack guard), so a binary benchmark of a Rust program, and any
/// process a benchmark starts, counted the line, whose length follows the user's name (59
/// instructions more for a longer one) and the process id. Without it a Rust program's start-up
/// counts 2,255 instructions less (the `echo` test program: 297,565 -> 295,310), the same on
/// every machine, and a killed process leaves no pipes in `/tmp`. Every Valgrind benchgrind
/// starts gets it first ([`super::valgrind::Valgrind::command`]); `--vgdb=yes` among the user's wins.
pub const NO_GDBSERVER: &str = "--vgdb=no";

/// Valgrind's table of threads, smaller than its default of 500 slots: a forked child clears
/// the record of every slot but its own, copying a page per slot from its parent, which cost a
/// fork server's benchmarks about 2 ms each at 500 on the machine measured. A run that needs
/// more threads at once is run again with Valgrind's default ([`more_threads`]).
pub const THREAD_SLOTS: &str = "--max-threads=64";

/// Valgrind's own number of thread slots, for a run that ran out of [`THREAD_SLOTS`].
pub const MORE_THREAD_SLOTS: &str = "--max-threads=500";

/// The job again with Valgrind's default number of thread slots, unless its own arguments set
/// a number (which then stands).
pub fn more_threads(job: &Job) -> Option<Job> {
    let own = (job.config.raw_callgrind_args.iter()).any(|a| a.starts_with("--max-threads"));
    (!own).then(|| {
        let mut wider = job.clone();
        (wider.config.raw_callgrind_args).push(MORE_THREAD_SLOTS.to_owned());
        wider
    })
}

/// The custom entry point of a library job on a target with client requests, unless it names
/// the benchmark function itself (entered before instrumentation starts, Callgrind would never
/// see it: the default window counts the same).
pub(crate) fn custom_entry_point(job: &Job) -> Option<&str> {
    match (&job.kind, &job.config.entry_point) {
        (JobKind::Library(_), Some(EntryPoint::Custom(entry)))
            if SUPPORTED && *entry != job.function_path =>
        {
            Some(entry)
        }
        _ => None,
    }
}

/// The Valgrind arguments of a job, but for its files ([`file_args`]): benchgrind's, then the
/// job's configuration's (the command line's last: [`crate::plan`] folded it in).
pub fn callgrind_args(job: &Job) -> Vec<String> {
    let mut args = vec!["--tool=callgrind".to_owned()];
    // A hook measured with `bench = true` opens the window itself, as a library bench does;
    // other binary benchmarks count the whole process, or only the entry point and what it
    // calls.
    let (window, entry_point) = match &job.kind {
        JobKind::Library(_) => (true, None),
        JobKind::Binary(binary) => (binary.hook.is_some(), binary.entry_point.as_deref()),
    };
    if starts_uninstrumented(job) {
        // Start-up, the runtime and setup run uninstrumented (`--instr-atstart=no`, which the
        // launcher passes in `VALGRIND_OPTS` so that processes the benchmark starts do not
        // inherit it); the bench's client requests start instrumentation around the body only,
        // and every thread collects while it is on. `EntryPoint::Custom`: collection is off
        // until the entry point is entered, so only it and what it calls count.
        if let Some(entry) = custom_entry_point(job) {
            args.push("--collect-atstart=no".into());
            args.push(format!("--toggle-collect={entry}"));
        }
    } else if window {
        args.push(format!("--toggle-collect={FALLBACK_SYMBOL}"));
        args.push("--collect-atstart=no".into());
    } else if let Some(entry) = entry_point {
        args.push(format!("--toggle-collect={entry}"));
        args.push("--collect-atstart=no".into());
    }
    args.push("--cache-sim=yes".into());
    args.extend(CACHE_GEOMETRY.map(String::from));
    args.extend(COUNT_EVERYTHING.map(String::from));
    args.push(THREAD_SLOTS.to_owned());
    if job.reuse != crate::cli::Reuse::Off {
        // For the record of the job's inputs (`super::reuse`): no count moves.
        args.push(TRACE_SYSCALLS.to_owned());
    }
    args.extend(job.config.raw_callgrind_args.iter().cloned());
    if starts_uninstrumented(job) && custom_entry_point(job).is_none() {
        if let Some(on) = collect_in_window(&job.config.raw_callgrind_args) {
            args.push(on.to_owned());
        }
    }
    args
}

/// Collection on in the window of a benchmark whose own arguments toggle it.
///
/// Callgrind turns collection off at its start whenever a `--toggle-collect` is given, unless a
/// `--collect-atstart=yes` comes after it; the window only switches instrumentation on, so
/// collection would stay off inside it unless a matching function ran, and the benchmark
/// counted 0. As in iai-callgrind and gungraun, a user's toggles come on top of the benchmark's
/// own count: the body is counted, and each matching function it calls switches collection off
/// as it is entered and on again as it returns. A `--collect-atstart` of the user's own stands.
pub(crate) fn collect_in_window(user: &[String]) -> Option<&'static str> {
    let named = |flag: &str| collection_args(user).iter().any(|a| a.starts_with(flag));
    (named("toggle-collect") && !named("collect-atstart")).then_some("--collect-atstart=yes")
}

/// The arguments among `user` that switch Callgrind's collection (`--toggle-collect`,
/// `--collect-atstart`), without their dashes (0.1's form writes none).
pub(crate) fn collection_args(user: &[String]) -> Vec<&str> {
    (user.iter())
        .map(|a| a.trim_start_matches('-'))
        .filter(|a| a.starts_with("toggle-collect") || a.starts_with("collect-atstart"))
        .collect()
}

/// Whether a job's measured process opens the window itself (a library benchmark, or a hook
/// measured with `bench = true`, on a target with client requests): it then starts
/// uninstrumented ([`crate::protocol::INSTR_ATSTART_OFF`]).
pub(crate) fn starts_uninstrumented(job: &Job) -> bool {
    let window = match &job.kind {
        JobKind::Library(_) => true,
        JobKind::Binary(binary) => binary.hook.is_some(),
    };
    window && SUPPORTED
}

/// Where Valgrind writes a job's profiles and logs, one per process (and thread): in the job's
/// directory of raw files ([`BenchPaths::raw_dir`]), from which [`super::parts`] settles them.
/// After all other arguments, so that no user argument can move the files the runner reads.
pub fn file_args(job: &Job) -> [String; 2] {
    raw_file_args(&job.paths.raw_dir())
}

/// [`file_args`] in any directory (a fork server's).
pub fn raw_file_args(dir: &std::path::Path) -> [String; 2] {
    [
        format!("--callgrind-out-file={}", dir.join(OUT_PATTERN).display()),
        format!("--log-file={}", dir.join(LOG_PATTERN).display()),
    ]
}

/// The arguments benchgrind gives a tool, before the user's.
fn default_args(tool: ValgrindTool) -> Vec<String> {
    let mut args = Vec::new();
    if tool.reports_errors() {
        // Errors fail the benchmark; users restore Valgrind's 0 with their own argument.
        args.push("--error-exitcode=201".to_owned());
    }
    match tool {
        // Stacks long enough to reach the benchmark function from inside the allocator (inlined
        // frames count): the restriction to the benchmark looks for it in every stack.
        ValgrindTool::DHAT => args.push("--num-callers=500".into()),
        // The cache simulation is off by default from Valgrind 3.21 on; benchgrind's Cachegrind
        // metrics are its hits and misses.
        ValgrindTool::Cachegrind => {
            args.push("--cache-sim=yes".into());
            args.extend(CACHE_GEOMETRY.map(String::from));
        }
        _ => {}
    }
    args
}

/// The complete Valgrind arguments of one tool run (without the program).
pub fn tool_args(tool: &Tool, paths: &BenchPaths) -> Vec<String> {
    let kind = tool.kind;
    let mut args = vec![format!("--tool={}", kind.valgrind_name())];
    // Every process the benchmark starts, each writing its own files (`%p` by default).
    args.push("--trace-children=yes".into());
    args.extend(default_args(kind));
    args.extend(tool.args.iter().cloned());
    // Last, so that no user argument can move the files the runner reads.
    let file = |name: &str| {
        let file = paths.file(name, Which::New).display().to_string();
        format!("{file}.{}", tool.modifier())
    };
    match kind {
        ValgrindTool::DHAT => args.push(format!("--dhat-out-file={}", file("dhat.out"))),
        ValgrindTool::Massif => args.push(format!("--massif-out-file={}", file("massif.out"))),
        ValgrindTool::Cachegrind => {
            args.push(format!("--cachegrind-out-file={}", file("cachegrind.out")));
        }
        ValgrindTool::BBV => {
            args.push(format!("--bb-out-file={}", file("bbv.out")));
            args.push(format!("--pc-out-file={}", file("bbv.pc.out")));
        }
        _ => {}
    }
    args.push(format!("--log-file={}", file(&kind.log_file())));
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn error_tools_fail_by_default_and_users_override_it() {
        let paths = BenchPaths {
            dir: PathBuf::from("/b"),
        };
        let args = tool_args(&Tool::new(ValgrindTool::Memcheck), &paths);
        assert_eq!(
            args,
            [
                "--tool=memcheck",
                "--trace-children=yes",
                "--error-exitcode=201",
                "--log-file=/b/memcheck.log.new.%p"
            ]
        );
        let tool = Tool::new(ValgrindTool::Memcheck).args(["error-exitcode=0"]);
        let args = tool_args(&tool, &paths);
        let last = args.iter().rposition(|a| a.starts_with("--error-exitcode"));
        assert_eq!(args[last.unwrap()], "--error-exitcode=0");
        let args = tool_args(&Tool::new(ValgrindTool::BBV), &paths);
        assert_eq!(args[0], "--tool=exp-bbv");
        assert!(args.contains(&"--pc-out-file=/b/bbv.pc.out.new.%p".to_owned()));
    }

    #[test]
    fn an_outfile_modifier_ends_every_file_name() {
        let paths = BenchPaths {
            dir: PathBuf::from("/b"),
        };
        let tool = Tool::new(ValgrindTool::DHAT).outfile_modifier("pid-%p");
        let args = tool_args(&tool, &paths);
        assert!(args.contains(&"--dhat-out-file=/b/dhat.out.new.pid-%p".to_owned()));
        assert!(args.contains(&"--log-file=/b/dhat.log.new.pid-%p".to_owned()));
        // The default, also for an empty one: each process's id.
        for tool in [
            Tool::new(ValgrindTool::DHAT),
            Tool::new(ValgrindTool::DHAT).outfile_modifier(""),
        ] {
            assert!(tool_args(&tool, &paths).contains(&"--log-file=/b/dhat.log.new.%p".to_owned()));
        }
    }

    #[test]
    fn a_users_toggles_leave_collection_on_in_the_window_unless_they_say_otherwise() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let on = Some("--collect-atstart=yes");
        assert_eq!(collect_in_window(&args(&["--toggle-collect=util::*"])), on);
        // The 0.1 form's arguments come without dashes.
        assert_eq!(collect_in_window(&args(&["toggle-collect=util::*"])), on);
        assert_eq!(collect_in_window(&args(&["--dump-instr=yes"])), None);
        let own = ["--toggle-collect=f", "--collect-atstart=no"];
        assert_eq!(collect_in_window(&args(&own)), None);
    }
}
