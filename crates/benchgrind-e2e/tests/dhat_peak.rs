//! DHAT's peak of the measured window, end to end on `e2e_dhat_peak` under real Valgrind: exact
//! whatever setup allocated, and the true peak when allocation sites peak apart.

mod common;

use common::{blocks, run, stdout, Block};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_dhat_peak");

fn block<'a>(blocks: &'a [Block], header_part: &str) -> &'a Block {
    blocks
        .iter()
        .find(|b| b.header.contains(header_part))
        .unwrap_or_else(|| panic!("no block `{header_part}` in {blocks:?}"))
}

#[test]
fn dhat_peak_is_the_windows_whatever_setup_allocated_and_whenever_sites_peak() {
    let home = tempfile::tempdir().unwrap();
    let h = format!("--home={}", home.path().display());
    let out = run(BIN, &[&h], home.path(), &[("BENCHGRIND_LOG", "debug")]);
    let report = stdout(&out);
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{report}\n{log}");
    let all = blocks(&report);

    // Setup's 10 MiB, still live in the window (the global peak is in the window), and freed
    // before it (the global peak is setup's: a second run with a larger ballast).
    for name in ["one_kib_after_kept_setup", "one_kib_after_freed_setup"] {
        let b = block(&all, name);
        assert_eq!(b.get("Peak bytes"), 1024, "{name}\n{report}");
        assert_eq!(b.get("Peak blocks"), 1, "{name}\n{report}");
        assert_eq!(
            b.get("Total bytes"),
            1024,
            "the ballast counts nowhere\n{report}"
        );
        assert_eq!(b.get("Total blocks"), 1, "{name}\n{report}");
    }
    // 1000 bytes, freed, then 600 + 700 live together.
    let b = block(&all, "two_sites");
    assert_eq!(b.get("Peak bytes"), 1300, "{report}");
    assert_eq!(b.get("Peak blocks"), 2, "{report}");
    assert_eq!(b.get("Total bytes"), 2300, "{report}");

    // Only the benchmark whose global peak was setup's ran DHAT twice.
    let second: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("DHAT's peak fell outside the window"))
        .collect();
    assert_eq!(second.len(), 1, "{log}");
    assert!(second[0].contains("one_kib_after_freed_setup"), "{log}");
    let first_runs = log
        .lines()
        .filter(|l| l.contains("BENCHGRIND_DHAT_BALLAST=\"1\""))
        .count();
    assert_eq!(first_runs, 3, "{log}");
    // Callgrind (the other Valgrind commands) never gets a ballast.
    let valgrind = log.lines().filter(|l| l.contains("valgrind\""));
    assert!(
        valgrind
            .filter(|l| !l.contains("--tool=dhat"))
            .all(|l| !l.contains("BALLAST")),
        "{log}"
    );
}
