//! The comparison commands and flags as rebar's CLI has them, on result files written here
//! (nothing is measured): the order of rows, the thresholds, the cells, the help pages and the
//! commands and flags rebar has beside `measure`.

#[path = "suite/common.rs"]
mod common;

use common::*;
use std::path::Path;

#[path = "suite_rebar_cli/report.rs"]
mod report;

/// rebar's CSV header.
const HEADER: &str =
    "name,model,rebar_version,engine,engine_version,err,haystack_len,iters,total,median,mad,mean,stddev,min,max\n";

/// One rebar CSV row whose every statistic is `median` (so `mad` and `stddev` are `0.00ns`
/// when they are not given apart), with a haystack of `len` bytes (none when 0).
fn row(name: &str, model: &str, engine: &str, version: &str, median: &str, len: u64) -> String {
    let len = if len == 0 {
        String::new()
    } else {
        len.to_string()
    };
    format!(
        "{name},{model},0.0.1,{engine},{version},,{len},10,1.00s,{median},0.00ns,{median},0.00ns,{median},{median}\n"
    )
}

/// Writes a results file made of `rows` under `dir`.
fn results(dir: &Path, file: &str, rows: &[String]) {
    std::fs::write(dir.join(file), format!("{HEADER}{}", rows.concat())).unwrap();
}

/// Two benchmarks whose names sort the other way round from the file's order.
fn unsorted(dir: &Path) {
    results(
        dir,
        "order.csv",
        &[
            row("zeta/late", "iter", "y", "1.0", "2.00us", 1000),
            row("zeta/late", "iter", "x", "2.0", "1.00us", 1000),
            row("alpha/early", "iter", "x", "2.0", "4.00us", 1000),
            row("alpha/early", "iter", "y", "1.0", "1.00us", 1000),
        ],
    );
}

#[test]
fn cmp_diff_and_report_keep_the_order_of_the_result_files() {
    let tmp = Scratch::new("rebar-cli-order");
    unsorted(&tmp.0);
    std::fs::copy(tmp.0.join("order.csv"), tmp.0.join("again.csv")).unwrap();

    let o = output(benchgrind(&tmp.0).args(["cmp", "order.csv"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "\
benchmark    x                   y
---------    -                   -
zeta/late    953.7 MB/s (1.00x)  476.8 MB/s (2.00x)
alpha/early  238.4 MB/s (4.00x)  953.7 MB/s (1.00x)
"
    );

    let o = output(benchgrind(&tmp.0).args(["diff", "order.csv", "again.csv"]));
    assert_code(&o, 0);
    let pairs: Vec<(String, String)> = stdout(&o)
        .lines()
        .skip(2)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("zeta/late", "y"),
            ("zeta/late", "x"),
            ("alpha/early", "x"),
            ("alpha/early", "y")
        ]
        .map(|(b, e)| (b.to_string(), e.to_string()))
    );

    let o = output(benchgrind(&tmp.0).args(["report", "order.csv"]));
    assert_code(&o, 0);
    let md = stdout(&o);
    let (zeta, alpha) = (md.find("zeta").unwrap(), md.find("alpha").unwrap());
    assert!(zeta < alpha, "{md}");
}

#[test]
fn thresholds_keep_a_benchmark_one_engine_ran_when_1_is_within_them() {
    let tmp = Scratch::new("rebar-cli-threshold");
    results(
        &tmp.0,
        "one.csv",
        &[
            row("g/both", "iter", "x", "1.0", "1.00us", 1000),
            row("g/both", "iter", "y", "1.0", "3.00us", 1000),
            row("g/alone", "iter", "x", "1.0", "2.00us", 1000),
        ],
    );
    let names = |args: &[&str]| -> Vec<String> {
        let o = output(benchgrind(&tmp.0).args(args));
        assert_code(&o, 0);
        stdout(&o)
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    // rebar: a benchmark of one engine has the ratio 1.0 only, which -T 2 admits.
    assert_eq!(names(&["cmp", "one.csv", "-T", "2"]), ["g/alone"]);
    assert_eq!(names(&["cmp", "one.csv", "-T", "5"]), ["g/both", "g/alone"]);
    assert_eq!(names(&["cmp", "one.csv", "-t", "2"]), ["g/both"]);
    assert_eq!(
        names(&["cmp", "one.csv", "-t", "1", "-T", "1"]),
        ["g/alone"]
    );
    // diff, the same rule over files: `g/alone` with `y` is in one file only.
    results(
        &tmp.0,
        "two.csv",
        &[
            row("g/both", "iter", "x", "1.0", "1.50us", 1000),
            row("g/alone", "iter", "y", "1.0", "2.00us", 1000),
        ],
    );
    assert_eq!(
        names(&["diff", "one.csv", "two.csv", "-T", "1.2"]),
        ["g/both", "g/alone", "g/alone"]
    );
    assert_eq!(
        names(&["diff", "one.csv", "two.csv", "-t", "1.2"]),
        ["g/both"]
    );
}

#[test]
fn a_zero_spread_is_an_infinite_throughput_as_rebar_prints_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/rebar-results");
    // guide.csv's `mad` is 0.00ns everywhere: rebar prints `inf GB/s` in every cell.
    for stat in ["mad", "stddev"] {
        let tmp = Scratch::new(&format!("rebar-cli-inf-{stat}"));
        results(
            &tmp.0,
            "zero.csv",
            &[row("g/b", "iter", "x", "1.0", "1.00us", 1000)],
        );
        let o = output(benchgrind(&tmp.0).args(["cmp", "zero.csv", "-s", stat]));
        assert_code(&o, 0);
        assert_eq!(
            stdout(&o).lines().nth(2),
            Some("g/b        inf GB/s (1.00x)"),
            "{stat}"
        );
    }
    let o = output(benchgrind(&dir).args(["cmp", "guide.csv", "-s", "mad", "-e", "^rust/memmem$"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "\
benchmark               rust/memmem
---------               -----------
memmem/sherlock-holmes  inf GB/s (1.00x)
memmem/very-common      inf GB/s (1.00x)
"
    );
    // In time units, a zero spread is a zero duration.
    let o = output(benchgrind(&dir).args([
        "diff",
        "guide.csv",
        "-s",
        "mad",
        "-u",
        "time",
        "-e",
        "^rust/memmem$",
    ]));
    assert_code(&o, 0);
    assert!(stdout(&o).contains("0.00ns (1.00x)"), "{}", stdout(&o));
}

/// The column where the descriptions of an options section start, one per line.
fn description_columns(help: &str) -> Vec<usize> {
    let options = help.split_once("OPTIONS:\n").expect("an OPTIONS section").1;
    options
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let indent = l.len() - l.trim_start().len();
            let flag_end = if l.trim_start().starts_with('-') {
                l[indent..].find("  ").map_or(l.len(), |i| indent + i)
            } else {
                0
            };
            flag_end + l[flag_end..].len() - l[flag_end..].trim_start().len()
        })
        .collect()
}

#[test]
fn every_help_page_is_its_own_with_its_options_aligned() {
    let tmp = Scratch::new("rebar-cli-help");
    let help = |cmd: &str| {
        let o = output(benchgrind(&tmp.0).args([cmd, "--help"]));
        assert_code(&o, 0);
        stdout(&o)
    };
    let list = help("list");
    assert!(
        list.starts_with("List the benchmark and engine pairs")
            && list.contains("benchgrind suite list [OPTIONS]")
            && !list.contains("--max-time"),
        "{list}"
    );
    assert_ne!(list, help("measure"));
    for cmd in [
        "klv", "haystack", "build", "clean", "list", "measure", "cmp", "diff", "rank", "report",
    ] {
        let page = help(cmd);
        let columns = description_columns(&page);
        assert!(
            columns.len() > 2 && columns.iter().all(|c| *c == columns[0]),
            "{cmd}: descriptions start at columns {columns:?}:\n{page}"
        );
        assert!(page.contains("    -h, --help "), "{cmd}:\n{page}");
    }
}

#[test]
fn haystack_prints_a_benchmarks_haystack_and_version_the_tool_version() {
    let tmp = Scratch::new("rebar-cli-haystack");
    let suite = tmp.0.join("benchmarks");
    std::fs::create_dir_all(suite.join("definitions")).unwrap();
    std::fs::create_dir_all(suite.join("haystacks")).unwrap();
    std::fs::write(suite.join("haystacks/words.txt"), "  one two  \n").unwrap();
    std::fs::write(
        suite.join("definitions/hay.toml"),
        r#"[[bench]]
model = "count"
name = "trimmed"
regex = "o"
haystack = { path = "words.txt", trim = true, append = "!" }
count = 2
engines = []

[[bench]]
model = "count"
name = "inline"
regex = "o"
haystack = "abc"
count = 0
engines = []
"#,
    )
    .unwrap();
    // The haystack after its definition's transformations, as the runners receive it.
    let o = output(benchgrind(&tmp.0).args(["haystack", "hay/trimmed"]));
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "one two!");
    let o = output(benchgrind(&tmp.0).args(["haystack", "hay/inline", "-r", "3"]));
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "abcabcabc");
    let o = output(benchgrind(&suite).args(["haystack", "--dir", ".", "hay/inline"]));
    assert_eq!(stdout(&o), "abc");
    let o = output(benchgrind(&tmp.0).args(["haystack", "hay/nope"]));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(
            "no benchmark named 'hay/nope' in benchmarks/definitions (known: hay/trimmed, hay/inline)"
        ),
        "{}",
        stderr(&o)
    );
    for (args, want) in [
        (&["haystack"][..], "missing the benchmark name"),
        (
            &["haystack", "a", "b"],
            "only one benchmark name is accepted",
        ),
        (
            &["haystack", "a", "-r", "x"],
            "-r/--repeat: invalid value 'x'",
        ),
        (&["version", "extra"], "unexpected argument"),
    ] {
        let o = output(benchgrind(&tmp.0).args(args));
        assert_code(&o, 2);
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }

    let o = output(benchgrind(&tmp.0).arg("version"));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        format!("{} (benchgrind)\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn color_shows_the_best_value_in_bold_green() {
    let tmp = Scratch::new("rebar-cli-color");
    unsorted(&tmp.0);
    std::fs::copy(tmp.0.join("order.csv"), tmp.0.join("again.csv")).unwrap();
    let green = |s: &str| format!("\x1b[1;32m{s}\x1b[0m");
    let o = output(benchgrind(&tmp.0).args(["cmp", "order.csv", "--color", "always"]));
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        format!(
            "\
benchmark    x                   y
---------    -                   -
zeta/late    {}  476.8 MB/s (2.00x)
alpha/early  238.4 MB/s (4.00x)  {}
",
            green("953.7 MB/s (1.00x)"),
            green("953.7 MB/s (1.00x)")
        )
    );
    // Not a terminal: auto is never; never is never.
    for args in [
        &["cmp", "order.csv"][..],
        &["cmp", "order.csv", "--color", "never"],
    ] {
        let o = output(benchgrind(&tmp.0).args(args));
        assert!(!stdout(&o).contains('\x1b'), "{args:?}");
    }
    // diff colours the first best file of each row.
    let o = output(benchgrind(&tmp.0).args(["diff", "order.csv", "again.csv", "--color=always"]));
    assert_code(&o, 0);
    let out = stdout(&o);
    assert_eq!(out.matches("\x1b[1;32m").count(), 4, "{out}");
    assert!(
        out.contains(&format!(
            "zeta/late    y       {}  476.8",
            green("476.8 MB/s (1.00x)")
        )),
        "{out}"
    );
    let o = output(benchgrind(&tmp.0).args(["cmp", "order.csv", "--color", "sometimes"]));
    assert_code(&o, 2);
    assert!(
        stderr(&o)
            .contains("--color: invalid value 'sometimes': expected one of auto, always, never"),
        "{}",
        stderr(&o)
    );
}
