//! Counts that move with code they do not run (issue 35): a bench file built in several
//! code-generation units says so once, with the two lines that make it one; built in one, it
//! says nothing, and adding a benchmark to its twenty moves no other count.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{blocks, target_dir};

/// A bench file of `n` benchmarks, each a different amount of work on a shared helper.
fn bench_file(n: u32) -> String {
    let mut text = String::from(
        "use std::hint::black_box;\n\nuse benchgrind::{library_benchmark, \
         library_benchmark_group, main};\n\n\
         fn mix(n: u64, k: u64) -> u64 {\n    \
         (0..n).fold(k, |acc, x| acc.rotate_left(5) ^ x.wrapping_mul(0x9e37_79b9) ^ k)\n}\n",
    );
    let names: Vec<String> = (0..n).map(|i| format!("b{i:02}")).collect();
    for (i, name) in names.iter().enumerate() {
        text.push_str(&format!(
            "\n#[library_benchmark]\nfn {name}() -> u64 {{\n    mix(black_box({}), {i})\n}}\n",
            100 + 10 * i
        ));
    }
    text.push_str(&format!(
        "\nlibrary_benchmark_group!(name = all; benchmarks = {});\n\
         main!(library_benchmark_groups = all);\n",
        names.join(", ")
    ));
    text
}

/// A package with that bench file, built in `units` units (cargo's default when `None`).
fn package(dir: &Path, units: Option<u32>, benchmarks: u32) -> PathBuf {
    let root = dir.join("app");
    std::fs::create_dir_all(root.join("benches")).unwrap();
    let benchgrind = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchgrind");
    let units = units.map_or(String::new(), |n| format!("codegen-units = {n}\n"));
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"units-app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dev-dependencies]\nbenchgrind = {{ path = {:?} }}\n\n\
             [[bench]]\nname = \"work\"\nharness = false\n\n\
             [profile.bench]\ndebug = \"line-tables-only\"\n{units}\n[workspace]\n",
            benchgrind.canonicalize().unwrap()
        ),
    )
    .unwrap();
    std::fs::write(root.join("benches/work.rs"), bench_file(benchmarks)).unwrap();
    root
}

fn bench(root: &Path, home: &Path) -> Output {
    bench_with(root, home, &[])
}

fn bench_with(root: &Path, home: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["bench", "-q", "--bench", "work", "--"])
        .arg(format!("--home={}", home.display()))
        .args(args)
        .current_dir(root)
        // Kept between test runs: the dependencies are built once. Not shared with other
        // tests: a build in other units rebuilds the dependencies in place, under their feet.
        .env("CARGO_TARGET_DIR", target_dir().join("units-test"))
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .expect("cargo starts");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn counts(output: &Output) -> Vec<(String, u64)> {
    blocks(&String::from_utf8_lossy(&output.stdout))
        .into_iter()
        .map(|b| (b.header.clone(), b.get("Instructions")))
        .collect()
}

#[test]
fn several_units_get_the_note_and_one_unit_keeps_counts_when_a_benchmark_is_added() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");

    let root = package(dir.path(), None, 20);
    let stderr = String::from_utf8_lossy(&bench(&root, &home).stderr).into_owned();
    assert_eq!(
        stderr.matches("code-generation units").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("[profile.bench]\n    codegen-units = 1"),
        "{stderr}"
    );
    // Once per build: not on the next run, whose results are all reused, nor when the same
    // build measures again.
    for args in [&[][..], &["--fresh"]] {
        let again = bench_with(&root, &home, args);
        let stderr = String::from_utf8_lossy(&again.stderr).into_owned();
        assert!(
            !stderr.contains("code-generation units"),
            "{args:?}: {stderr}"
        );
    }

    let root = package(dir.path(), Some(1), 20);
    let twenty = bench(&root, &home);
    let stderr = String::from_utf8_lossy(&twenty.stderr).into_owned();
    assert!(!stderr.contains("code-generation units"), "{stderr}");
    let before = counts(&twenty);
    assert_eq!(before.len(), 20);

    // One more benchmark: the twenty count what they counted.
    let root = package(dir.path(), Some(1), 21);
    let after = counts(&bench(&root, &home));
    assert_eq!(after.len(), 21);
    for (header, count) in &before {
        let now = after.iter().find(|(h, _)| h == header).unwrap().1;
        assert_eq!(now, *count, "{header}");
    }
}
