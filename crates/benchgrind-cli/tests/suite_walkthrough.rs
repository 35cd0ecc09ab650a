//! The memmem walkthrough of rebar's "bring your own benchmarks" guide
//! (`shared/seeds/004_*.txt`), step by step with `rebar` replaced by `benchgrind suite`: the
//! definition, `klv`, a runner written from the guide (examples/suite/runner, built with cargo),
//! `engines.toml`, `build`, `measure -t`, `measure` and `cmp`, checking the guide's formats.
//! Also: `cmp` on the guide's own rebar CSV prints the guide's table exactly.

#[path = "suite/common.rs"]
mod common;

use common::*;
use std::path::Path;

const DEFINITION: &str = r#"[[bench]]
model = "iter"
name = "sherlock-holmes"
regex = "Sherlock Holmes"
haystack = { path = "sherlock.txt" }
count = 1046
engines = ENGINES
"#;

const ENGINES_TOML: &str = r#"[[engine]]
  name = "rust/memmem"
  cwd = "runner"
  [engine.version]
    bin = "./target/release/runner"
    args = ["--version"]
  [engine.run]
    bin = "./target/release/runner"
    args = ["rust/memmem"]
  [[engine.build]]
    bin = "cargo"
    args = ["build", "--release"]
  [[engine.clean]]
    bin = "cargo"
    args = ["clean"]

[[engine]]
  name = "libc/memmem"
  cwd = "runner"
  [engine.version]
    bin = "./target/release/runner"
    args = ["--version"]
  [engine.run]
    bin = "./target/release/runner"
    args = ["libc/memmem"]
  [[engine.build]]
    bin = "cargo"
    args = ["build", "--release"]
  [[engine.clean]]
    bin = "cargo"
    args = ["clean"]
"#;

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn memmem_walkthrough_as_in_the_guide() {
    let tmp = Scratch::new("byob");
    let byob = tmp.0.join("byob");
    for d in ["benchmarks/definitions", "benchmarks/haystacks", "runner"] {
        std::fs::create_dir_all(byob.join(d)).unwrap();
    }
    for f in ["main.rs", "Cargo.toml"] {
        std::fs::copy(
            example_suite().join("runner").join(f),
            byob.join("runner").join(f),
        )
        .unwrap();
    }
    let hay_path = byob.join("benchmarks/haystacks/sherlock.txt");
    std::fs::copy(
        example_suite().join("benchmarks/haystacks/sherlock.txt"),
        &hay_path,
    )
    .unwrap();
    let haystack = std::fs::read(&hay_path).unwrap();
    write(&byob.join("benchmarks/engines.toml"), "");
    let def_path = byob.join("benchmarks/definitions/memmem.toml");
    write(&def_path, &DEFINITION.replace("ENGINES", "[]"));

    // `klv`: byte for byte the guide's format, all limits 0 by default.
    let o = output(benchgrind(&byob).args(["klv", "memmem/sherlock-holmes"]));
    assert_code(&o, 0);
    let mut want = b"name:22:memmem/sherlock-holmes\nmodel:4:iter\ncase-insensitive:5:false\nunicode:5:false\n\
max-iters:1:0\nmax-warmup-iters:1:0\nmax-time:1:0\nmax-warmup-time:1:0\npattern:15:Sherlock Holmes\n"
        .to_vec();
    want.extend_from_slice(format!("haystack:{}:", haystack.len()).as_bytes());
    want.extend_from_slice(&haystack);
    want.push(b'\n');
    assert!(
        o.stdout == want,
        "klv output differs from the guide's format"
    );

    // The runner, built as the guide does, prints nothing with zero limits...
    let o = output(
        std::process::Command::new("cargo")
            .current_dir(&byob)
            .env_remove("CARGO_TARGET_DIR")
            .args(["build", "--release", "--manifest-path", "runner/Cargo.toml"]),
    );
    assert_code(&o, 0);
    let runner = byob.join("runner/target/release/runner");
    let klv0 = output(benchgrind(&byob).args(["klv", "memmem/sherlock-holmes"])).stdout;
    let o = output_with_input(
        std::process::Command::new(&runner).arg("rust/memmem"),
        &klv0,
    );
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "");
    // ...and ten `nanos,count` samples with --max-iters 10 --max-time 3s.
    let o = output(benchgrind(&byob).args([
        "klv",
        "memmem/sherlock-holmes",
        "--max-iters",
        "10",
        "--max-time",
        "3s",
    ]));
    assert!(o.stdout.starts_with(b"name:22:memmem/sherlock-holmes\nmodel:4:iter\ncase-insensitive:5:false\nunicode:5:false\nmax-iters:2:10\nmax-warmup-iters:1:0\nmax-time:10:3000000000\nmax-warmup-time:1:0\n"));
    for engine in ["rust/memmem", "libc/memmem"] {
        let r = output_with_input(std::process::Command::new(&runner).arg(engine), &o.stdout);
        assert_code(&r, 0);
        let lines: Vec<String> = stdout(&r).lines().map(String::from).collect();
        assert_eq!(lines.len(), 10, "{engine}: {lines:?}");
        for l in &lines {
            let (nanos, count) = l.split_once(',').unwrap();
            assert!(
                nanos.parse::<u64>().is_ok() && count == "1046",
                "{engine}: {l}"
            );
        }
    }

    // Engines defined: build, then test, then measure, then compare.
    write(&byob.join("benchmarks/engines.toml"), ENGINES_TOML);
    write(
        &def_path,
        &DEFINITION.replace("ENGINES", r#"["libc/memmem", "rust/memmem"]"#),
    );
    let o = output(benchgrind(&byob).arg("build"));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "rust/memmem: running: cd \"runner\" && \"cargo\" \"build\" \"--release\"\n\
         rust/memmem: build complete for version 0.1.0\n\
         libc/memmem: running: cd \"runner\" && \"cargo\" \"build\" \"--release\"\n\
         libc/memmem: build complete for version 0.1.0\n"
    );
    // rebar looks for `cwd` in the suite directory; the guide's `runner` is beside it, so it
    // is taken from the current directory, with a note saying so.
    assert_eq!(
        stderr(&o),
        "benchgrind suite: benchmarks/engines.toml: cwd \"runner\" (engine rust/memmem, libc/memmem): \
         using runner, relative to the current directory, since benchmarks/runner (relative to the \
         suite directory, as rebar takes it) does not exist; `cwd = \"../runner\"` works with rebar too\n"
    );
    let o = output(benchgrind(&byob).args(["measure", "-t"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "memmem/sherlock-holmes,iter,libc/memmem,0.1.0,OK\nmemmem/sherlock-holmes,iter,rust/memmem,0.1.0,OK\n"
    );

    // The guide runs with the default 3s budget; a shorter one keeps the test quick.
    let o = output(benchgrind(&byob).args([
        "measure",
        "--max-time",
        "300ms",
        "--max-warmup-time",
        "100ms",
    ]));
    assert_code(&o, 0);
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "name,model,rebar_version,engine,engine_version,err,haystack_len,iters,total,median,mad,mean,stddev,min,max");
    assert_eq!(lines.len(), 3, "{csv}");
    for (line, engine) in lines[1..].iter().zip(["libc/memmem", "rust/memmem"]) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 15, "{line}");
        assert_eq!(&f[..2], ["memmem/sherlock-holmes", "iter"]);
        assert!(f[2].contains("benchgrind"), "{line}");
        assert_eq!(
            (f[3], f[4], f[5], f[6]),
            (engine, "0.1.0", "", haystack.len().to_string().as_str())
        );
        assert!(f[7].parse::<u64>().unwrap() > 0, "{line}");
        for d in &f[8..] {
            let unit = ["ns", "us", "ms", "s"]
                .iter()
                .find(|u| d.ends_with(*u))
                .unwrap_or_else(|| panic!("{d}"));
            let num = &d[..d.len() - unit.len()];
            assert!(
                num.parse::<f64>().is_ok() && num.split('.').nth(1).map(str::len) == Some(2),
                "{d} in {line}"
            );
        }
    }
    let results = byob.join("results.csv");
    write(&results, &csv);
    let o = output(benchgrind(&byob).args(["cmp", "results.csv"]));
    assert_code(&o, 0);
    let table = stdout(&o);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 3, "{table}");
    // Column 2 starts two spaces after the longest first-column cell, as in the guide.
    let col2 = "memmem/sherlock-holmes".len() + 2;
    assert_eq!(&rows[0][..col2], format!("{:<24}", "benchmark"));
    assert!(
        rows[0][col2..].starts_with("libc/memmem ") && rows[0].ends_with("rust/memmem"),
        "{table}"
    );
    assert!(
        rows[1].starts_with("---------")
            && rows[1][col2..].starts_with("----------- ")
            && rows[1].ends_with(" -----------")
    );
    assert!(rows[2].starts_with("memmem/sherlock-holmes  "));
    let cells: Vec<&str> = rows[2][col2..]
        .split("  ")
        .filter(|c| !c.is_empty())
        .map(str::trim)
        .collect();
    assert_eq!(cells.len(), 2, "{table}");
    for c in &cells {
        let (tput, ratio) = c.split_once(" (").unwrap();
        assert!(
            tput.ends_with(" GB/s") || tput.ends_with(" MB/s") || tput.ends_with(" KB/s"),
            "{c}"
        );
        assert!(
            ratio.ends_with("x)") && ratio.trim_end_matches("x)").parse::<f64>().unwrap() >= 1.0,
            "{c}"
        );
    }
    assert!(cells.iter().any(|c| c.ends_with("(1.00x)")), "{table}");
}

#[test]
fn cmp_reads_rebar_csv_and_prints_the_guides_table() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/rebar-results");
    let o = output(benchgrind(&dir).args(["cmp", "guide.csv"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "\
benchmark               libc/memmem          musl/memmem          rust/memmem        rust/memmem/restricted
---------               -----------          -----------          -----------        ----------------------
memmem/sherlock-holmes  9.6 GB/s (4.19x)     2.3 GB/s (17.33x)    40.2 GB/s (1.00x)  35.4 GB/s (1.14x)
memmem/very-common      1674.4 MB/s (2.24x)  1348.7 MB/s (2.78x)  3.7 GB/s (1.00x)   2.1 GB/s (1.70x)
"
    );
    // -t keeps rows with a non-best ratio of at least 10 (only sherlock-holmes has 17.33x).
    let o = output(benchgrind(&dir).args([
        "cmp",
        "guide.csv",
        "-t",
        "10",
        "-u",
        "time",
        "-e",
        "memmem$",
    ]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "\
benchmark               libc/memmem      musl/memmem        rust/memmem
---------               -----------      -----------        -----------
memmem/sherlock-holmes  58.94us (4.19x)  243.65us (17.33x)  14.06us (1.00x)
"
    );
    let o = output(benchgrind(&dir).args(["cmp", "guide.csv", "--fail-above", "3"]));
    assert_code(&o, 3);
    let err = stderr(&o);
    assert!(
        err.contains("2 result(s) fail the --fail-above check"),
        "{err}"
    );
    assert!(
        err.contains("memmem/sherlock-holmes musl/memmem: 17.33x the best (rust/memmem)"),
        "{err}"
    );
    assert!(!err.contains("restricted"), "{err}");
    let o = output(benchgrind(&dir).args(["cmp", "guide.csv", "--fail-above", "20"]));
    assert_code(&o, 0);

    let o = output(benchgrind(&dir).args(["rank", "guide.csv"]));
    assert_code(&o, 0);
    let rank = stdout(&o);
    let first = rank.lines().nth(2).unwrap();
    assert!(
        first.starts_with("rust/memmem ") && first.contains(" 1.00 ") && first.ends_with(" 2"),
        "{rank}"
    );
    assert!(
        rank.lines().last().unwrap().starts_with("musl/memmem "),
        "{rank}"
    );
}
