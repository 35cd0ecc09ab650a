//! The requests added for code written against iai-callgrind 0.15/0.16 and gungraun 0.17-0.20
//! (valgrind-requests names), proven under real Valgrind with the programs of `tests/program`:
//! Cachegrind's window, the core extras, Memcheck's "new" leak check, the unchecked print
//! macros, and the Helgrind/DRD names. Needs `valgrind` on the `PATH`.

mod common;

use std::path::Path;

use common::*;

/// The `summary:` count (instructions, with `--cache-sim=no`) of a Cachegrind out file.
fn cachegrind_summary(run: &Run, file: &str) -> u64 {
    let text = std::fs::read_to_string(run.dir.join(file)).expect("cachegrind wrote the file");
    let line = text
        .lines()
        .find(|l| l.starts_with("summary:"))
        .expect("a summary line");
    line["summary:".len()..]
        .split_whitespace()
        .next()
        .expect("a count")
        .parse()
        .expect("a number")
}

#[test]
fn cachegrind_counts_only_between_start_and_stop() {
    let whole = run(
        "cachegrind-whole",
        Some(&[
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=cg.out",
        ]),
        "cachegrind",
        &[],
    );
    let whole_ir = cachegrind_summary(&whole, "cg.out");
    // Twice the outside loop, at least one instruction per iteration.
    assert!(whole_ir > 2 * common_outside(), "whole program: {whole_ir}");
    if valgrind_version() < (3, 22) {
        // `--instr-at-start` and the requests came with 3.22; the older Cachegrind ignored the
        // requests (the run above counted everything and did not fail).
        eprintln!(
            "Valgrind {:?} has no --instr-at-start; window not checked",
            valgrind_version()
        );
        return;
    }
    let window = run(
        "cachegrind-window",
        Some(&[
            "--tool=cachegrind",
            "--cache-sim=no",
            "--instr-at-start=no",
            "--cachegrind-out-file=cg.out",
        ]),
        "cachegrind",
        &[],
    );
    let window_ir = cachegrind_summary(&window, "cg.out");
    eprintln!("cachegrind: whole {whole_ir}, window {window_ir}");
    // The window runs REGION iterations, a tenth of each outside loop.
    assert!(window_ir >= common_region(), "window: {window_ir}");
    assert!(
        window_ir * 10 < whole_ir,
        "window {window_ir} vs whole {whole_ir}"
    );
}

/// `OUTSIDE` and `REGION` of the programs' library, read from its source.
fn program_const(name: &str) -> u64 {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/program/src/lib.rs");
    let text = std::fs::read_to_string(source).expect("program library");
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("pub const {name}: u64 = ")))
        .unwrap_or_else(|| panic!("no `{name}` in the program library"));
    let value = line.rsplit('=').next().expect("a value");
    value
        .trim()
        .trim_end_matches(';')
        .replace('_', "")
        .parse()
        .expect("a number")
}

fn common_outside() -> u64 {
    program_const("OUTSIDE")
}

fn common_region() -> u64 {
    program_const("REGION")
}

/// The line of `fn creq_work` in the programs' library, 1-based.
fn creq_work_line() -> usize {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/program/src/lib.rs");
    let text = std::fs::read_to_string(source).expect("program library");
    1 + text
        .lines()
        .position(|l| l.contains("fn creq_work("))
        .expect("creq_work in the library")
}

#[test]
fn core_extras_answer_under_valgrind_and_stay_silent_natively() {
    let native = run("extras-native", None, "extras", &[]);
    assert_eq!(
        native.get("non_simd_call1"),
        "0",
        "func is not called natively"
    );
    assert_eq!(native.get("non_simd_call3"), "0");
    assert_eq!(native.get("srcloc"), "");
    assert_eq!(native.get("replaces_malloc"), "false");
    assert_eq!(native.get("mempool_exists"), "false");

    let none = run("extras-none", Some(&["--tool=none"]), "extras", &[]);
    // Valgrind numbers the main thread 1; the functions return tid * 1000 + their arguments.
    assert_eq!(none.get("non_simd_call1"), "1041");
    assert_eq!(none.get("non_simd_call3"), "1006");
    // The first instruction of `creq_work`: a Rust source line, its signature or first lines
    // where the compiler keeps them in `lib.rs` (rustc 1.80 attributes it to an inlined
    // `black_box` in `hint.rs` instead).
    let srcloc = none.get("srcloc");
    let (file, line) = srcloc
        .rsplit_once(':')
        .and_then(|(f, l)| Some((f, l.parse::<usize>().ok()?)))
        .filter(|(f, _)| f.ends_with(".rs"))
        .unwrap_or_else(|| panic!("srcloc {srcloc:?} is not `<file>.rs:<line>`"));
    if file == "lib.rs" {
        let start = creq_work_line();
        assert!(
            (start..start + 4).contains(&line),
            "srcloc {srcloc}, fn at line {start}"
        );
    }
    // The NUL byte is dropped, the rest reaches the log.
    assert!(
        none.log
            .contains("** creq-extras: unchecked 7 with a  NUL\n"),
        "log:\n{}",
        none.log
    );

    let memcheck = run("extras-memcheck", Some(&["--tool=memcheck"]), "extras", &[]);
    assert_eq!(memcheck.get("mempool_exists"), "true", "{}", memcheck.log);
    assert_eq!(memcheck.get("mempool_gone"), "true");
    assert_eq!(memcheck.get("non_simd_call1"), "1041");
    assert_eq!(error_summary(&memcheck.log), 0, "{}", memcheck.log);
}

#[test]
fn memcheck_new_leak_check_reports_the_new_leak() {
    let leaks = run(
        "extras-leaks",
        Some(&["--tool=memcheck", "--leak-check=full"]),
        "extras",
        &["leaks"],
    );
    assert_eq!(leaks.number("leaked_bytes"), 1000 + 2345);
    // Three leak reports: do_leak_check, do_new_leak_check, and the one at exit.
    let reports: Vec<&str> = leaks.log.split("LEAK SUMMARY:").collect();
    assert_eq!(reports.len(), 4, "log:\n{}", leaks.log);
    let second = reports[1];
    assert!(
        second.contains("2,345 bytes in 1 blocks are definitely lost"),
        "second report:\n{second}"
    );
    // Valgrind 3.21 added the "new" mode; 3.19 and 3.20 treat the request as a full check.
    let old_block_listed = second.contains("1,000 bytes in 1 blocks are definitely lost");
    assert_eq!(
        old_block_listed,
        valgrind_version() < (3, 21),
        "second report:\n{second}"
    );
}

#[test]
fn helgrind_names_of_valgrind_requests_explain_the_handoff() {
    let native = run(
        "threads-hg-iai-native",
        None,
        "threads",
        &["helgrind", "iai"],
    );
    assert_eq!(native.get("clean_memory_heapblock"), "-2");
    assert_eq!(native.get("abits"), "-2");

    let under = run(
        "threads-hg-iai",
        Some(&["--tool=helgrind"]),
        "threads",
        &["helgrind", "iai"],
    );
    assert_eq!(under.get("seen"), "42");
    assert_eq!(error_summary(&under.log), 0, "{}", under.log);
    assert_eq!(
        under.get("clean_memory_heapblock"),
        "48",
        "the block's size"
    );
    assert_eq!(under.get("abits"), "8", "all 8 bytes addressable");
    assert_eq!(under.get("abits_first"), "255");
}

#[test]
fn drd_names_of_valgrind_requests_explain_the_handoff_and_trace() {
    let under = run(
        "threads-drd-iai",
        Some(&["--tool=drd"]),
        "threads",
        &["drd", "iai"],
    );
    assert_eq!(under.get("seen"), "42");
    assert_eq!(error_summary(&under.log), 0, "{}", under.log);
    assert_eq!(under.get("drd_thread_id"), "1");
    assert_eq!(under.get("valgrind_thread_id"), "1");
    let traced = format!("store {} size 8 val 77", under.get("traced_addr"));
    assert!(
        under.log.contains(&traced),
        "no `{traced}` in:\n{}",
        under.log
    );
}

#[test]
fn dhat_histogram_memory_reaches_dhat() {
    let run = run(
        "dhat-histogram",
        Some(&["--tool=dhat", "--dhat-out-file=dhat.json"]),
        "dhat",
        &["histogram"],
    );
    assert_eq!(run.get("sum"), "4096");
    // A DHAT without the request (Valgrind 3.19 here) names the code it got: dhat.h's
    // AD_HOC_EVENT + 1. A DHAT with it gives the 4096-byte block an access histogram, which
    // blocks over 1024 bytes otherwise lack.
    if run
        .log
        .contains("Warning: unknown DHAT client request code 44480001")
    {
        eprintln!("this DHAT predates histogram_memory; the request reached it");
        return;
    }
    let json = std::fs::read_to_string(run.dir.join("dhat.json")).expect("dhat wrote its file");
    let block = json
        .split("{\"tb\":4096,")
        .nth(1)
        .unwrap_or_else(|| panic!("no 4096-byte program point in:\n{json}"));
    let entry = block.split('}').next().unwrap_or_default();
    assert!(entry.contains("\"acc\":["), "no histogram: {entry}");
}

#[test]
fn semaphore_annotations_explain_the_handoff_to_both_race_detectors() {
    // Plain, both tools report the handoff (tests/under_valgrind.rs); described as a semaphore
    // posted before the flag is set and waited for after it is seen, neither may.
    for tool in ["helgrind", "drd"] {
        let under = run(
            &format!("threads-{tool}-sem"),
            Some(&[&format!("--tool={tool}")]),
            "threads",
            &[tool, "sem"],
        );
        assert_eq!(under.get("seen"), "42");
        assert_eq!(error_summary(&under.log), 0, "{tool}:\n{}", under.log);
    }
}

#[test]
fn helgrind_barrier_annotations_explain_the_handoff() {
    // The producer arrives at a two-thread barrier before setting the flag, the consumer after
    // seeing it: the barrier completes between the write and the read.
    let under = run(
        "threads-helgrind-barrier",
        Some(&["--tool=helgrind"]),
        "threads",
        &["helgrind", "barrier"],
    );
    assert_eq!(under.get("seen"), "42");
    assert_eq!(error_summary(&under.log), 0, "{}", under.log);
}
