//! The comparison commands and flags as rebar's CLI has them, on result files written here
//! (nothing is measured): the order of rows, the thresholds, the cells, the help pages and the
//! commands and flags rebar has beside `measure`.

#[path = "suite/common.rs"]
mod common;

use common::*;
use std::path::Path;

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

/// Search and compile benchmarks; `s/only-x` was measured by one engine of two.
fn search_and_compile(dir: &Path) {
    results(
        dir,
        "rep.csv",
        &[
            row("s/one", "iter", "x", "1.0", "1.00us", 1000),
            row("s/one", "iter", "y", "2.0", "2.00us", 1000),
            row("s/only-x", "iter", "x", "1.0", "4.00us", 1000),
            row("c/build", "compile", "x", "1.0", "3.00us", 0),
            row("c/build", "compile", "y", "2.0", "1.00us", 0),
        ],
    );
}

/// The text of a report from its first summary table to the list of groups.
fn summaries(md: &str) -> &str {
    let start = md.find("#### Summary").expect("a summary");
    let end = md[start..]
        .find("\n### Benchmark Groups\n")
        .map_or(md.len(), |i| start + i);
    &md[start..end]
}

#[test]
fn report_ranks_search_and_compile_apart_with_rebars_summary_flags() {
    let tmp = Scratch::new("rebar-cli-report-summary");
    search_and_compile(&tmp.0);
    let report = |args: &[&str]| {
        let o = output(benchgrind(&tmp.0).args(["report", "rep.csv"]).args(args));
        assert_code(&o, 0);
        stdout(&o)
    };
    let md = report(&[]);
    assert_eq!(
        summaries(&md),
        "\
#### Summary of search-time benchmarks

| Engine | Version | Geometric mean of speed ratios | Benchmark count |
| --- | --- | ---: | ---: |
| x | 1.0 | 1.00 | 2 |
| y | 2.0 | 2.00 | 1 |

#### Summary of compile-time benchmarks

| Engine | Version | Geometric mean of speed ratios | Benchmark count |
| --- | --- | ---: | ---: |
| y | 2.0 | 1.00 | 1 |
| x | 1.0 | 3.00 | 1 |
"
    );
    // --summary-exclude leaves y out of the tables, not out of the ratios (x stays 3.00).
    let md = report(&["--summary-exclude", "^y$"]);
    let sum = summaries(&md);
    assert!(
        !sum.contains("| y |") && sum.contains("| x | 1.0 | 3.00 | 1 |"),
        "{sum}"
    );
    // --intersection: s/only-x is left out everywhere.
    let md = report(&["--intersection"]);
    assert!(summaries(&md).contains("| x | 1.0 | 1.00 | 1 |"), "{md}");
    assert!(!md.contains("only-x"), "{md}");
    // Only compile benchmarks: one table.
    let md = report(&["-m", "compile"]);
    assert!(
        !md.contains("search-time") && md.contains("compile-time"),
        "{md}"
    );

    let o = output(benchgrind(&tmp.0).args(["report", "rep.csv", "--summary-exclude", "("]));
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("--summary-exclude: invalid regex '('"),
        "{}",
        stderr(&o)
    );
}

/// The lines of the Markdown table whose header line starts with `header`, up to the blank line
/// after it.
fn table<'a>(md: &'a str, header: &str) -> Vec<&'a str> {
    let start = md
        .find(&format!("\n{header}"))
        .unwrap_or_else(|| panic!("no table starting with {header:?} in:\n{md}"));
    md[start + 1..]
        .lines()
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn report_group_tables_have_engines_as_rows_and_ratios_only_with_ratio() {
    let tmp = Scratch::new("rebar-cli-report-groups");
    search_and_compile(&tmp.0);
    let report = |args: &[&str]| {
        let o = output(benchgrind(&tmp.0).args(["report", "rep.csv"]).args(args));
        assert_code(&o, 0);
        stdout(&o)
    };
    let md = report(&[]);
    assert_eq!(
        table(&md, "| Engine | one |"),
        [
            "| Engine | one | only-x |",
            "| - | - | - |",
            "| x | **953.7 MB/s** | **238.4 MB/s** |",
            "| y | 476.8 MB/s | - |",
        ],
        "{md}"
    );
    // No haystack length (a compile benchmark): times.
    assert_eq!(
        table(&md, "| Engine | build |"),
        [
            "| Engine | build |",
            "| - | - |",
            "| x | 3.00us |",
            "| y | **1.00us** |",
        ],
        "{md}"
    );
    let md = report(&["--ratio", "-u", "time"]);
    assert_eq!(
        table(&md, "| Engine | one |"),
        [
            "| Engine | one | only-x |",
            "| - | - | - |",
            "| x | **1.00us (1.00x)** | **4.00us (1.00x)** |",
            "| y | 2.00us (2.00x) | - |",
        ],
        "{md}"
    );
    let o = output(benchgrind(&tmp.0).args(["report", "rep.csv", "--ratio=2"]));
    assert_code(&o, 2);
    assert!(stderr(&o).contains("--ratio"), "{}", stderr(&o));
}

/// A suite directory `benchmarks/` whose group `g` has a benchmark of inline patterns and
/// haystack (longer than rebar shows) with a count per engine, and one of files; and results
/// for them and for `g/gone`, which has no definition.
fn defined_suite(dir: &Path) {
    let suite = dir.join("benchmarks");
    for sub in ["definitions", "haystacks", "regexes"] {
        std::fs::create_dir_all(suite.join(sub)).unwrap();
    }
    std::fs::write(
        suite.join("haystacks/s.txt"),
        "Sherlock Holmes and Watson\n",
    )
    .unwrap();
    std::fs::write(suite.join("regexes/names.txt"), "Sherlock\nWatson\n").unwrap();
    std::fs::write(
        suite.join("definitions/g.toml"),
        r#"analysis = "The g group."

[[bench]]
model = "count"
name = "inline"
regex = ["a|b", "c"]
case-insensitive = true
haystack = "0123456789012345678901234567890123456789012345678901234567890123456789"
count = [{ engine = "x", count = 3 }, { engine = ".*", count = 4 }]
engines = ["x", "y"]
analysis = "Two patterns."

[[bench]]
model = "iter"
name = "files"
regex = { path = "names.txt", per-line = "alternate" }
unicode = true
haystack = { path = "s.txt" }
count = 2
engines = ["x", "y"]
"#,
    )
    .unwrap();
    results(
        dir,
        "r.csv",
        &[
            row("g/inline", "count", "x", "1.0", "1.00us", 70),
            row("g/inline", "count", "y", "1.0", "2.00us", 70),
            row("g/files", "iter", "x", "1.0", "1.00us", 27),
            row("g/gone", "iter", "x", "1.0", "1.00us", 27),
        ],
    );
}

#[test]
fn report_lists_each_benchmarks_parameters_as_rebar_from_the_definitions() {
    let tmp = Scratch::new("rebar-cli-report-params");
    defined_suite(&tmp.0);
    let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]));
    assert_code(&o, 0);
    let md = stdout(&o);
    let details = &md[md.find("<details>").expect("a details block")..];
    assert_eq!(
        details,
        "\
<details>
<summary>Parameters of each benchmark</summary>

**inline**

| Parameter | Value |
| --------- | ----- |
| full name | `g/inline` |
| model | [`count`](MODELS.md#count) |
| regex(0) | `````a\\|b````` |
| regex(1) | `````c````` |
| case-insensitive | `true` |
| unicode | `false` |
| haystack | `012345678901234567890123456789012345678901234567890123456789 [.. snip ..]` |
| count(`x`) | 3 |
| count(`.*`) | 4 |

Two patterns.

**files**

| Parameter | Value |
| --------- | ----- |
| full name | `g/files` |
| model | [`iter`](MODELS.md#iter) |
| regex-path | [`names.txt`](benchmarks/regexes/names.txt) |
| case-insensitive | `false` |
| unicode | `true` |
| haystack-path | [`s.txt`](benchmarks/haystacks/s.txt) |
| count(`.*`) | 2 |


**gone**

No definition of `g/gone` was loaded from `benchmarks/definitions`.

</details>
"
    );
    // One pattern, from the suite directory itself.
    let o = output(
        benchgrind(&tmp.0.join("benchmarks"))
            .args(["report", "../r.csv", "-d", ".", "-f", "inline"]),
    );
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("| full name | `g/inline` |"),
        "{}",
        stdout(&o)
    );

    // Without definitions the report says so, and still reports.
    let o = output(benchgrind(&tmp.0).args(["report", "r.csv", "-d", "nowhere"]));
    assert_code(&o, 0);
    let md = stdout(&o);
    assert!(
        md.contains("parameters are not shown: `nowhere/definitions` is not a directory")
            && !md.contains("<details>")
            && md.contains("| x | **66.8 MB/s** | **25.7 MB/s** | **25.7 MB/s** |"),
        "{md}"
    );
    assert!(
        stderr(&o).contains("nowhere/definitions is not a directory"),
        "{}",
        stderr(&o)
    );
    // A definition that does not load: a note naming its file and line, and the report.
    std::fs::remove_file(tmp.0.join("benchmarks/haystacks/s.txt")).unwrap();
    let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]));
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("No definition of `g/files` was loaded from `benchmarks/definitions`."),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("benchmarks/definitions/g.toml:18: benchmark 'g/files': `haystack`: cannot read benchmarks/haystacks/s.txt"),
        "{}",
        stderr(&o)
    );
    let o = output(benchgrind(&tmp.0).args(["report", "r.csv", "-d"]));
    assert_code(&o, 2);
    assert!(stderr(&o).contains("'-d'"), "{}", stderr(&o));
}

#[test]
fn report_links_from_the_repo_root_that_relative_path_to_repo_root_places() {
    let tmp = Scratch::new("rebar-cli-report-links");
    defined_suite(&tmp.0);
    std::fs::write(
        tmp.0.join("benchmarks/engines.toml"),
        r#"[[engine]]
name = "x"
cwd = "../engines/x"
[engine.version]
bin = "echo"
[engine.run]
bin = "./runner"

[[engine]]
name = "y"
[engine.version]
bin = "echo"
[engine.run]
bin = "runner"
"#,
    )
    .unwrap();
    let report = |args: &[&str]| {
        let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]).args(args));
        assert_code(&o, 0);
        stdout(&o)
    };
    let lines = |md: &str| -> Vec<String> {
        md.lines()
            .filter(|l| l.starts_with("| ") && l.contains("]("))
            .map(String::from)
            .collect()
    };
    // As rebar: each engine links to where its runner runs (the suite directory without a
    // `cwd`), the model to MODELS.md, the files to the suite's regexes/ and haystacks/.
    let want = |root: &str| {
        [
            format!("| [x]({root}benchmarks/../engines/x) | 1.0 | 1.00 | 3 |"),
            format!("| [y]({root}benchmarks) | 1.0 | 2.00 | 1 |"),
            format!("| model | [`count`]({root}MODELS.md#count) |"),
            format!("| model | [`iter`]({root}MODELS.md#iter) |"),
            format!("| regex-path | [`names.txt`]({root}benchmarks/regexes/names.txt) |"),
            format!("| haystack-path | [`s.txt`]({root}benchmarks/haystacks/s.txt) |"),
        ]
    };
    let md = report(&[]);
    assert_eq!(lines(&md), want(""), "{md}");
    let md = report(&["--relative-path-to-repo-root", "../../"]);
    assert_eq!(lines(&md), want("../../"), "{md}");
    let md = report(&["--relative-path-to-repo-root="]);
    assert_eq!(lines(&md), want(""), "{md}");

    for (args, want) in [
        (
            &["--relative-path-to-repo-root", "../.."][..],
            "--relative-path-to-repo-root: '../..' must end with '/' (e.g. '../../')",
        ),
        (
            &["--relative-path-to-repo-root"],
            "'--relative-path-to-repo-root'",
        ),
    ] {
        let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]).args(args));
        assert_code(&o, 2);
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

/// The headings of a report and the lines of its list of groups.
fn outline(md: &str) -> Vec<&str> {
    md.lines()
        .filter(|l| l.starts_with('#') || l.trim_start().starts_with("* ["))
        .collect()
}

#[test]
fn report_groups_nest_in_definition_order_with_rebars_heading_levels() {
    let tmp = Scratch::new("rebar-cli-report-order");
    let defs = tmp.0.join("benchmarks/definitions");
    std::fs::create_dir_all(defs.join("curated")).unwrap();
    let bench = |name: &str| {
        format!(
            "[[bench]]\nmodel = \"iter\"\nname = \"{name}\"\nregex = \"a\"\nhaystack = \"a\"\n\
             count = 1\nengines = [\"x\"]\n\n"
        )
    };
    std::fs::write(defs.join("alpha.toml"), bench("a")).unwrap();
    std::fs::write(
        defs.join("curated/01-literal.toml"),
        bench("first") + &bench("second"),
    )
    .unwrap();
    std::fs::write(defs.join("curated/02-date.toml"), bench("d")).unwrap();
    let r = |name: &str| row(name, "iter", "x", "1.0", "1.00us", 1);
    results(
        &tmp.0,
        "r.csv",
        &[
            r("curated/02-date/d"),
            r("curated/01-literal/second"),
            r("alpha/a"),
            r("curated/01-literal/first"),
            r("loose/z"),
            r("curated/top"),
            r("curated/01-literal/undefined"),
        ],
    );
    let report = |args: &[&str]| {
        let o = output(benchgrind(&tmp.0).args(["report", "r.csv"]).args(args));
        assert_code(&o, 0);
        stdout(&o)
    };
    // With definitions: rebar's order (groups by name, benchmarks as their file lists them),
    // then what has no definition, in the results' order. `curated` has a benchmark of its own
    // (`curated/top`) and groups: its table is under its heading (rebar leaves it out).
    let md = report(&[]);
    assert_eq!(
        outline(&md),
        [
            "### Summary",
            "#### Summary of search-time benchmarks",
            "### Benchmark Groups",
            "* [alpha](#alpha)",
            "* [curated](#curated)",
            "  * [literal](#literal)",
            "  * [date](#date)",
            "* [loose](#loose)",
            "### alpha",
            "### curated",
            "#### literal",
            "#### date",
            "### loose",
        ],
        "{md}"
    );
    assert!(md.contains("### curated\n\n| Engine | top |\n"), "{md}");
    assert!(
        md.contains("#### literal\n\n| Engine | first | second | undefined |\n"),
        "{md}"
    );
    // Without definitions: the results' order.
    let md = report(&["-d", "nowhere"]);
    assert_eq!(
        outline(&md)[3..],
        [
            "* [curated](#curated)",
            "  * [date](#date)",
            "  * [literal](#literal)",
            "* [alpha](#alpha)",
            "* [loose](#loose)",
            "### curated",
            "#### date",
            "#### literal",
            "### alpha",
            "### loose",
        ],
        "{md}"
    );
    assert!(
        md.contains("#### literal\n\n| Engine | second | first | undefined |\n"),
        "{md}"
    );
    // A group alone is one heading at the top level, as rebar flattens it.
    let md = report(&["-f", "^curated/01-literal/"]);
    assert_eq!(
        outline(&md)[3..],
        ["* [literal](#literal)", "### literal"],
        "{md}"
    );
}
