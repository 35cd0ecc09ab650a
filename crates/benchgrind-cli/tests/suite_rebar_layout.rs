//! A suite laid out as rebar's own repository is: `benchmarks/` holding `engines.toml` whose
//! `cwd`s are relative to it (`../engines/...`), the engines' programs in a sibling `engines/`,
//! in two languages (the example suite's Python and C runners). It builds, verifies and
//! measures from the directory above with the default `-d`, from `benchmarks/` with `-d .` and
//! from elsewhere with `-d path/to/benchmarks`. Only the benchmarks the filters select are
//! loaded: a missing haystack elsewhere does not fail the run.

#[path = "suite/common.rs"]
mod common;

use common::*;
use std::path::Path;

const ENGINES_TOML: &str = r#"[[engine]]
  name = "python/find"
  cwd = "../engines/python"
  [engine.version]
    bin = "python3"
    args = ["main.py", "--version"]
  [engine.run]
    bin = "python3"
    args = ["main.py", "python/find"]
  [[engine.dependency]]
    bin = "python3"
    args = ["--version"]
    regex = '(?m)^Python 3\.'

[[engine]]
  name = "c/memmem"
  cwd = "../engines/c"
  [engine.version]
    bin = "./build/runner"
    args = ["--version"]
  [engine.run]
    bin = "./build/runner"
    args = ["c/memmem"]
  [[engine.build]]
    bin = "mkdir"
    args = ["-p", "build"]
  [[engine.build]]
    bin = "cc"
    args = ["-O2", "-o", "build/runner", "main.c"]
  [[engine.clean]]
    bin = "rm"
    args = ["-rf", "build"]
"#;

const DEFINITIONS: &str = r#"[[bench]]
model = "iter"
name = "sherlock-holmes"
regex = "Sherlock Holmes"
haystack = { path = "sherlock.txt" }
count = 1046
engines = ["c/memmem", "python/find"]
"#;

/// A benchmark whose haystack is missing, and one with a name rebar rejects.
const BROKEN: &str = r#"[[bench]]
model = "iter"
name = "gone"
regex = "x"
haystack = { path = "missing.txt" }
count = 0
engines = ["python/find"]

[[bench]]
model = "iter"
name = "bad_name"
regex = "x"
haystack = "x"
count = 1
engines = ["python/find"]
"#;

/// Lays out `root/benchmarks` and `root/engines/{python,c}`.
fn rebar_tree(root: &Path) {
    let bench = root.join("benchmarks");
    for d in ["definitions", "haystacks"] {
        std::fs::create_dir_all(bench.join(d)).unwrap();
    }
    for (from, to) in [("runner-py/main.py", "python"), ("runner-c/main.c", "c")] {
        let dir = root.join("engines").join(to);
        std::fs::create_dir_all(&dir).unwrap();
        let src = example_suite().join(from);
        std::fs::copy(&src, dir.join(src.file_name().unwrap())).unwrap();
    }
    std::fs::copy(
        example_suite().join("benchmarks/haystacks/sherlock.txt"),
        bench.join("haystacks/sherlock.txt"),
    )
    .unwrap();
    std::fs::write(bench.join("engines.toml"), ENGINES_TOML).unwrap();
    std::fs::write(bench.join("definitions/memmem.toml"), DEFINITIONS).unwrap();
}

const TESTED: &str = "memmem/sherlock-holmes,iter,c/memmem,0.1.0,OK\n\
                      memmem/sherlock-holmes,iter,python/find,0.1.0,OK\n";

/// `measure -t` and `list` (with `dir_args`, run in `cwd`) pass, without notes.
fn verify(cwd: &Path, dir_args: &[&str]) {
    let o = output(benchgrind(cwd).args(["measure", "-t"]).args(dir_args));
    assert_code(&o, 0);
    assert_eq!(stdout(&o), TESTED);
    assert_eq!(stderr(&o), "");
    let o = output(benchgrind(cwd).arg("list").args(dir_args));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "memmem/sherlock-holmes,iter,c/memmem,0.1.0\nmemmem/sherlock-holmes,iter,python/find,0.1.0\n"
    );
}

#[test]
fn rebar_layout_builds_verifies_and_measures_from_above_and_from_benchmarks() {
    let tmp = Scratch::new("rebar-layout");
    let root = tmp.0.join("rebar");
    rebar_tree(&root);

    // From the directory above, with the default -d benchmarks, as rebar's docs run it.
    let o = output(benchgrind(&root).arg("build"));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "python/find: build complete for version 0.1.0\n\
         c/memmem: running: cd \"benchmarks/../engines/c\" && \"mkdir\" \"-p\" \"build\"\n\
         c/memmem: running: cd \"benchmarks/../engines/c\" && \"cc\" \"-O2\" \"-o\" \"build/runner\" \"main.c\"\n\
         c/memmem: build complete for version 0.1.0\n"
    );
    assert_eq!(stderr(&o), "");
    assert!(root.join("engines/c/build/runner").is_file());
    verify(&root, &[]);
    let o = output(benchgrind(&root).args([
        "measure",
        "--max-time",
        "50ms",
        "--max-warmup-time",
        "10ms",
    ]));
    assert_code(&o, 0);
    let csv = stdout(&o);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for (row, engine) in rows.iter().zip(["c/memmem", "python/find"]) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!((f[3], f[5]), (engine, ""), "{row}");
        assert!(f[7].parse::<u64>().unwrap() > 0, "{row}");
    }

    // From benchmarks/ with -d ., after cleaning and building again from there.
    let bench = root.join("benchmarks");
    let o = output(benchgrind(&bench).args(["clean", "-d", "."]));
    assert_code(&o, 0);
    assert!(!root.join("engines/c/build").exists(), "{}", stdout(&o));
    let o = output(benchgrind(&bench).args(["build", "-d", "."]));
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("c/memmem: running: cd \"./../engines/c\" && \"cc\""),
        "{}",
        stdout(&o)
    );
    verify(&bench, &["-d", "."]);

    // From anywhere else, naming the suite directory.
    verify(&tmp.0, &["-d", "rebar/benchmarks"]);
}

#[test]
fn a_missing_haystack_of_a_benchmark_left_out_does_not_fail_the_run() {
    let tmp = Scratch::new("rebar-unselected");
    let root = tmp.0.join("rebar");
    rebar_tree(&root);
    std::fs::write(root.join("benchmarks/definitions/broken.toml"), BROKEN).unwrap();
    assert_code(&output(benchgrind(&root).arg("build")), 0);

    let only = ["-f", "^memmem/"];
    for args in [&["measure", "-t"][..], &["measure", "--list"], &["list"]] {
        let o = output(benchgrind(&root).args(args).args(only));
        assert_code(&o, 0);
        let err = stderr(&o);
        assert!(
            !err.contains("missing.txt") && !err.contains("error"),
            "{args:?}: {err}"
        );
        // The bad name is noticed, as a note.
        assert!(
            err.contains("broken.toml:11: benchmark name 'bad_name' must match")
                && err.contains("(not selected, so not loaded)")
                && err.starts_with("benchgrind suite: benchmarks/definitions/broken.toml:11: "),
            "{args:?}: {err}"
        );
    }
    let o = output(benchgrind(&root).args(["measure", "-t"]).args(only));
    assert_eq!(stdout(&o), TESTED);
    let o = output(
        benchgrind(&root)
            .args(["measure", "--max-time", "20ms"])
            .args(only),
    );
    assert_code(&o, 0);
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    // The engine filter selects too: no benchmark of broken.toml has c/memmem.
    let o = output(benchgrind(&root).args(["measure", "-t", "-e", "^c/"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "memmem/sherlock-holmes,iter,c/memmem,0.1.0,OK\n"
    );
    // klv reads only the benchmark asked for.
    let o = output(benchgrind(&root).args(["klv", "memmem/sherlock-holmes"]));
    assert_code(&o, 0);

    // Selected, the same benchmarks are errors, naming the file and line.
    let o = output(benchgrind(&root).args(["measure", "-t"]));
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("benchmarks/definitions/broken.toml:5: benchmark 'broken/gone': `haystack`:")
            && err.contains("missing.txt")
            && err.contains("broken.toml:11: benchmark name 'bad_name' must match"),
        "{err}"
    );
    assert_eq!(stdout(&o), TESTED);

    // TOML that does not parse is a problem wherever it is.
    std::fs::write(
        root.join("benchmarks/definitions/broken.toml"),
        "[[bench]]\nmodel = \n",
    )
    .unwrap();
    let o = output(benchgrind(&root).args(["measure", "-t"]).args(only));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("benchmarks/definitions/broken.toml:2: invalid TOML"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ignore_missing_engines_leaves_out_an_engine_not_built() {
    let tmp = Scratch::new("rebar-ignore-missing");
    let root = tmp.0.join("rebar");
    rebar_tree(&root);
    // c/memmem is not built: its version program does not exist.
    let o = output(benchgrind(&root).args(["measure", "-t"]));
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("memmem/sherlock-holmes,iter,c/memmem,ERROR,"),
        "{}",
        stdout(&o)
    );
    for flag in ["-i", "--ignore-missing-engines"] {
        let o = output(benchgrind(&root).args(["measure", "-t", flag]));
        assert_code(&o, 0);
        assert_eq!(
            stdout(&o),
            "memmem/sherlock-holmes,iter,python/find,0.1.0,OK\n"
        );
        assert_eq!(stderr(&o), "");
        let o = output(benchgrind(&root).args(["list", flag]));
        assert_code(&o, 0);
        assert_eq!(
            stdout(&o),
            "memmem/sherlock-holmes,iter,python/find,0.1.0\n"
        );
    }
}
