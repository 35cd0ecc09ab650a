//! `explain` on profiles of real programs under real Callgrind: the programs in
//! `tests/explain/` are built in two variants, run under `valgrind --tool=callgrind`, and the
//! attribution is checked against the totals that the file states (read by the independent
//! totals read, `parse::profile` with `Read::Totals`).

use std::path::{Path, PathBuf};
use std::process::Command;

use benchgrind_runner::config::EventKind;
use benchgrind_runner::explain::{self, Explanation, Options, Status};
use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Read};

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/explain")
        .join(name)
}

fn run(cmd: &mut Command) {
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?} ({e}); run `bash .ci/deps --tests` first"));
    assert!(
        output.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Builds `src` into `<dir>/<variant>/prog` with the compiler arguments of the variant (the
/// same path length for both, so that nothing but the code differs) and returns the profile
/// Callgrind wrote for it.
fn profile(dir: &Path, variant: &str, compile: &mut Command, callgrind_args: &[&str]) -> PathBuf {
    let exe_dir = dir.join(variant);
    std::fs::create_dir_all(&exe_dir).unwrap();
    let exe = exe_dir.join("prog");
    run(compile.arg("-o").arg(&exe));
    let out = dir.join(format!("{variant}.callgrind.out"));
    run(Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .args([
            "--cache-sim=yes",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            "--LL=8388608,16,64",
        ])
        .args(callgrind_args)
        .arg(&exe));
    out
}

fn cc(src: &str, define: Option<&str>) -> Command {
    let mut cmd = Command::new("cc");
    cmd.args(["-O1", "-g"]).arg(source(src));
    cmd.args(define.map(|d| format!("-D{d}")));
    cmd
}

/// The exactness checks that hold for every explanation: per metric, the self-cost changes of
/// all functions add up to the change of the totals the files state, and so do any first N
/// of them plus "other".
fn check_sums(e: &Explanation) {
    let totals = |p: &Path| Metrics::from_profile(&profile::parse_file(p, Read::Totals).unwrap());
    let (old, new) = (totals(&e.old), totals(&e.new));
    for (k, &metric) in e.metrics.iter().enumerate() {
        let stated = i128::from(new.get(metric).unwrap()) - i128::from(old.get(metric).unwrap());
        let attributed: i128 = e.functions.iter().map(|f| f.self_cost[k].diff()).sum();
        assert_eq!(attributed, stated, "{metric:?}: functions vs. totals");
        for top in [0, 1, 5, usize::MAX] {
            let listed: i128 = e
                .functions
                .iter()
                .take(top)
                .map(|f| f.self_cost[k].diff())
                .sum();
            assert_eq!(listed + e.other(top)[k], stated, "{metric:?}, top {top}");
        }
    }
    assert!(e.adds_up());
}

fn terminal(e: &Explanation) -> String {
    let mut out = Vec::new();
    e.write_terminal(&mut out, 5, 2).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn work_added_two_calls_deep_is_attributed_to_the_helper() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--toggle-collect=main"];
    let old = profile(tmp.path(), "a", &mut cc("deep.c", None), &args);
    let new = profile(tmp.path(), "b", &mut cc("deep.c", Some("EXTRA")), &args);
    let e = explain::explain(&old, &new, &Options::default()).unwrap();
    let text = terminal(&e);
    println!("{text}");
    check_sums(&e);
    let ir = e.rank;
    assert_eq!(e.rank_metric(), EventKind::Ir);
    let helper = &e.functions[0];
    assert_eq!(helper.name, "helper", "{text}");
    assert_eq!(helper.status, Status::Changed);
    // Only the helper's code differs: its change is the whole change of the instructions.
    let total = e.total[ir].diff();
    assert!(total > 0);
    assert_eq!(helper.self_cost[ir].diff(), total, "{text}");
    for f in &e.functions[1..] {
        assert_eq!(f.self_cost[ir].diff(), 0, "{}: {text}", f.name);
    }
    // The callers' inclusive costs carry it up; their own costs stay.
    for name in ["step", "work", "main"] {
        let f = e.functions.iter().find(|f| f.name == name);
        let f = f.unwrap_or_else(|| panic!("{name} is not listed: {text}"));
        assert_eq!(f.inclusive[ir].diff(), total, "{name}: {text}");
    }
    // The terminal names the helper first, with the exact difference.
    let first = text.lines().nth(2).unwrap();
    assert!(first.contains("helper"), "{text}");
    assert!(
        first.trim_start().starts_with(&format!("+{total} ")),
        "{text}"
    );
    // With line tables, the added loop's lines carry the difference.
    assert!(e.has_lines);
    let lines: i128 = helper.lines.iter().map(|l| l.self_cost[ir].diff()).sum();
    assert_eq!(lines, total);
    assert!(helper.lines.iter().all(|l| l.file.ends_with("deep.c")));
}

/// `callgrind_annotate`'s per-function instruction counts: `file:function [object]` to count.
fn annotate(profile: &Path, inclusive: bool) -> Vec<(String, u64)> {
    let output = Command::new("callgrind_annotate")
        .arg(format!(
            "--inclusive={}",
            if inclusive { "yes" } else { "no" }
        ))
        .args(["--show=Ir", "--threshold=100", "--auto=no"])
        .arg(profile)
        // It prints paths below its working directory relative to it.
        .current_dir(profile.parent().unwrap())
        .output()
        .expect("callgrind_annotate (part of Valgrind) runs");
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| {
            let (count, rest) = line.trim_start().split_once(' ')?;
            let count = count.replace(',', "").parse().ok()?;
            let (_, name) = rest.trim_start().split_once("  ")?;
            Some((name.to_owned(), count))
        })
        .collect()
}

#[test]
fn self_and_inclusive_costs_agree_with_callgrind_annotate() {
    let tmp = tempfile::tempdir().unwrap();
    let out = profile(tmp.path(), "b", &mut cc("deep.c", Some("EXTRA")), &[]);
    let ours = profile::parse_file(&out, Read::Full).unwrap();
    let ir = ours.events.iter().position(|e| e == "Ir").unwrap();
    for inclusive in [false, true] {
        let theirs = annotate(&out, inclusive);
        for name in ["helper", "step", "work", "main"] {
            let f = ours.functions.iter().find(|f| f.name == name).unwrap();
            let key = format!(
                "{}:{name} [{}]",
                f.file.as_deref().unwrap(),
                f.object.as_deref().unwrap()
            );
            let value = if inclusive {
                f.inclusive[ir]
            } else {
                f.self_cost[ir]
            };
            let found = theirs.iter().find(|(k, _)| *k == key);
            assert_eq!(
                found.map(|x| x.1),
                Some(value),
                "{key}, inclusive={inclusive}"
            );
        }
    }
}

#[test]
fn a_function_inlined_away_is_gone_and_its_caller_grew() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--toggle-collect=main"];
    let old = profile(tmp.path(), "a", &mut cc("inline.c", None), &args);
    let new = profile(tmp.path(), "b", &mut cc("inline.c", Some("INLINED")), &args);
    let e = explain::explain(&old, &new, &Options::default()).unwrap();
    let text = terminal(&e);
    println!("{text}");
    check_sums(&e);
    let ir = e.rank;
    let mix = e.functions.iter().find(|f| f.name == "mix").expect(&text);
    assert_eq!(mix.status, Status::Gone, "{text}");
    assert!(mix.self_cost[ir].old > 0 && mix.self_cost[ir].new == 0);
    let caller = e
        .functions
        .iter()
        .find(|f| f.name == "caller")
        .expect(&text);
    assert_eq!(caller.status, Status::Changed);
    assert!(caller.self_cost[ir].diff() > 0, "{text}");
    // The mix's work moved into the caller, minus the calls: less in all.
    assert!(caller.self_cost[ir].diff() < mix.self_cost[ir].old as i128);
    assert!(text.contains("mix  (explain/inline.c)  [gone]"), "{text}");
    // Its lines now count in the caller, at mix's line in the same file.
    let mix_line = mix.lines[0].line;
    assert!(caller
        .lines
        .iter()
        .any(|l| l.line == mix_line && l.self_cost[ir].diff() > 0));
}

#[test]
fn rust_names_are_demangled_with_generics_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let compile = |cfg: Option<&str>| {
        let mut cmd = Command::new(&rustc);
        cmd.args([
            "-O",
            "-g",
            "-C",
            "symbol-mangling-version=v0",
            "--edition=2021",
        ])
        .arg(source("deep.rs"));
        if let Some(cfg) = cfg {
            cmd.args(["--cfg", cfg]);
        }
        cmd
    };
    // Mangled names in the profile: demangling is ours, not Valgrind's.
    let args = ["--demangle=no", "--toggle-collect=*4deep4work"];
    let old = profile(tmp.path(), "a", &mut compile(None), &args);
    let new = profile(tmp.path(), "b", &mut compile(Some("extra")), &args);
    let e = explain::explain(&old, &new, &Options::default()).unwrap();
    let text = terminal(&e);
    println!("{text}");
    check_sums(&e);
    let ir = e.rank;
    let helper = &e.functions[0];
    assert_eq!(helper.name, "deep::helper::<u32>", "{text}");
    assert_eq!(helper.self_cost[ir].diff(), e.total[ir].diff(), "{text}");
    assert!(e.total[ir].diff() > 0);
    assert!(
        text.lines().nth(2).unwrap().contains("deep::helper::<u32>"),
        "{text}"
    );
}

#[test]
fn profiles_of_the_repository_add_up() {
    // The committed real profiles (tests/fixtures/README.md), each against itself and the two
    // fibonacci ones against each other: every function's self cost sums to the stated totals.
    let fixture = |n: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(n)
    };
    let fib10 = fixture("fib10.cache-sim.callgrind.out");
    let fib15 = fixture("fib15.instr-branch.callgrind.out");
    let sort = fixture("sort100.no-cache-sim.callgrind.out");
    for path in [&fib10, &fib15, &sort] {
        let p = profile::parse_file(path, Read::Full).unwrap();
        assert_eq!(p.totals, Some(p.self_sum()), "{}", path.display());
        let same = explain::explain(path, path, &Options::default()).unwrap();
        assert!(same.functions.is_empty() && same.unchanged > 0);
    }
    let e = explain::explain(&fib10, &fib15, &Options::default()).unwrap();
    check_sums(&e);
    assert_eq!(
        e.functions[0].short,
        "e2e_lib::fibonacci",
        "{}",
        terminal(&e)
    );
}

/// Renders Markdown to HTML with GitHub's renderer (tables, raw HTML kept as GitHub keeps
/// `<details>`).
fn cmark_gfm(markdown: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("cmark-gfm")
        .args(["--extension", "table", "--unsafe"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cmark-gfm runs; install it with `bash .ci/deps --tests`");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(markdown.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_pull_request_comment_renders_as_tables_in_details_blocks() {
    use explain::markdown::{render, Entry, Finding};
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--toggle-collect=main"];
    let deep_old = profile(tmp.path(), "a", &mut cc("deep.c", None), &args);
    let deep_new = profile(tmp.path(), "b", &mut cc("deep.c", Some("EXTRA")), &args);
    let inl_old = profile(tmp.path(), "c", &mut cc("inline.c", None), &args);
    let inl_new = profile(tmp.path(), "d", &mut cc("inline.c", Some("INLINED")), &args);
    let options = Options::default();
    let deep = explain::explain(&deep_old, &deep_new, &options).unwrap();
    let inlined = explain::explain(&inl_old, &inl_new, &options).unwrap();
    let same = explain::explain(&deep_old, &deep_old, &options).unwrap();
    let entries = [
        Entry {
            id: "fixtures::deep::work",
            outcome: Finding::Compared(&deep),
            flamegraph: Some("target/benchgrind/deep/callgrind.Ir.diff.flamegraph.svg"),
            limits: None,
            layout_only: false,
        },
        Entry {
            id: "fixtures::inline::caller",
            outcome: Finding::Compared(&inlined),
            flamegraph: None,
            limits: None,
            layout_only: false,
        },
        Entry {
            id: "fixtures::deep::same",
            outcome: Finding::Compared(&same),
            flamegraph: None,
            limits: None,
            layout_only: false,
        },
        Entry {
            id: "fixtures::added",
            outcome: Finding::New,
            flamegraph: None,
            limits: None,
            layout_only: false,
        },
        Entry {
            id: "fixtures::removed",
            outcome: Finding::Gone,
            flamegraph: None,
            limits: None,
            layout_only: false,
        },
    ];
    let markdown = render(&entries, 5, 2);
    println!("{markdown}");
    let html = cmark_gfm(&markdown);
    println!("{html}");
    // The summary counts improved, regressed, unchanged, new and gone: inline improved, deep
    // regressed, same unchanged, one new, one gone.
    let summary = html.split("</table>").next().unwrap();
    let cells: Vec<&str> = summary
        .split("<td align=\"right\">")
        .skip(1)
        .map(|c| c.split('<').next().unwrap())
        .collect();
    assert_eq!(cells, ["1", "1", "1", "1", "1"], "{summary}");
    // One details block per changed benchmark, each holding a real table whose first row is
    // the function that explains the change.
    let blocks: Vec<&str> = html.split("<details>").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{html}");
    let ir = deep.rank;
    let helper_diff = format!("+{}", deep.functions[0].self_cost[ir].diff());
    let first_row = blocks[0]
        .split("<tbody>")
        .nth(1)
        .unwrap()
        .split("</tr>")
        .next();
    let first_row = first_row.unwrap();
    assert!(
        blocks[0].contains("<summary>fixtures::deep::work: Ir "),
        "{}",
        blocks[0]
    );
    assert!(first_row.contains(&helper_diff), "{first_row}");
    assert!(first_row.contains("<code>helper</code>"), "{first_row}");
    assert!(
        blocks[0].contains("<a href=\"target/benchgrind/deep/callgrind.Ir.diff.flamegraph.svg\">")
    );
    assert!(blocks[0].contains("<strong>total</strong>"));
    assert!(
        blocks[1].contains("<code>mix</code> <strong>gone</strong>"),
        "{}",
        blocks[1]
    );
    for block in &blocks {
        assert!(block.contains("</summary>\n<table>"), "{block}");
        assert!(block.contains("</details>"));
        assert!(!block.contains('|'), "a table row did not render: {block}");
    }
}

#[test]
fn callgrind_contexts_and_jumps_do_not_change_the_attribution() {
    // The same program with caller and recursion contexts (`helper'step'work`), jumps and
    // instruction positions in the profile: every function's costs are those of a plain run.
    let tmp = tempfile::tempdir().unwrap();
    let plain = profile(
        tmp.path(),
        "a",
        &mut cc("deep.c", None),
        &["--toggle-collect=main"],
    );
    let detailed = profile(
        tmp.path(),
        "c",
        &mut cc("deep.c", None),
        &[
            "--toggle-collect=main",
            "--separate-callers=2",
            "--separate-recs=3",
            "--collect-jumps=yes",
            "--dump-instr=yes",
        ],
    );
    let text = std::fs::read_to_string(&detailed).unwrap();
    assert!(
        text.contains("'step")
            && text.contains("\njcnd=")
            && text.contains("\npositions: instr line")
    );
    let e = explain::explain(&plain, &detailed, &Options::default()).unwrap();
    check_sums(&e);
    assert!(!e.changed(), "{}", terminal(&e));
    assert!(e.functions.is_empty(), "{}", terminal(&e));
}
