//! Shell commands as binary benchmarks (issue 34): each measured process runs in a process-id
//! namespace of its own, so what a shell formats as it starts (`$$`, `PPID`) is the same however
//! many digits the machine's ids have: a run from inside a fresh namespace (ids of one digit)
//! counts what a run outside does. The shapes of `e2e_shells` (pipes, command substitution,
//! nested shells, background jobs, a bash wrapper that forks Python) all run.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use benchgrind_runner::execute::{machine, pidns};
use common::{blocks, stdout, warnings};

const SHELLS: &str = env!("CARGO_BIN_EXE_e2e_shells");

/// Library benchmarks whose bodies start shells: pipes, background jobs, nested shells, in
/// `/bin/sh` and bash.
const LIB_SHELLS: &str = env!("CARGO_BIN_EXE_e2e_lib_shells");

/// One run of `e2e_shells` at a time: benchmarks of several processes count exactly only with
/// nothing of theirs beside them (the tests of a file run side by side).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// One test at a time that turns DAMON off and on again: held from before the first run to
/// after DAMON is on again, so that no test's runs see DAMON turned on by another's end (the
/// tests of a file run side by side; this is taken before [`ONE_AT_A_TIME`]).
static DAMON_TOGGLED: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The shape whose program (GNU sort without `-S`) sizes its buffer by the machine's free
/// memory: its counts follow the machine, not the run, and its report says so.
const FREE_MEMORY: &str = "free_memory";

/// Instructions per benchmark (its bench id), from a run of `e2e_shells` started by `wrapper`.
fn counts(wrapper: &[&str], filter: &str) -> BTreeMap<String, u64> {
    counts_in(&report(wrapper, filter))
}

/// Instructions per benchmark (its bench id) in a report.
fn counts_in(report: &str) -> BTreeMap<String, u64> {
    blocks(report)
        .into_iter()
        .map(|b| {
            // `e2e_shells::shells::shell own_ids:("echo $$ $PPID") -> ...`: the bench id.
            let id = b.header.split_whitespace().nth(1).unwrap();
            let id = id.split(':').next().unwrap().to_owned();
            (id, b.get("Instructions"))
        })
        .collect()
}

/// Whether a warning says that the benchmark's program asked how much memory is free.
fn names_free_memory(warnings: &[String]) -> bool {
    warnings
        .iter()
        .any(|w| w.contains("asks how much memory the machine has free"))
}

/// The wrapper that starts a run in a fresh process-id namespace, as this user may make one.
fn fresh_namespace() -> &'static [&'static str] {
    if pidns::way() == Some(pidns::Way::Privileged) {
        &["unshare", "--pid", "--fork"]
    } else {
        &["unshare", "--user", "--map-current-user", "--pid", "--fork"]
    }
}

/// The report of a run of `e2e_shells` started by `wrapper`, in a home of its own.
fn report(wrapper: &[&str], filter: &str) -> String {
    report_of_bin(SHELLS, wrapper, &[filter])
}

/// The report of a run of the bench program `bin` started by `wrapper`, in a home of its own,
/// with no terminal (in a session of its own, its standard input empty), given `args`.
fn report_of_bin(bin: &str, wrapper: &[&str], args: &[&str]) -> String {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let home = tempfile::tempdir().unwrap();
    let out = Command::new("setsid")
        .args(wrapper)
        .args([bin, "--bench", &format!("--home={}", home.path().display())])
        .args(args)
        .env("BENCHGRIND_COLOR", "never")
        .stdin(std::process::Stdio::null())
        .current_dir(home.path())
        .output()
        .expect("the bench program starts");
    let report = stdout(&out);
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

/// The report of a run of `bin` with a terminal of its own (`script` gives it one, as a
/// developer's shell has; the report goes to a file, the terminal stays its standard error and
/// controlling terminal), in a home of its own.
fn report_from_a_terminal(bin: &str) -> String {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("report.txt");
    let line = format!(
        "{bin} --bench --home={} {ONE_JOB} > {}",
        home.path().display(),
        file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("BENCHGRIND_COLOR", "never")
        .stdin(std::process::Stdio::null())
        .current_dir(home.path())
        .output()
        .expect("script (util-linux) runs");
    let report = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stdout)
    );
    report
}

/// One benchmark at a time: every run here is a benchmark's first in its home, where nothing
/// tells yet that it starts processes, and beside another one a shell's counts move
/// ([`schedule::runs_alone`]).
const ONE_JOB: &str = "--jobs=1";

/// Whether this process runs as root.
fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn every_shape_runs_and_a_shell_counts_the_same_from_inside_a_fresh_pid_namespace() {
    if pidns::way().is_none() {
        eprintln!("no process-id namespace can be made here; nothing to compare");
        return;
    }
    let all = counts(&["env"], "");
    assert_eq!(all.len(), 8, "{all:?}");
    assert!(all.values().all(|&n| n > 100_000), "{all:?}");
    let key = "own_ids";
    // Outside, this process's id has several digits, and so would the shell's without a
    // namespace of its own; inside a fresh one the harness is process 1 or 2.
    assert!(std::process::id() > 9, "{}", std::process::id());
    let fresh = fresh_namespace();
    for _ in 0..2 {
        let outside = counts(&["env"], "own_ids");
        let inside = counts(fresh, "own_ids");
        assert_eq!(outside[key], all[key]);
        assert_eq!(inside[key], all[key], "inside {inside:?}, outside {all:?}");
    }
}

/// Drops the kernel's page cache where this user may (root): the next run's processes then
/// wait for the disk as they start. Returns whether it did.
fn drop_page_cache() -> bool {
    let synced = Command::new("sync").status().is_ok_and(|s| s.success());
    synced && std::fs::write("/proc/sys/vm/drop_caches", "1").is_ok()
}

/// The kernel's memory monitor DAMON, turned off for as long as this value lives where it ran
/// and this user may (root), and turned on again when it is dropped (a failing assertion too).
struct DamonOff {
    /// The `state` files of the monitors this turned off.
    turned_off: Vec<std::path::PathBuf>,
}

impl DamonOff {
    /// Turns every running monitor off; `Err` with the ones still on where it may not.
    fn turn_off() -> Result<DamonOff, Vec<std::path::PathBuf>> {
        let mut off = DamonOff {
            turned_off: Vec::new(),
        };
        for state in machine::running_damons() {
            if std::fs::write(&state, "off").is_ok() {
                off.turned_off.push(state);
            }
        }
        let still = machine::running_damons();
        if still.is_empty() {
            Ok(off)
        } else {
            Err(still)
        }
    }
}

impl Drop for DamonOff {
    fn drop(&mut self) {
        for state in &self.turned_off {
            if let Err(e) = std::fs::write(state, "on") {
                eprintln!("could not turn DAMON on again ({}): {e}", state.display());
            }
        }
    }
}

/// Every shape counts the same on five runs, two of them from inside a fresh process-id
/// namespace. Each run has a home of its own, so every command is one not run before, and runs
/// with no other benchmark beside it (`schedule::runs_alone`): beside another, a pipe of two
/// shells counted 9 instructions more in 4 of 12 runs. Before two of the runs the page cache is
/// dropped (as root), as on a machine that just booted or built: a process that waits for a
/// file lets the others take their turns at other points, so the harness measures such a run
/// again with the files in the cache, and the counts are those of every other run. But for one
/// shape: GNU sort without `-S` reads the machine's free memory, which dropping the page cache
/// changes (on CI a pipe through it counted 5 instructions fewer after the drop), so its counts
/// are not compared; its report must name the cause, and no other shape's may.
///
/// Where the kernel's memory monitor DAMON runs (this workplace's machines, CI's among them),
/// its page checks make a process wait now and then where it did not choose to, unseen by the
/// kernel's counters: the harness measures such a benchmark until two runs in a row agree and
/// warns that its counts may still move, naming the command that turns DAMON off. Measured on
/// such a machine (the bash wrapper of Python, each run in a home of its own): with DAMON on, 2
/// of 12 and 3 of 10 runs counted 120 instructions more in the bash parent's part after its fork
/// (the same order of turns in the scheduler's trace), even with the reruns; with it off, 15 of
/// 15 the same. So the first run here is made with DAMON as the machine has it, and every shape
/// of several processes must then carry that warning; the five compared runs are made with
/// DAMON off (as root; turned on again after), where the counts are promised exact. A user who
/// may not turn it off gets the warning: here that is what is checked.
#[test]
fn every_shape_counts_the_same_on_five_runs_inside_a_namespace_or_not() {
    let report_of = |wrapper: &[&str]| {
        let report = report(wrapper, "");
        let mut counts = counts_in(&report);
        for id in counts.keys() {
            let warned = names_free_memory(&warnings(&report, id));
            assert_eq!(warned, id == FREE_MEMORY, "{id}: {report}");
        }
        counts.remove(FREE_MEMORY);
        counts
    };
    let _toggled = DAMON_TOGGLED.lock().unwrap_or_else(|e| e.into_inner());
    if machine::damon_on() {
        let report = report(&["env"], "");
        for id in counts_in(&report).keys() {
            // Every shape here starts several processes but `own_ids` (`echo` is dash's own).
            let warned = warnings(&report, id).iter().any(|w| w.contains("DAMON"));
            assert_eq!(warned, id != "own_ids", "{id}: {report}");
        }
    }
    let _damon_off = match DamonOff::turn_off() {
        Ok(off) => off,
        Err(still) => {
            eprintln!(
                "DAMON runs here ({still:?}) and this user may not turn it off: the counts of \
                 several processes may move, as the reports say; nothing more to compare"
            );
            return;
        }
    };
    let first = report_of(&["env"]);
    assert_eq!(first.len(), 7, "{first:?}");
    let inside = pidns::way().is_some();
    for run in 1..5 {
        let wrapper: &[&str] = if inside && run >= 3 {
            fresh_namespace()
        } else {
            &["env"]
        };
        let dropped = (run == 1 || run == 3) && drop_page_cache();
        assert_eq!(
            report_of(wrapper),
            first,
            "run {} ({wrapper:?}, page cache dropped: {dropped})",
            run + 1
        );
    }
}

/// Library benchmarks that start shells (a pipe of three, a background job and `wait`, a shell
/// in a shell; in `/bin/sh` and bash) count the same from inside a fresh process-id namespace,
/// with and without a `/proc` of its own (a container's, as Docker and Podman mount), as
/// outside, and from a terminal as without one (a container, CI). Measured as a library
/// benchmark from a terminal, the bash pipe of three counted 52 instructions fewer than
/// without one (bash opens `/dev/tty` as it starts) until measured processes got a session of
/// their own. As root nothing here is skipped: a machine where the namespace cannot be made
/// fails.
#[test]
fn library_benchmarks_starting_shells_count_the_same_inside_a_pid_namespace_and_out() {
    let _toggled = DAMON_TOGGLED.lock().unwrap_or_else(|e| e.into_inner());
    let namespaces = pidns::way().is_some();
    assert!(
        namespaces || !root(),
        "root could not make a process-id namespace: {}",
        pidns::UNAVAILABLE
    );
    let _damon_off = match DamonOff::turn_off() {
        Ok(off) => off,
        Err(still) => {
            assert!(!root(), "root could not turn DAMON off ({still:?})");
            eprintln!("DAMON runs here ({still:?}) and this user may not turn it off");
            return;
        }
    };
    // dash's pipe of three is left out of the comparison: its count moved by one instruction
    // (5,915,403 and 5,915,404) between runs on a loaded machine whatever the terminal or the
    // namespace, which this test cannot tell from theirs; the pipes of `e2e_shells` are compared
    // inside a namespace and out above, and bash's pipe of three here.
    let counts_in = |report: &str| {
        let mut counts = counts_in(report);
        counts.remove("pipeline_three");
        counts
    };
    let outside = counts_in(&report_of_bin(LIB_SHELLS, &["env"], &[ONE_JOB]));
    assert_eq!(outside.len(), 5, "{outside:?}");
    assert!(outside.values().all(|&n| n > 100_000), "{outside:?}");
    let mut runs = vec![(
        "from a terminal".to_owned(),
        counts_in(&report_from_a_terminal(LIB_SHELLS)),
    )];
    if namespaces {
        let fresh = fresh_namespace();
        let own_proc: Vec<&str> = fresh.iter().copied().chain(["--mount-proc"]).collect();
        for wrapper in [fresh, &own_proc[..]] {
            let inside = counts_in(&report_of_bin(LIB_SHELLS, wrapper, &[ONE_JOB]));
            runs.push((wrapper.join(" "), inside));
        }
    } else {
        eprintln!("no process-id namespace can be made here: only the terminal is compared");
    }
    runs.push((
        "outside again".to_owned(),
        counts_in(&report_of_bin(LIB_SHELLS, &["env"], &[ONE_JOB])),
    ));
    // A difference must repeat to count: a pipeline's reader reads what its writer wrote by
    // then, which moved dash's pipe of three by one instruction in some runs on a loaded
    // machine (5,915,404 against 5,915,403); what a terminal or a namespace changes (52 for
    // bash's start-up, 14 in the issue) is there on every run.
    for (how, counts) in runs {
        if counts != outside {
            let again = match how.as_str() {
                "from a terminal" => counts_in(&report_from_a_terminal(LIB_SHELLS)),
                "outside again" => counts_in(&report_of_bin(LIB_SHELLS, &["env"], &[ONE_JOB])),
                wrapper => {
                    let wrapper: Vec<&str> = wrapper.split(' ').collect();
                    counts_in(&report_of_bin(LIB_SHELLS, &wrapper, &[ONE_JOB]))
                }
            };
            // Outside measured again beside it: a pipe's count moved by one under load on
            // either side (5,915,403 and 5,915,404), the terminal's or a namespace's own
            // difference stays.
            let outside_again = counts_in(&report_of_bin(LIB_SHELLS, &["env"], &[ONE_JOB]));
            eprintln!(
                "{how}: {counts:?} against {outside:?}; again: {again:?} against {outside_again:?}"
            );
            assert_eq!(
                again, outside_again,
                "{how}, twice: {counts:?}, then {again:?}; outside {outside:?}, then \
                 {outside_again:?}"
            );
        }
    }
}
