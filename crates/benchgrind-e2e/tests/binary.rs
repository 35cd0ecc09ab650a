//! Binary benchmarks end to end: the `e2e_bin` program under real Valgrind.

mod common;

use std::path::Path;
use std::process::Command;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_bin");

/// Each benchmark's header with its `(metric, value)` pairs.
type Counts = Vec<(String, Vec<(String, u64)>)>;

/// Compiles the C program of the tests into `dir`.
fn c_program(dir: &Path) -> String {
    let source = dir.join("count.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\n#include <stdlib.h>\n\
         int main(int argc, char **argv) {\n\
           long n = argc > 1 ? atol(argv[1]) : 10, sum = 0;\n\
           for (long i = 0; i < n; i++) sum += i * i % 7;\n\
           printf(\"%ld\\n\", sum);\n\
           return 0;\n\
         }\n",
    )
    .unwrap();
    let program = dir.join("count");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .status()
        .expect("a C compiler (cc) runs");
    assert!(status.success());
    program.display().to_string()
}

#[test]
fn a_system_binary_and_a_c_program_count_the_same_from_anywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let program = c_program(tmp.path());
    let home = format!("--home={}", tmp.path().join("home").display());
    let elsewhere = tmp.path().join("some/other/dir");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let big = "y".repeat(3000);
    let runs = [
        run(
            BIN,
            &[&home, "programs"],
            tmp.path(),
            &[("E2E_C_PROGRAM", &program)],
        ),
        run(
            BIN,
            &[&home, "programs"],
            &elsewhere,
            &[
                ("E2E_C_PROGRAM", &program),
                ("UNRELATED", &big),
                ("LANG", "C"),
            ],
        ),
        run(
            BIN,
            &[&home, "programs"],
            Path::new("/"),
            &[("E2E_C_PROGRAM", &program), ("X", "1")],
        ),
    ];
    let counts: Vec<Counts> = runs
        .iter()
        .map(|out| {
            assert_eq!(out.status.code(), Some(0), "{}", stdout(out));
            blocks(&stdout(out))
                .into_iter()
                .map(|b| {
                    (
                        b.header,
                        b.metrics.into_iter().map(|m| (m.0, m.1)).collect(),
                    )
                })
                .collect()
        })
        .collect();
    assert_eq!(counts[0].len(), 2);
    assert_eq!(
        counts[0][0].0,
        "e2e_bin::programs::sort numbers:() -> /usr/bin/sort -n numbers.txt"
    );
    // iai-callgrind 0.13's header: the arguments as written, then the command line (cut after
    // 50 characters).
    let header = format!("(\"1000\") -> {program} 1000");
    let header: String = match header.char_indices().nth(50) {
        Some((at, _)) => format!("{}...", &header[..at]),
        None => header,
    };
    assert_eq!(
        counts[0][1].0,
        format!("e2e_bin::programs::c_program thousand:{header}")
    );
    assert!(
        counts[0][0].1[0].1 > 100_000,
        "sort of 2000 numbers: {:?}",
        counts[0][0]
    );
    assert_eq!(counts[1], counts[0]);
    assert_eq!(counts[2], counts[0]);
}

#[test]
fn the_setups_output_is_the_commands_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out_file = tmp.path().join("cat.out");
    let out = run(
        BIN,
        &[&format!("--home={}", tmp.path().display()), "pipes"],
        tmp.path(),
        &[("E2E_PIPE_OUT", out_file.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(out_file).unwrap(),
        "piped through setup: 42\n"
    );
}

#[test]
fn an_expected_exit_code_passes_and_an_unexpected_one_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        BIN,
        &[&format!("--home={}", tmp.path().display()), "exits"],
        tmp.path(),
        &[],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let b = blocks(&report);
    assert_eq!(
        b[0].header,
        "e2e_bin::exits::expect_two exits_2:(\"exit 2\") -> /bin/sh -c 'exit 2'"
    );
    assert!(
        b[0].failed.is_none() && b[0].get("Instructions") > 0,
        "{report}"
    );
    assert_eq!(
        b[1].failed.as_deref(),
        Some("`/bin/sh -c exit 0` exited with code 0, expected code 2"),
        "{report}"
    );
}

#[test]
fn no_sandbox_is_left_behind_after_passing_failing_and_panicking_setups() {
    let tmp = tempfile::tempdir().unwrap();
    let sandboxes = tmp.path().join("tmpdir");
    std::fs::create_dir_all(&sandboxes).unwrap();
    let out = run(
        BIN,
        &[
            &format!("--home={}", tmp.path().join("home").display()),
            "sandbox",
        ],
        tmp.path(),
        &[("TMPDIR", sandboxes.to_str().unwrap())],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let b = blocks(&report);
    assert_eq!(b.len(), 4, "{report}");
    assert!(b[0].failed.is_none(), "the sandboxed sort passes: {report}");
    assert!(b[1].failed.is_none(), "{report}");
    assert_eq!(
        b[2].failed.as_deref(),
        Some("`/bin/false` exited with code 1, expected success (0)")
    );
    assert!(
        b[3].failed
            .as_deref()
            .unwrap()
            .starts_with("the setup panicked: setup fell over"),
        "{report}"
    );
    let left: Vec<_> = std::fs::read_dir(&sandboxes).unwrap().collect();
    assert!(left.is_empty(), "sandboxes left behind: {left:?}");
}

#[test]
fn an_entry_point_limits_the_counts_to_that_function() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        BIN,
        &[&format!("--home={}", tmp.path().display()), "entry_points"],
        tmp.path(),
        &[("E2E_TOOL", env!("CARGO_BIN_EXE_e2e_tool"))],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let b = blocks(&report);
    let (whole, work) = (b[0].get("Instructions"), b[1].get("Instructions"));
    // `work(5000)` is a loop of a few instructions per step; the whole process adds start-up.
    assert!(work > 5000 && work < 100_000, "work: {work}");
    assert!(whole > work + 50_000, "whole {whole} vs work {work}");
}

#[test]
fn other_tools_and_flamegraphs_measure_binary_benchmarks_too() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        BIN,
        &[&format!("--home={}", tmp.path().display()), "::tools::"],
        tmp.path(),
        &[("E2E_TOOL", env!("CARGO_BIN_EXE_e2e_tool"))],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let b = blocks(&report);
    assert_eq!(b.len(), 2, "{report}");
    // The whole process allocates its 256 KiB and whatever the runtime does; the entry point
    // exactly its 256 KiB.
    let whole = b[0].get("Total bytes");
    assert!(whole > 256 * 1024, "whole process: {whole}\n{report}");
    assert_eq!(b[1].get("Total bytes"), 256 * 1024, "{report}");
    let dir = tmp
        .path()
        .join("benchgrind-e2e/e2e_bin/tools/with_tools.whole");
    let svg = std::fs::read_to_string(dir.join("callgrind.Ir.flamegraph.svg")).unwrap();
    assert!(
        svg.contains("e2e_tool::work"),
        "the flamegraph names the program's functions"
    );
    assert!(dir.join("dhat.out").is_file());
}
