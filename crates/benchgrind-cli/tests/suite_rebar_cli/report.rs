//! `suite report` as rebar's report: the summaries, the group tables, each benchmark's
//! parameters from the definitions, the links and the nesting of groups.

use super::*;

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

/// `suite report rep.csv` with `args` in `dir`: its Markdown, the command having exited 0.
fn report_of(dir: &Path, args: &[&str]) -> String {
    let o = output(benchgrind(dir).args(["report", "rep.csv"]).args(args));
    assert_code(&o, 0);
    stdout(&o)
}

#[test]
fn report_ranks_search_and_compile_apart_with_rebars_summary_flags() {
    let tmp = Scratch::new("rebar-cli-report-summary");
    search_and_compile(&tmp.0);
    let report = |args: &[&str]| report_of(&tmp.0, args);
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
    let report = |args: &[&str]| report_of(&tmp.0, args);
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
