//! Runners in other languages: the example suite's Python and C runners (both reading KLV from
//! stdin, the C one compiled by `suite build` with `cc`) pass `measure -t` in the same suite, and
//! `measure --metric instructions` under real Valgrind gives identical numbers on two runs.

#[path = "suite/common.rs"]
mod common;

use common::*;

#[test]
fn python_and_c_runners_pass_the_test_in_one_suite() {
    let tmp = Scratch::new("langs");
    copy_tree(&example_suite(), &tmp.0);
    let engines = ["-e", "^(c/memmem|python/find)$"];
    let o = output(benchgrind(&tmp.0).arg("build").args(engines));
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("c/memmem: running: cd \"benchmarks/../runner-c\" && \"cc\" \"-O2\" \"-Wall\" \"-o\" \"build/runner\" \"main.c\"\n"), "{out}");
    assert!(
        out.contains("c/memmem: build complete for version 0.1.0\n")
            && out.contains("python/find: build complete for version 0.1.0\n"),
        "{out}"
    );

    let o = output(benchgrind(&tmp.0).args(["measure", "-t"]).args(engines));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "memmem/sherlock-holmes,iter,c/memmem,0.1.0,OK\nmemmem/sherlock-holmes,iter,python/find,0.1.0,OK\n\
memmem/very-common,iter,c/memmem,0.1.0,OK\nmemmem/very-common,iter,python/find,0.1.0,OK\n"
    );

    // Full-precision CSV round-trips through cmp and report.
    let o = output(
        benchgrind(&tmp.0)
            .args([
                "measure",
                "--max-time",
                "50ms",
                "--max-warmup-time",
                "10ms",
                "--format",
                "csv",
                "-o",
                "r.csv",
            ])
            .args(engines),
    );
    assert_code(&o, 0);
    let csv = std::fs::read_to_string(tmp.0.join("r.csv")).unwrap();
    assert!(csv.starts_with("name,model,rebar_version,engine,engine_version,err,haystack_len,iters,total,median,mad,mean,stddev,min,max,metric\n"), "{csv}");
    assert_eq!(
        csv.lines().filter(|l| l.ends_with(",time")).count(),
        4,
        "{csv}"
    );
    let o = output(benchgrind(&tmp.0).args(["cmp", "r.csv"]));
    assert_code(&o, 0);
    assert!(
        stdout(&o).starts_with("benchmark               c/memmem"),
        "{}",
        stdout(&o)
    );
    let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]));
    assert_code(&o, 0);
    let md = stdout(&o);
    assert!(
        md.contains("## memmem\n\nCounting every occurrence")
            && md.contains(
                "| Engine | sherlock-holmes | very-common |\n| - | - | - |\n| c/memmem | "
            )
            && md.contains("\n| python/find | "),
        "{md}"
    );
}

fn instruction_rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn instruction_counts_are_identical_on_two_runs() {
    let tmp = Scratch::new("instr");
    copy_tree(&example_suite(), &tmp.0);
    let engine = ["-e", "^c/memmem$"];
    assert_code(&output(benchgrind(&tmp.0).arg("build").args(engine)), 0);
    let mut runs = vec![];
    for name in ["a.csv", "b.csv"] {
        let o = output(
            benchgrind(&tmp.0)
                .args(["measure", "--metric", "instructions", "-o", name])
                .args(engine),
        );
        assert_code(&o, 0);
        runs.push(std::fs::read_to_string(tmp.0.join(name)).unwrap());
    }
    assert_eq!(runs[0], runs[1], "two runs differ");
    let rows = instruction_rows(&runs[0]);
    assert_eq!(rows.len(), 2);
    // Columns: ... 7 iters, 8 total, 9 median ... 15 metric.
    for r in &rows {
        assert_eq!(
            (r[3].as_str(), r[5].as_str(), r[7].as_str(), r[15].as_str()),
            ("c/memmem", "", "1", "instructions"),
            "{r:?}"
        );
        let (total, median): (u64, u64) = (r[8].parse().unwrap(), r[9].parse().unwrap());
        assert!(median > 0 && total > median, "{r:?}");
    }
    // 5414 matches of "he" take more memmem calls than 1046 of "Sherlock Holmes".
    assert!(
        rows[1][9].parse::<u64>().unwrap() > rows[0][9].parse::<u64>().unwrap(),
        "{rows:?}"
    );
    println!("instructions, run 1:\n{}run 2:\n{}", runs[0], runs[1]);

    let o = output(benchgrind(&tmp.0).args(["diff", "a.csv", "b.csv", "--fail-above", "1.0"]));
    assert_code(&o, 0);
    assert_eq!(stdout(&o).matches("(1.00x)").count(), 4, "{}", stdout(&o));

    // A regression made by hand (the very-common median doubled) trips --fail-above.
    let mut fields = rows[1].clone();
    fields[9] = (fields[9].parse::<u64>().unwrap() * 2).to_string();
    let slower = runs[0].replace(&rows[1].join(","), &fields.join(","));
    std::fs::write(tmp.0.join("c.csv"), slower).unwrap();
    let o = output(benchgrind(&tmp.0).args(["diff", "a.csv", "c.csv", "--fail-above", "1.5"]));
    assert_code(&o, 3);
    assert!(
        stderr(&o).contains(
            "memmem/very-common c/memmem: 2.00x from a.csv to c.csv, above --fail-above 1.5"
        ),
        "{}",
        stderr(&o)
    );
}

/// The directory of the system's Python (Debian's `/usr/bin/python3`), first on `PATH`: a pyenv
/// shim is a bash script whose waiting for its children moves counts by a few hundred
/// instructions (examples/suite/README.md).
fn system_python_path() -> std::ffi::OsString {
    assert!(
        std::path::Path::new("/usr/bin/python3").exists(),
        "/usr/bin/python3 is missing: install Debian's python3 (`.ci/deps --tests` does)"
    );
    let mut path = std::ffi::OsString::from("/usr/bin:");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    path
}

/// The example's Python engine runs `python3 main.py` itself, no shell: with the system's
/// interpreter first on `PATH` its runner is one process, which counts the same on every run
/// whatever the machine (this one has the kernel's memory monitor DAMON on, where runners of
/// several processes may move: [`a_runner_of_several_processes_is_named_where_its_count_may_move`]).
/// Issue 53 saw steps of 120 with `python3` found as pyenv's shim, a bash script.
#[test]
fn a_python_engine_counts_the_same_instructions_on_five_runs() {
    let tmp = Scratch::new("python-instr");
    copy_tree(&example_suite(), &tmp.0);
    let engine = ["-e", "^python/find$"];
    let path = system_python_path();
    let runs: Vec<String> = (0..5)
        .map(|i| {
            let name = format!("run{i}.csv");
            let o = output(
                benchgrind(&tmp.0)
                    .env("PATH", &path)
                    .args(["measure", "--metric", "instructions", "-o", &name])
                    .args(engine),
            );
            assert_code(&o, 0);
            // One process: nothing to warn about (a wrapper script on `PATH` would be named).
            assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
            std::fs::read_to_string(tmp.0.join(name)).unwrap()
        })
        .collect();
    for (i, run) in runs.iter().enumerate() {
        println!("run {}:\n{run}", i + 1);
    }
    for run in &runs[1..] {
        assert_eq!(run, &runs[0], "a run differs");
    }
    let rows = instruction_rows(&runs[0]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows
        .iter()
        .all(|r| r[3] == "python/find" && r[9].parse::<u64>().unwrap() > 0));
}

/// A runner behind a wrapper script (here `sh` starting the C runner, as pyenv's shim starts
/// Python) is several processes: where their turns are not promised to repeat (DAMON on, or no
/// real-time scheduling) `measure --metric instructions` says so, naming the script and the
/// program that counted most, with what its runs counted; elsewhere it says nothing.
#[test]
fn a_runner_of_several_processes_is_named_where_its_count_may_move() {
    use benchgrind_runner::execute::{machine, realtime};
    let tmp = Scratch::new("several");
    copy_tree(&example_suite(), &tmp.0);
    let engines = tmp.0.join("benchmarks/engines.toml");
    let mut toml = std::fs::read_to_string(&engines).unwrap();
    toml.push_str(
        "\n[[engine]]\n  name = \"c/memmem/wrapped\"\n  cwd = \"runner-c\"\n  \
         [engine.version]\n    bin = \"./build/runner\"\n    args = [\"--version\"]\n  \
         [engine.run]\n    bin = \"./wrapped\"\n    args = [\"c/memmem\"]\n",
    );
    std::fs::write(&engines, toml).unwrap();
    let defs = tmp.0.join("benchmarks/definitions/memmem.toml");
    let text = std::fs::read_to_string(&defs).unwrap();
    std::fs::write(
        &defs,
        text.replace(
            "  \"c/memmem\",\n",
            "  \"c/memmem\",\n  \"c/memmem/wrapped\",\n",
        ),
    )
    .unwrap();
    // No `exec`: the shell waits for the runner.
    let script = tmp.0.join("runner-c/wrapped");
    std::fs::write(&script, "#!/bin/sh\n./build/runner \"$@\"\n").unwrap();
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    assert_code(
        &output(benchgrind(&tmp.0).args(["build", "-e", "^c/memmem$"])),
        0,
    );

    let o = output(benchgrind(&tmp.0).args([
        "measure",
        "--metric",
        "instructions",
        "-f",
        "sherlock",
        "-e",
        "^c/memmem/wrapped$",
        "-o",
        "w.csv",
    ]));
    assert_code(&o, 0);
    let err = stderr(&o);
    println!("{err}");
    let moves = machine::damon_on() || !realtime::available();
    if !moves {
        assert!(!err.contains("warning"), "{err}");
        return;
    }
    assert!(
        err.contains(
            "warning: memmem/sherlock-holmes c/memmem/wrapped: its runner ran as 2 processes under Callgrind"
        ) && err.contains("`./wrapped` is ")
            && err.contains("a script (`#!/bin/sh`)")
            && err.contains("  counted ")
            && err.contains("most of them in one process: `./build/runner c/memmem` (")
            && err.contains("point the engine's `bin` at the program itself (`./build/runner`)"),
        "{err}"
    );
    assert_eq!(
        err.contains(
            "turn DAMON off: `echo off | sudo tee /sys/kernel/mm/damon/admin/kdamonds/*/state`"
        ),
        machine::damon_on(),
        "{err}"
    );
}
