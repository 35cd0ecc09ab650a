//! The portable way (issue 46): a user's package (`benchmark-tests/portable`: memchr,
//! serde_json, regex, threads, a `HashMap` seeded by the operating system, DHAT, a binary
//! benchmark of its own program) built for `x86_64-unknown-linux-musl`, whose bench binaries and
//! program are static and link the musl that Rust ships: every kind of benchmark runs, and two
//! runs measured afresh count the same, every metric. The tools that see the heap through a
//! preloaded library (DHAT, Memcheck, Massif, Helgrind, DRD) see nothing of a static program:
//! the benchmark says so. That its counts are also the same on other
//! userlands (Debian 13, unstable) is what `scripts/portable.py` measures, in CI.

mod common;

use std::path::Path;
use std::process::Command;

use common::{block_lines, blocks, target_dir, warnings};

const MUSL: &str = "x86_64-unknown-linux-musl";

/// Whether the Rust toolchain has the standard library for `target`.
fn has_target(target: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc starts");
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib")
        .exists()
}

/// The reports of the package's two bench binaries built for musl (one after the other),
/// measured afresh in `home`, with `args`.
fn run(home: &Path, args: &[&str]) -> String {
    ["portable", "portable_bin"]
        .map(|bench| run_one(bench, home, args))
        .join("\n")
}

/// The report of the bench binary `bench` built for musl, measured afresh in `home`.
fn run_one(bench: &str, home: &Path, args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["bench", "-q", "-p", "benchgrind-portable", "--target", MUSL])
        .args(["--bench", bench, "--"])
        .args(["--fresh", "--save-summary=json"])
        .arg(format!("--home={}", home.display()))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target_dir())
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .expect("cargo starts");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

/// The `glibc` field of every summary under `dir`.
fn libraries(dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            libraries(&path, found);
        } else if path.file_name().is_some_and(|n| n == "summary.json") {
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let glibc = &json["fingerprint"]["glibc"];
            found.push(glibc.as_str().unwrap_or("(none)").to_owned());
        }
    }
}

#[test]
fn a_package_built_for_musl_runs_every_kind_of_benchmark_and_counts_the_same_twice() {
    if !has_target(MUSL) {
        assert!(
            std::env::var_os("CI").is_none(),
            "the Rust toolchain has no {MUSL} target: rustup target add {MUSL} (bash .ci/deps \
             --tests does)"
        );
        eprintln!("NOTE: no {MUSL} target here (rustup target add {MUSL}); nothing to run");
        return;
    }
    let homes = [(); 3].map(|_| tempfile::tempdir().unwrap());
    let first = run(homes[0].path(), &[]);
    let second = run(homes[1].path(), &[]);
    // Each bench binary's report ends with its tally (`benchgrind: ...`), where `blocks`
    // stops: the blocks of both, read from each report.
    let all = |report: &str| -> Vec<common::Block> {
        report
            .split("\n\n")
            .filter(|part| !part.starts_with("benchgrind:"))
            .flat_map(blocks)
            .collect()
    };
    // `seeded` runs its static program with regex and a HashMap, whose seeds no preload
    // library reaches: not compared, and it must say so; `small` draws none, and must not.
    let said = |report: &str, id: &str| {
        warnings(report, id)
            .iter()
            .any(|w| w.contains("is static and drew random numbers"))
    };
    assert!(said(&first, "seeded"), "{first}");
    assert!(!said(&first, "small"), "{first}");
    let compared = |report: &str| -> Vec<common::Block> {
        all(report)
            .into_iter()
            .filter(|b| !b.header.contains("seeded:"))
            .collect()
    };
    let (a, b) = (compared(&first), compared(&second));
    for expected in [
        "memmem_count:",
        "json_parse:",
        "regex_find:",
        "::regex_compile",
        "two:",
        "words:",
        "vectors:",
        "small:",
    ] {
        assert!(
            a.iter().any(|b| b.header.contains(expected)),
            "{expected} missing from\n{first}"
        );
    }
    assert!(a.iter().all(|b| b.failed.is_none()), "{first}");
    assert_eq!(a, b, "two runs differ:\n{first}\n{second}");
    // Threads take turns as on a glibc build: placed under real-time scheduling where this
    // user may (the C library's function for it is a stub in musl).
    let placed = benchgrind_runner::execute::realtime::available();
    assert_eq!(
        !first.contains("without real-time scheduling"),
        placed,
        "{first}"
    );
    // DHAT ran, and says that a static program shows it no heap (Valgrind's malloc
    // replacement is a preloaded library, which a static program cannot load).
    let heap = block_lines(&first, "vectors").join("\n");
    assert!(heap.contains("Total bytes:"), "{heap}");
    assert!(heap.contains("DHAT saw nothing of its heap"), "{heap}");
    // The random numbers are the harness's: another seed moves the HashMap's count, the same
    // seed repeats it.
    let words = |report: &str| {
        all(report)
            .into_iter()
            .find(|b| b.header.contains("words:"))
            .unwrap()
            .get("Instructions")
    };
    let seeded = run(homes[2].path(), &["--random-seed=7"]);
    assert_ne!(words(&seeded), words(&first), "{seeded}");
    // Every bench binary says in its fingerprint that it is a portable build.
    let mut found = Vec::new();
    libraries(homes[0].path(), &mut found);
    assert!(!found.is_empty());
    assert!(
        found
            .iter()
            .all(|l| l == benchgrind_runner::fingerprint::STATIC_MUSL),
        "{found:?}"
    );
}
