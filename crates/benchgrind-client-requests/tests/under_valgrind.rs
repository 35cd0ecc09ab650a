//! Every group of client requests, proven under real Valgrind; and the `client_requests_defs`
//! build, proven free of requests by reading its machine code.
//!
//! The programs in `tests/program` use `benchgrind::client_requests` as users do. They are built
//! in release mode twice, with a nested `cargo build` into their own target directories under
//! `CARGO_TARGET_TMPDIR` (the outer cargo holds the lock on ours): `real` enables
//! `client_requests`, `defs` only `client_requests_defs`. Each program prints `key=value` lines;
//! Valgrind's log and output files are read back. Needs `valgrind` on the `PATH`.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

#[test]
fn core_requests_answer_under_valgrind_and_stay_silent_natively() {
    let native = run("core-native", None, "core", &[]);
    assert_eq!(native.get("running_on_valgrind"), "0");
    assert_eq!(native.get("printf_returned"), "0");
    assert_eq!(native.get("nul_rejected"), "false");
    assert_eq!(native.get("monitor_recognised"), "false");
    assert_eq!(native.get("stack_id"), "0");

    let under = run("core-none", Some(&["--tool=none"]), "core", &[]);
    assert_eq!(under.get("running_on_valgrind"), "1");
    // Every `%` reaches the log as written: the message is not a format string.
    let message = "creq-core: hello 42 at 100% (%s %d stay text)";
    assert!(
        under.log.contains(&format!("** {message}\n")),
        "log:\n{}",
        under.log
    );
    assert_eq!(under.number("printf_returned"), message.len() as u64 + 1);
    assert!(
        under.log.contains("** creq-core: from the macro 7\n"),
        "{}",
        under.log
    );
    assert_eq!(under.get("nul_rejected"), "true");
    assert!(
        under.log.contains("** creq-core: backtrace follows"),
        "{}",
        under.log
    );
    assert!(
        under.log.contains("core::main"),
        "the backtrace names main:\n{}",
        under.log
    );
    assert_eq!(under.get("monitor_recognised"), "true");
    assert!(
        under.log.contains("n_errs_found 0"),
        "monitor output:\n{}",
        under.log
    );
    assert_ne!(
        under.get("stack_id"),
        "0",
        "Valgrind numbers registered stacks from 1"
    );
    assert_eq!(under.get("errors"), "0");
}

#[test]
fn callgrind_toggle_collect_counts_only_the_region() {
    let toggled = run(
        "callgrind-toggle",
        Some(&[
            "--tool=callgrind",
            "--collect-atstart=no",
            "--callgrind-out-file=cg.out",
        ]),
        "callgrind",
        &["toggle"],
    );
    let reference = run(
        "callgrind-reference",
        Some(&[
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=creq_work",
            "--callgrind-out-file=cg.out",
        ]),
        "callgrind",
        &["reference"],
    );
    let whole = run(
        "callgrind-whole",
        Some(&["--tool=callgrind", "--callgrind-out-file=cg.out"]),
        "callgrind",
        &["whole"],
    );
    let region = toggled.callgrind_total("cg.out");
    let known = reference.callgrind_total("cg.out");
    let total = whole.callgrind_total("cg.out");
    eprintln!("toggled region {region}, creq_work by symbol {known}, whole program {total}");
    assert!(
        region >= known && region - known <= REGION_TOLERANCE,
        "region {region} vs creq_work(REGION) {known}"
    );
    // The work outside the region alone costs ten times the region.
    assert!(
        region * 10 < total,
        "region {region}, whole program {total}"
    );
}

#[test]
fn callgrind_instrumentation_and_dumps() {
    let reference = run(
        "callgrind-reference-2",
        Some(&[
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=creq_work",
            "--callgrind-out-file=cg.out",
        ]),
        "callgrind",
        &["reference"],
    );
    let known = reference.callgrind_total("cg.out");
    let near = |count: u64| count >= known && count - known <= REGION_TOLERANCE;

    let instr = run(
        "callgrind-instr",
        Some(&[
            "--tool=callgrind",
            "--instr-atstart=no",
            "--callgrind-out-file=cg.out",
        ]),
        "callgrind",
        &["instr"],
    );
    let instrumented = instr.callgrind_total("cg.out");
    assert!(near(instrumented), "instrumented {instrumented} vs {known}");

    let dump = run(
        "callgrind-dump",
        Some(&["--tool=callgrind", "--callgrind-out-file=cg.out"]),
        "callgrind",
        &["dump"],
    );
    let part =
        std::fs::read_to_string(dump.dir.join("cg.out.1")).expect("dump_stats_at wrote a part");
    assert!(
        part.contains("desc: Trigger: Client Request: creq region"),
        "{part}"
    );
    let dumped = dump.callgrind_total("cg.out.1");
    assert!(near(dumped), "zeroed then dumped {dumped} vs {known}");
    eprintln!("creq_work by symbol {known}, instrumented window {instrumented}, dump {dumped}");
}

#[test]
fn memcheck_sees_undefined_and_unaddressable_memory_and_leaks() {
    let run = run("memcheck", Some(&["--tool=memcheck"]), "memcheck", &[]);
    assert_eq!(run.get("defined_before"), "0");
    // Memcheck answers -1 to the `make_mem_*` requests.
    assert_eq!(run.number("make_undefined_answer"), u64::MAX);
    // And 1 to the address-error-reporting requests.
    assert_eq!(run.get("disable_reporting_answer"), "1");
    assert_eq!(run.get("enable_reporting_answer"), "1");
    assert_eq!(
        run.get("undefined_offset"),
        "0",
        "the first undefined byte is the first"
    );
    assert_eq!(run.number("errors_after"), run.number("errors_before") + 1);
    assert!(run
        .log
        .contains("Uninitialised byte(s) found during client check request"));
    assert_eq!(run.get("get_vbits"), "1");
    assert_eq!(
        run.get("vbits_first"),
        "255",
        "an undefined byte has all its V bits set"
    );
    assert_eq!(run.get("defined_again"), "0");
    assert_eq!(run.get("noaccess_offset"), "8");
    assert!(run
        .log
        .contains("Unaddressable byte(s) found during client check request"));
    assert_eq!(run.get("leaked_bytes"), "1000");
    assert_eq!(run.get("leaked_blocks"), "1");
    assert!(
        run.log
            .contains("1,000 bytes in 1 blocks are definitely lost"),
        "{}",
        run.log
    );
    assert_eq!(run.get("errors_end"), "3");
}

#[test]
fn dhat_records_ad_hoc_events_with_their_weights() {
    let run = run(
        "dhat",
        Some(&["--tool=dhat", "--mode=ad-hoc", "--dhat-out-file=dhat.json"]),
        "dhat",
        &[],
    );
    let json = std::fs::read_to_string(run.dir.join("dhat.json")).expect("dhat wrote its file");
    assert!(json.contains("\"mode\":\"ad-hoc\""), "{json}");
    // Each program point carries `"tb":<weight>,"tbk":<events>`; no JSON parser needed for that.
    let field = |name: &str| -> u64 {
        json.split(&format!("\"{name}\":"))
            .skip(1)
            .map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<u64>().expect("a number")
            })
            .sum()
    };
    assert_eq!(field("tb"), 5 * 3 + 7, "total weight");
    assert_eq!(field("tbk"), 6, "events");
}

#[test]
fn helgrind_annotations_explain_an_atomic_handoff() {
    let plain = run(
        "helgrind-plain",
        Some(&["--tool=helgrind"]),
        "threads",
        &["helgrind", "plain"],
    );
    assert!(error_summary(&plain.log) > 0, "{}", plain.log);
    assert!(
        plain
            .log
            .contains("Possible data race during read of size 8"),
        "{}",
        plain.log
    );
    let annotated = run(
        "helgrind-annotated",
        Some(&["--tool=helgrind"]),
        "threads",
        &["helgrind", "annotated"],
    );
    assert_eq!(error_summary(&annotated.log), 0, "{}", annotated.log);
    assert_eq!(annotated.get("seen"), "42");
}

#[test]
fn drd_annotations_explain_an_atomic_handoff() {
    let plain = run(
        "drd-plain",
        Some(&["--tool=drd"]),
        "threads",
        &["drd", "plain"],
    );
    assert!(error_summary(&plain.log) > 0, "{}", plain.log);
    assert!(
        plain.log.contains("Thread 2 (creq-consumer)"),
        "set_thread_name:\n{}",
        plain.log
    );
    let annotated = run(
        "drd-annotated",
        Some(&["--tool=drd"]),
        "threads",
        &["drd", "annotated"],
    );
    assert_eq!(error_summary(&annotated.log), 0, "{}", annotated.log);
    assert_eq!(annotated.get("main_valgrind_thread_id"), "1");
    assert_eq!(annotated.get("consumer_drd_thread_id"), "2");
}

/// The bytes of the `.text` section of an ELF64 little-endian file.
fn elf_text(file: &[u8]) -> &[u8] {
    let u16_at = |at: usize| u16::from_le_bytes(file[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let u64_at = |at: usize| u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
    assert_eq!(
        &file[..6],
        b"\x7fELF\x02\x01",
        "a 64-bit little-endian ELF file"
    );
    let (sh_off, sh_size, sh_num, sh_strndx) =
        (u64_at(0x28), u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let section = |i: usize| sh_off + i * sh_size;
    let names = u64_at(section(sh_strndx) + 24);
    (0..sh_num)
        .map(section)
        .find(|&s| file[names + u32_at(s)..].starts_with(b".text\0"))
        .map(|s| &file[u64_at(s + 24)..u64_at(s + 24) + u64_at(s + 32)])
        .expect("a .text section")
}

fn count_preambles(haystack: &[u8]) -> usize {
    haystack
        .windows(PREAMBLE.len())
        .filter(|w| *w == PREAMBLE)
        .count()
}

#[cfg(target_os = "linux")]
#[test]
fn defs_only_build_has_no_request_in_its_machine_code() {
    for program in [
        "core",
        "callgrind",
        "memcheck",
        "dhat",
        "threads",
        "extras",
        "cachegrind",
    ] {
        let defs = std::fs::read(programs(Build::Defs).join(program)).expect("defs build");
        let real = std::fs::read(programs(Build::Real).join(program)).expect("real build");
        let (in_defs, in_real) = (
            count_preambles(elf_text(&defs)),
            count_preambles(elf_text(&real)),
        );
        eprintln!("{program}: preambles in .text: defs {in_defs}, real {in_real}");
        assert_eq!(in_defs, 0, "{program} built with client_requests_defs only");
        assert_eq!(
            count_preambles(&defs),
            0,
            "{program}: nowhere in the defs file either"
        );
        assert!(in_real > 0, "{program} built with client_requests");
    }
    // And the defs build really does nothing under Valgrind.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("creq-runs/core-defs");
    std::fs::create_dir_all(&dir).expect("run directory");
    let output = Command::new("valgrind")
        .args(["--tool=none", "--log-file=valgrind.log"])
        .arg(programs(Build::Defs).join("core"))
        .current_dir(&dir)
        .output()
        .expect("valgrind starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("running_on_valgrind=0"), "{stdout}");
    let log = std::fs::read_to_string(dir.join("valgrind.log")).expect("log");
    assert!(!log.contains("creq-core"), "{log}");
}
