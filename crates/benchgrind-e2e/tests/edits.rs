//! No benchmark changes its count when another is edited (issue 55): a package's bench file of
//! library benchmarks (arguments, a setup function, a list of arguments, allocations in the
//! body), built in one code-generation unit as the README has users build theirs, measured with
//! `--fresh` and saved as a baseline; then three edits, each measured the same way against it: a
//! benchmark added before the others (first in the file and in the group), one renamed to a much
//! longer name, and longer ids and argument text given to two (one of which also gets a longer
//! argument value, so its own count is not compared).
//!
//! What is checked, from what was measured (glibc build, Valgrind 3.19): every other benchmark,
//! and the renamed one, counts the same instructions and the same data reads and writes (`Ir`,
//! `Total read+write`) after every edit. An added benchmark (new code), a longer name and longer
//! ids and argument text (read-only data, which the linker puts before the code: `.rodata` grew
//! by 128 bytes for the name, and `.text`, `.data` and `.bss` moved by as much) put the same code
//! and data at other addresses, so the simulated caches' hits and the estimated cycles may move
//! (measured: 6 of 8 benchmarks after the addition, by up to 68 estimated cycles of 1,899; 1 of 9
//! after the rename, one L1 hit became an LL hit; after the longer ids and arguments none from
//! one checkout, `format_numbers` by one L1 hit from a checkout at a shorter path, which is in
//! benchgrind's own panic locations in `.rodata`): each such
//! benchmark must be reported as layout only (the same functions executed the same counts), as
//! `tests/layout.rs` checks for an addition in more detail.
//! The dependencies are built once per target directory.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{blocks, one_unit_package, target_dir};

/// The bench file: `{ADDED}` and `{FIRST}` mark where a benchmark is added.
const BENCH: &str = r#"use std::collections::BTreeMap;
use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

{ADDED}
#[library_benchmark]
#[bench::short(10)]
#[bench::long(20)]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

fn numbers(n: u64) -> Vec<u64> {
    (0..n).rev().collect()
}

#[library_benchmark]
#[bench::hundred(args = (100), setup = numbers)]
fn sort_numbers(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    black_box(v)
}

#[library_benchmark]
fn greeting() -> String {
    black_box(String::from("hello, world"))
}

#[library_benchmark]
#[benches::sizes(8, 64, 512)]
fn collect_map(n: u64) -> BTreeMap<u64, u64> {
    (0..black_box(n)).map(|i| (i, i * i)).collect()
}

#[library_benchmark]
#[bench::word("abc")]
fn count_letters(text: &str) -> usize {
    black_box(text).chars().filter(|c| c.is_alphabetic()).count()
}

#[library_benchmark]
fn format_numbers() -> String {
    format!("{:?}", black_box([1u64, 22, 333, 4444]))
}

library_benchmark_group!(
    name = edits;
    benchmarks = {FIRST}bench_fibonacci, sort_numbers, greeting, collect_map, count_letters,
        format_numbers
);
main!(library_benchmark_groups = edits);
"#;

const ADDED: &str = r#"#[library_benchmark]
#[bench::first(1000)]
fn added_first(n: usize) -> String {
    let bytes = vec![black_box(b'x'); n];
    black_box(format!("{}{}", String::from_utf8(bytes).unwrap(), fibonacci(12)))
}
"#;

const LONG_NAME: &str =
    "greeting_renamed_to_a_much_longer_name_than_any_benchmark_of_this_file_had";

/// One edit: its name, the bench file, the renamed functions (new name, old name), and the
/// functions given another argument value (not compared).
struct Edit {
    name: &'static str,
    bench: String,
    renamed: Vec<(&'static str, &'static str)>,
    changed: Vec<&'static str>,
}

/// The bench file as it is, then the three edits.
fn edits() -> Vec<Edit> {
    let base = BENCH.replace("{ADDED}", "").replace("{FIRST}", "");
    let added = BENCH
        .replace("{ADDED}", ADDED)
        .replace("{FIRST}", "added_first, ");
    let renamed = base
        .replace("fn greeting()", &format!("fn {LONG_NAME}()"))
        .replace(" greeting,", &format!(" {LONG_NAME},"));
    let longer = base
        .replace(
            "#[bench::short(10)]",
            "#[bench::short_with_a_much_longer_id_than_it_had_before(10 + 0 * 1_000_000_000_000)]",
        )
        .replace(
            "#[bench::word(\"abc\")]",
            "#[bench::word_with_a_longer_id(\"abc, and a much longer argument than it had before: \
             of some hundred bytes, more than any small allocation of the harness would take, \
             copied onto nothing\")]",
        );
    assert_ne!(renamed, base);
    assert_ne!(longer, base);
    let edit = |name, bench, renamed, changed| Edit {
        name,
        bench,
        renamed,
        changed,
    };
    vec![
        edit("base", base, vec![], vec![]),
        edit("added", added, vec![], vec!["added_first"]),
        edit("renamed", renamed, vec![(LONG_NAME, "greeting")], vec![]),
        edit("longer", longer, vec![], vec!["count_letters"]),
    ]
}

/// The package in `dir` with `bench` as its bench file, in one code-generation unit.
fn package(dir: &Path, bench: &str) -> PathBuf {
    one_unit_package(dir, "benchgrind-edits", "", "", "edits", bench)
}

/// Each benchmark by (function, its n-th benchmark; `renamed` functions under their old names):
/// its header, its metrics, and whether the report calls its change from the baseline layout
/// only.
type Measured = Vec<((String, usize), String, Vec<(String, u64)>, bool)>;

/// The headers of the blocks that have a `Layout only:` line.
fn layout_only(report: &str) -> Vec<&str> {
    let mut header = "";
    let mut found = Vec::new();
    for line in report.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            header = line;
        } else if line.trim_start().starts_with("Layout only:") {
            found.push(header);
        }
    }
    found
}

/// `cargo bench` of the package, measured afresh in `home`.
fn measure(
    root: &Path,
    home: &Path,
    baseline: &str,
    renamed: &[(&str, &str)],
) -> (Measured, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["bench", "-q", "--bench", "edits", "--"])
        .arg(format!("--home={}", home.display()))
        .args(["--fresh", baseline])
        .current_dir(root)
        // Kept between test runs: the dependencies are built once.
        .env("CARGO_TARGET_DIR", target_dir().join("edits-test"))
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .expect("cargo starts");
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let layout = layout_only(&report);
    let mut seen: Vec<String> = Vec::new();
    let measured = blocks(&report)
        .into_iter()
        .map(|b| {
            let path = b.header.split_whitespace().next().unwrap();
            let function = path.rsplit("::").next().unwrap();
            let function = (renamed.iter())
                .find(|(new, _)| *new == function)
                .map_or(function, |(_, old)| old)
                .to_owned();
            let n = seen.iter().filter(|f| **f == function).count();
            seen.push(function.clone());
            let metrics = b.metrics.iter().map(|m| (m.0.clone(), m.1)).collect();
            let only = layout.contains(&b.header.as_str());
            ((function, n), b.header, metrics, only)
        })
        .collect();
    (measured, report)
}

/// The metrics that count what was executed, whatever its addresses.
const EXECUTED: [&str; 2] = ["Instructions", "Total read+write"];

#[test]
fn no_benchmark_counts_otherwise_when_another_is_added_renamed_or_given_longer_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let mut base: Option<Measured> = None;
    let mut wrong = Vec::new();
    let mut moved = Vec::new();
    for Edit {
        name: edit,
        bench,
        renamed,
        changed,
    } in edits()
    {
        let root = package(dir.path(), &bench);
        let baseline = match base {
            None => "--save-baseline=base",
            Some(_) => "--baseline=base",
        };
        let (measured, report) = measure(&root, &home, baseline, &renamed);
        let Some(base) = &base else {
            assert_eq!(measured.len(), 9, "{report}");
            assert!(EXECUTED
                .iter()
                .all(|m| measured[0].2.iter().any(|(l, _)| l == m)));
            base = Some(measured);
            continue;
        };
        for (key, header, before, _) in base {
            if changed.contains(&key.0.as_str()) {
                continue;
            }
            let after = measured.iter().find(|(k, ..)| k == key);
            let (_, new_header, after, layout_only) =
                after.unwrap_or_else(|| panic!("{edit}: no {key:?} in\n{report}"));
            assert_eq!(before.len(), after.len(), "{edit}: {new_header}\n{report}");
            let mut differs = false;
            for ((label, old), (_, new)) in before.iter().zip(after) {
                if old == new {
                    continue;
                }
                differs = true;
                let line = format!("{edit}: {header} -> {new_header}: {label} {old} -> {new}");
                if EXECUTED.contains(&label.as_str()) {
                    wrong.push(line);
                } else {
                    moved.push(line);
                }
            }
            if differs && !layout_only {
                wrong.push(format!(
                    "{edit}: {new_header} moved and is not reported as layout only:\n{report}"
                ));
            }
        }
    }
    // For the record: what the addresses moved.
    eprintln!("moved with the layout:\n{}", moved.join("\n"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
