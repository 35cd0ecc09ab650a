//! Stage 2 of `benchgrind gbench`: one Google Benchmark benchmark, run alone under Callgrind,
//! and the counts of its timed loop.
//!
//! What is counted is the benchmark loop and nothing else: Callgrind dumps its counters when
//! `benchmark::State::StartKeepRunning` returns (the loop starts: `for (auto _ : state)` and
//! `while (state.KeepRunning())` both call it once) and again when
//! `benchmark::State::FinishKeepRunning` is entered (the loop is over), so the second dump holds
//! the iterations, the loop's own counting, and no set-up, tear-down, timer or reporting code.
//! These are Google Benchmark's own (non-inline) functions, found by their symbol names; a
//! stripped binary has none, which is reported. The process runs as the runner runs its
//! benchmarks: the runner's fixed cache geometry, ASLR off, a cleared environment (plus
//! `LD_BIND_NOW=1`, so that the first call through the PLT does not count the dynamic linker's
//! symbol lookup into the loop). Google Benchmark's JSON (`--benchmark_out`) says how many
//! iterations ran and whether the benchmark reported an error.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use benchgrind_runner::config::EventKind;
use benchgrind_runner::execute::args::CACHE_GEOMETRY;
use benchgrind_runner::execute::launcher::Placement;
use benchgrind_runner::execute::{self, Launcher};
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Profile, Read};
use serde_json::Value;

use super::text::{exact_filter, indent_tail};

/// The function whose return starts the counted loop.
pub const LOOP_START: &str = "benchmark::State::StartKeepRunning";
/// The function whose entry ends it.
pub const LOOP_END: &str = "benchmark::State::FinishKeepRunning";

/// How many iterations to ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iterations {
    /// `--benchmark_min_time=0`: Google Benchmark's first trial, one iteration, is already long
    /// enough (works with every version; a benchmark that fixes `Iterations(n)` runs n).
    One,
    /// `--benchmark_min_time=<N>x` (Google Benchmark 1.8+).
    Fixed(u64),
}

/// What Google Benchmark itself says about the run, kept for its JSON format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInfo {
    /// `family_index`, which compare.py sorts by.
    pub family_index: Option<u64>,
    /// `per_family_instance_index`, idem.
    pub per_family_instance_index: Option<u64>,
    /// The `library_build_type` of the binary's context (`release` or `debug`).
    pub library_build_type: Option<String>,
}

/// The counts of one run of one benchmark.
#[derive(Clone, Debug)]
pub struct LoopRun {
    /// The loop's metrics: Callgrind's events and those derived from them.
    pub metrics: Metrics,
    /// The iterations Google Benchmark ran.
    pub iterations: u64,
    /// What else its JSON said.
    pub info: RunInfo,
}

/// Where and how to run.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The Valgrind found.
    pub valgrind: benchgrind_runner::execute::valgrind::Valgrind,
    /// The benchmark binary, absolute.
    pub binary: PathBuf,
}

impl Runner {
    /// Runs benchmark `name` alone for `iterations`; an `Err` is the reason it has no counts,
    /// already naming what went wrong (the caller adds the benchmark's name).
    pub fn run(&self, name: &str, iterations: Iterations) -> Result<LoopRun, Problem> {
        let dir = TempDir::new()?;
        let out = dir.0.join("gbench.json");
        let min_time = match iterations {
            Iterations::One => "--benchmark_min_time=0".to_string(),
            Iterations::Fixed(n) => format!("--benchmark_min_time={n}x"),
        };
        // The binary runs as `DIR/bench`, a link of constant length: its path is argv[0], which
        // Google Benchmark copies to the heap, so a build at a longer path would shift later
        // allocations and change cache misses that have nothing to do with its code.
        let program = dir.0.join("bench");
        std::os::unix::fs::symlink(&self.binary, &program).file_op("link", &program)?;
        let valgrind_args = [
            "--tool=callgrind".to_string(),
            "--cache-sim=yes".to_string(),
        ]
        .into_iter()
        .chain(CACHE_GEOMETRY.iter().map(|a| a.to_string()))
        .chain([
            format!("--dump-after={LOOP_START}*"),
            format!("--dump-before={LOOP_END}*"),
            format!(
                "--callgrind-out-file={}",
                dir.0.join("callgrind.out").display()
            ),
            format!("--log-file={}", dir.0.join("valgrind.log").display()),
        ]);
        let launcher = Launcher::under(self.valgrind.clone()).placed(placement());
        let mut cmd = launcher.command(valgrind_args, &program);
        cmd.arg(format!("--benchmark_filter={}", exact_filter(name)))
            .arg(min_time)
            .arg("--benchmark_repetitions=1")
            .arg(format!("--benchmark_out={}", out.display()))
            .arg("--benchmark_out_format=json");
        configure(&mut cmd);
        // The working directory reaches the benchmark's environment as `PWD` (a shell launcher,
        // as Debian's `valgrind` is, sets it), and the strings after it on the stack move with
        // its length; the getenv calls of libstdc++ and glibc read them, so the simulated cache
        // misses of the loop followed the directory the command was started from (one in
        // 20,221 under Valgrind 3.24). `PWD` names the same directory through a link of
        // constant length instead, which shells keep because it is the working directory.
        if let Ok(cwd) = std::env::current_dir() {
            let link = dir.0.join("cwd");
            std::os::unix::fs::symlink(&cwd, &link).file_op("link", &link)?;
            cmd.env("PWD", &link);
        }
        let output = cmd
            .output()
            .map_err(|e| problem!("cannot start `{}`: {e}", self.valgrind.path.display()))?;
        if !output.status.success() {
            let log = fs::read_to_string(dir.0.join("valgrind.log")).unwrap_or_default();
            // Valgrind names the signal and the address; else the program's own last words
            // (an uncaught exception, a failed check) say what happened.
            let said = match valgrind_says(&log) {
                said if said.is_empty() => indent_tail(&String::from_utf8_lossy(&output.stderr)),
                said => said,
            };
            return Err(problem!(
                "{} under Callgrind{said}",
                describe_end(&output.status)
            ));
        }
        let (iterations, info) = read_gbench_json(&out, name)?;
        let profile = loop_profile(&dir.0)?;
        Ok(LoopRun {
            metrics: all_metrics(&profile),
            iterations,
            info,
        })
    }
}

/// The derived metrics of the bench harness, then Callgrind's own events, in report order.
fn all_metrics(profile: &Profile) -> Metrics {
    let mut metrics = Metrics::from_profile(profile);
    for kind in EventKind::ALL {
        if metrics.get(kind).is_none() {
            if let Some(value) = profile.total(kind.name()) {
                metrics.values.push((kind, value));
            }
        }
    }
    metrics
}

/// Where benchmarks run, decided once: one processor under `SCHED_FIFO` where permitted (else
/// `SCHED_BATCH`), as the bench harness runs its benchmarks ([`execute::launcher::placements`]).
fn placement() -> Option<Placement> {
    static PLACEMENT: std::sync::OnceLock<Option<Placement>> = std::sync::OnceLock::new();
    *PLACEMENT.get_or_init(|| execute::launcher::placements(true).first().copied())
}

/// The environment of every process this module and [`super::discover`] start (their launcher
/// turns ASLR off).
pub fn configure(cmd: &mut Command) {
    cmd.env_clear().env("LD_BIND_NOW", "1");
    // Where the binary finds a libbenchmark outside the system paths, and where a relocated
    // Valgrind finds its tools: needed to run at all, so kept.
    for key in ["LD_LIBRARY_PATH", "VALGRIND_LIB"] {
        if let Some(value) = std::env::var_os(key) {
            cmd.env(key, value);
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
}

/// The iterations and indexes from Google Benchmark's JSON; its reported error, if any, as `Err`.
fn read_gbench_json(path: &Path, name: &str) -> Result<(u64, RunInfo), Problem> {
    let text = fs::read_to_string(path).map_err(|e| {
        problem!(
            "the binary wrote no results to `{}` ({e}): does it pass its arguments to \
             `benchmark::Initialize`?",
            path.display()
        )
    })?;
    if text.trim().is_empty() {
        return Err(problem!(
            "Google Benchmark ran nothing for the filter `{}`, which should select exactly this \
             benchmark (its regex library may read the name differently)",
            exact_filter(name)
        ));
    }
    let doc: Value =
        serde_json::from_str(&crate::compare::input::lenient::rewrite_non_finite(&text))
            .map_err(|e| problem!("its Google Benchmark JSON is malformed: {e}"))?;
    let runs: Vec<&Value> = doc["benchmarks"]
        .as_array()
        .map(|a| a.iter().filter(|b| b["name"] == name).collect())
        .unwrap_or_default();
    let [run] = runs[..] else {
        return Err(problem!(
            "Google Benchmark reported {} results named `{name}` for a filter selecting only \
             that benchmark (expected 1)",
            runs.len()
        ));
    };
    if run["error_occurred"] == true {
        let message = run["error_message"].as_str().unwrap_or("no message");
        return Err(problem!("the benchmark reported an error: {message}"));
    }
    let iterations = run["iterations"]
        .as_u64()
        .ok_or_else(|| Problem::new("its Google Benchmark JSON has no `iterations`"))?;
    let info = RunInfo {
        family_index: run["family_index"].as_u64(),
        per_family_instance_index: run["per_family_instance_index"].as_u64(),
        library_build_type: doc["context"]["library_build_type"]
            .as_str()
            .map(str::to_string),
    };
    Ok((iterations, info))
}

/// The profile of the one dump taken at the end of the loop.
fn loop_profile(dir: &Path) -> Result<Profile, Problem> {
    let trigger = format!("desc: Trigger: --dump-before={LOOP_END}");
    let mut found = Vec::new();
    let entries = fs::read_dir(dir).file_op("read", dir)?;
    for entry in entries.flatten() {
        let path = entry.path();
        let is_profile = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("callgrind.out"));
        if !is_profile {
            continue;
        }
        let bytes = fs::read(&path).file_op("read", &path)?;
        // The header comes before the first cost line; the trigger is in it.
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
        if head.lines().any(|l| l.starts_with(&trigger)) {
            found.push((path, bytes));
        }
    }
    match found.len() {
        1 => {
            let (path, bytes) = &found[0];
            profile::parse(path, bytes, Read::Totals).map_err(|e| problem!("{e}"))
        }
        0 => Err(problem!(
            "Callgrind never saw the benchmark loop end (no call of `{LOOP_END}`): the binary \
             may be stripped of symbols (build it with them), or the benchmark has no \
             `for (auto _ : state)` or `state.KeepRunning()` loop"
        )),
        n => Err(problem!(
            "the benchmark loop ran {n} times in one run (threads or repetitions); `benchgrind \
             gbench` measures single-threaded benchmarks, one loop per run"
        )),
    }
}

/// How a process ended, in words.
fn describe_end(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("it exited with code {code}"),
        (None, Some(signal)) => format!("it was killed by signal {signal}"),
        (None, None) => format!("it ended ({status})"),
    }
}

/// What Valgrind's log says about a process that died: the "Process terminating" line and the
/// one after it, which names the signal and the address.
fn valgrind_says(log: &str) -> String {
    let lines: Vec<&str> = log
        .lines()
        .map(|l| {
            l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .trim()
        })
        .collect();
    match lines
        .iter()
        .position(|l| l.starts_with("Process terminating"))
    {
        Some(i) => {
            let mut said = format!("; Valgrind: {}", lines[i]);
            if let Some(next) = lines.get(i + 1).filter(|l| !l.is_empty()) {
                said.push_str(&format!(" ({next})"));
            }
            said
        }
        None => String::new(),
    }
}

/// A private directory for one run's files, removed afterwards.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, Problem> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            // Fixed width: paths under it reach the benchmark's argv and Google Benchmark's
            // heap, whose layout (and so the simulated cache misses) must not depend on the PID.
            std::env::temp_dir().join(format!("benchgrind-gbench-{:010}-{n:08}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).file_op("create", &dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valgrind_names_the_signal_of_a_crash() {
        // The lines Valgrind 3.19 writes when a benchmark dereferences null.
        let log = "==12== Callgrind, a call-graph generating cache profiler\n\
                   ==12== \n\
                   ==12== Process terminating with default action of signal 11 (SIGSEGV)\n\
                   ==12==  Access not within mapped region at address 0x0\n\
                   ==12==    at 0x10A1B2: BM_Crash(benchmark::State&) (bench.cc:12)\n";
        assert_eq!(
            valgrind_says(log),
            "; Valgrind: Process terminating with default action of signal 11 (SIGSEGV) \
             (Access not within mapped region at address 0x0)"
        );
        assert_eq!(valgrind_says("==1== all fine\n"), "");
    }

    #[test]
    fn errors_of_gbench_json_name_the_cause() {
        let dir = TempDir::new().unwrap();
        let path = dir.0.join("x.json");
        let write = |text: &str| fs::write(&path, text).unwrap();
        write(
            r#"{"context": {"library_build_type": "release"}, "benchmarks": [{"name": "BM_a", "run_type": "iteration", "iterations": 3, "family_index": 2, "per_family_instance_index": 1}]}"#,
        );
        let (iterations, info) = read_gbench_json(&path, "BM_a").unwrap();
        assert_eq!(iterations, 3);
        assert_eq!(info.family_index, Some(2));
        assert_eq!(info.library_build_type.as_deref(), Some("release"));
        write(
            r#"{"context": {}, "benchmarks": [{"name": "BM_a", "error_occurred": true, "error_message": "no input"}]}"#,
        );
        assert_eq!(
            read_gbench_json(&path, "BM_a").unwrap_err(),
            "the benchmark reported an error: no input"
        );
        let err = read_gbench_json(&path, "BM_b").unwrap_err();
        assert!(err.contains("0 results named `BM_b`"), "{err}");
        let err = read_gbench_json(&dir.0.join("none.json"), "BM_a").unwrap_err();
        assert!(err.contains("wrote no results"), "{err}");
    }
}
