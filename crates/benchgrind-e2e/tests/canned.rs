//! A real bench program's whole pipeline with the canned executor (`BENCHGRIND_CANNED`): the
//! `e2e_lib` program plans, runs its workers, reports and exits as under Valgrind, with profiles
//! that real Callgrind runs wrote (the runner's `tests/fixtures`) copied in instead of measured.
//! Fast and independent of Valgrind; the other tests of this crate measure for real.

mod common;

use std::path::{Path, PathBuf};

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_lib");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benchgrind-runner/tests/fixtures")
        .join(name)
}

#[test]
fn a_bench_program_runs_its_pipeline_on_canned_profiles() {
    let home = tempfile::tempdir().unwrap();
    let canned = tempfile::tempdir().unwrap();
    let home_arg = format!("--home={}", home.path().display());
    let canned_dir = canned.path().to_str().unwrap();
    let can = |fixture_name: &str| {
        std::fs::copy(
            fixture(fixture_name),
            canned.path().join("default.callgrind.out"),
        )
        .unwrap();
    };
    can("fib10.cache-sim.callgrind.out");
    std::fs::write(
        canned.path().join("bench_panics.boom.fail"),
        "panicked: canned (at here)",
    )
    .unwrap();
    let env = [("BENCHGRIND_CANNED", canned_dir)];

    let first = run(BIN, &[&home_arg, "--jobs=3"], home.path(), &env);
    let report = stdout(&first);
    assert_eq!(first.status.code(), Some(1), "{report}");
    let found = blocks(&report);
    assert_eq!(found.len(), 8, "every benchmark, in plan order: {report}");
    assert_eq!(
        found[2].failed.as_deref(),
        Some("panicked: canned (at here)")
    );
    assert!(found
        .iter()
        .filter(|b| b.failed.is_none())
        .all(|b| b.get("Instructions") == 2658));

    can("fib15.instr-branch.callgrind.out");
    let second = run(
        BIN,
        &[&home_arg, "--regression=ir=5%", "bench_fibonacci"],
        home.path(),
        &env,
    );
    let report = stdout(&second);
    assert_eq!(second.status.code(), Some(3), "{report}");
    assert!(report.contains("Instructions (2658 -> 29598)"), "{report}");
}
