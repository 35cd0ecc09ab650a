//! `--explain` end to end on `e2e_explain` (and a C program under `e2e_bin`): after a change, the
//! terminal names the function that made it with the exact difference, the listed differences
//! add up to the total, the JSON summary (version 2) holds every changed function, and
//! `--output-format=markdown` is a pull-request comment that a real Markdown renderer
//! (cmark-gfm) turns into tables in `<details>` blocks.

mod common;

use std::path::Path;
use std::process::Command;

use common::{blocks, cmark_gfm, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_explain");

fn home_arg(home: &Path) -> String {
    format!("--home={}", home.display())
}

/// One row of a terminal explanation.
#[derive(Debug, Clone, PartialEq)]
enum Row {
    /// `self diff, old self, new self, incl. diff, function and marks`.
    Function(i64, String),
    /// A source line under a function.
    Line(i64, String),
    /// The `other` line.
    Other(i64),
    /// The total.
    Total(i64),
}

/// The rows of the explanation under the benchmark whose header starts with `header`.
fn explanation(report: &str, header: &str) -> Vec<Row> {
    let report = format!("\n{report}");
    let start = report
        .find(&format!("\n{header}"))
        .unwrap_or_else(|| panic!("no {header} in {report}"));
    let block = &report[start + 1..];
    let block = &block[..block[1..].find("\n\n").map_or(block.len(), |i| i + 1)];
    let block = block.split("\ne2e_").next().unwrap();
    let mut rows = Vec::new();
    let mut lines = block
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Why "));
    lines
        .next()
        .unwrap_or_else(|| panic!("no explanation in {block}"));
    for line in lines.skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Ok(diff) = words[0].parse::<i64>() else {
            break;
        };
        rows.push(if line.contains("total (") {
            Row::Total(diff)
        } else if line.contains("other: ") {
            Row::Other(diff)
        } else if words[3] == "at" {
            Row::Line(diff, words[4].to_owned())
        } else {
            Row::Function(diff, words[4..].join(" "))
        });
    }
    rows
}

/// The listed functions' self differences plus `other` make the total.
fn adds_up(rows: &[Row]) -> bool {
    let listed: i64 = rows
        .iter()
        .map(|r| match r {
            Row::Function(d, _) | Row::Other(d) => *d,
            _ => 0,
        })
        .sum();
    rows.contains(&Row::Total(listed))
}

fn instructions_diff(report: &str, header: &str) -> i64 {
    let block = blocks(report)
        .into_iter()
        .find(|b| b.header.starts_with(header))
        .unwrap();
    let m = block
        .metrics
        .iter()
        .find(|m| m.0 == "Instructions")
        .unwrap();
    m.1 as i64 - m.2.parse::<i64>().unwrap()
}

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema is a valid JSON Schema")
}

#[test]
fn a_helper_two_calls_deep_is_named_first_with_the_exact_difference() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let first = run(BIN, &[&h, "two_deep"], home.path(), &[("E2E_EXTRA", "100")]);
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    assert!(
        !stdout(&first).contains("Why "),
        "nothing to explain on a first run"
    );

    let second = run(
        BIN,
        &[&h, "two_deep", "--save-summary"],
        home.path(),
        &[("E2E_EXTRA", "150")],
    );
    let report = stdout(&second);
    println!("{report}");
    assert_eq!(second.status.code(), Some(0), "{report}");
    let header = "e2e_explain::explain::two_deep";
    let total = instructions_diff(&report, header);
    assert!(total > 0, "{report}");
    let rows = explanation(&report, header);
    let Row::Function(diff, name) = &rows[0] else {
        panic!("{rows:?}")
    };
    assert!(name.starts_with("e2e_explain::leaf_helper "), "{rows:?}");
    assert_eq!(
        *diff, total,
        "all of the change is the helper's own: {report}"
    );
    assert!(adds_up(&rows), "{rows:?}");
    // Its callers' own costs stayed; their inclusive costs carry the change.
    for caller in ["e2e_explain::middle ", "e2e_explain::two_deep "] {
        assert!(
            rows.iter()
                .any(|r| matches!(r, Row::Function(0, n) if n.starts_with(caller))),
            "{caller}: {rows:?}"
        );
    }

    // The JSON summary (version 2 on) holds the whole attribution, and it adds up.
    let dir = home
        .path()
        .join("benchgrind-e2e/e2e_explain/explain/two_deep.helper");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let errors: Vec<String> = schema()
        .iter_errors(&summary)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(summary["version"], 7);
    let e = &summary["explanation"];
    assert_eq!(e["total"]["Ir"]["diff"], total);
    assert_eq!(e["unattributed"]["Ir"], 0);
    assert_eq!(
        e["old"],
        dir.join("callgrind.out.old").display().to_string()
    );
    let functions = e["functions"].as_array().unwrap();
    assert!(functions[0]["name"]
        .as_str()
        .unwrap()
        .starts_with("e2e_explain::leaf_helper"));
    for metric in e["metrics"].as_array().unwrap() {
        let metric = metric.as_str().unwrap();
        let sum: i64 = functions
            .iter()
            .map(|f| f["self"][metric]["diff"].as_i64().unwrap())
            .sum();
        assert_eq!(
            sum,
            e["total"][metric]["diff"].as_i64().unwrap(),
            "{metric}"
        );
    }

    // Unchanged counts: nothing to explain, and no explanation in the summary.
    let same = run(
        BIN,
        &[&h, "two_deep", "--save-summary", "--explain=always"],
        home.path(),
        &[("E2E_EXTRA", "150")],
    );
    assert!(!stdout(&same).contains("Why "), "{}", stdout(&same));
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(!summary.contains("\"explanation\""), "{summary}");
}

#[test]
fn a_function_inlined_away_is_gone_and_its_caller_grew() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    run(BIN, &[&h, "inlining"], home.path(), &[("E2E_INLINE", "0")]);
    // A call less is far below the default threshold of 1%: asked for with `always`.
    let args = [h.as_str(), "inlining", "--explain=always"];
    let inlined = run(BIN, &args, home.path(), &[("E2E_INLINE", "1")]);
    let report = stdout(&inlined);
    println!("{report}");
    let rows = explanation(&report, "e2e_explain::explain::inlining");
    assert!(adds_up(&rows), "{rows:?}");
    let self_diff = |prefix: &str| {
        rows.iter()
            .find_map(|r| match r {
                Row::Function(d, n) if n.starts_with(prefix) => Some((*d, n.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {prefix} in {rows:?}"))
    };
    let (helper, helper_name) = self_diff("e2e_explain::checksum_helper ");
    let (caller, caller_name) = self_diff("e2e_explain::checksum_caller ");
    assert!(helper_name.ends_with("[gone]"), "{helper_name}");
    assert!(!caller_name.contains('['), "{caller_name}");
    assert!(helper < 0 && caller > 0, "{rows:?}");
    // The helper's body moved into the caller: all but the call itself.
    assert!((helper + caller).abs() <= 10, "{rows:?}");

    // The default threshold leaves so small a change out; `never` makes none.
    for flag in ["--explain=1", "--explain=never"] {
        let back = run(
            BIN,
            &[&h, "inlining", flag],
            home.path(),
            &[("E2E_INLINE", "0")],
        );
        assert!(!stdout(&back).contains("Why "), "{flag}: {}", stdout(&back));
    }
    let bad = run(BIN, &[&h, "--explain=lots"], home.path(), &[]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("--explain is `lots`; use a percentage (e.g. 1 or 0.5), always or never"),
        "{err}"
    );
}

/// The cells of the first row of the first table body in `html`.
fn first_row(html: &str) -> Vec<String> {
    let body = html.split("<tbody>").nth(1).expect("a table body");
    let row = body.split("</tr>").next().unwrap();
    row.split("<td")
        .skip(1)
        .map(|c| {
            let c = &c[c.find('>').unwrap() + 1..];
            c[..c.find("</td>").unwrap()].to_owned()
        })
        .collect()
}

#[test]
fn markdown_output_is_a_pull_request_comment() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let before = [("E2E_EXTRA", "100"), ("E2E_INLINE", "0")];
    run(BIN, &[&h], home.path(), &before);
    let terminal = run(BIN, &[&h], home.path(), &before);
    let after = [("E2E_EXTRA", "150"), ("E2E_INLINE", "1")];
    let md = run(
        BIN,
        &[
            &h,
            "--output-format=markdown",
            "--regression=ir=5%",
            "--save-summary",
        ],
        home.path(),
        &after,
    );
    // Only the comment on stdout; the tally goes to stderr.
    let markdown = stdout(&md);
    println!("{markdown}");
    assert_eq!(md.status.code(), Some(3), "{markdown}");
    assert!(markdown.starts_with("## benchgrind: why the counts changed\n"));
    let html = cmark_gfm(&markdown);
    println!("{html}");
    let tables: Vec<&str> = html.split("<table>").skip(1).collect();
    // Counts, benchmarks, per changed benchmark its functions and their source lines, and
    // what was compared (revision and machine of each side).
    assert_eq!(tables.len(), 7, "{html}");
    assert!(tables[6].contains("<td>this run</td>"), "{html}");
    assert_eq!(
        first_row(tables[0]),
        ["1", "1", "0", "0", "0"],
        "improved, regressed, unchanged, new, gone"
    );
    let old_ir = blocks(&stdout(&terminal))[0].get("Instructions");
    let two_deep = first_row(tables[1]);
    assert_eq!(
        two_deep[0],
        "<code>e2e_explain::explain::two_deep::helper</code>"
    );
    assert_eq!(two_deep[2], old_ir.to_string());
    assert!(
        two_deep[5].starts_with("regressed, <strong>past a limit</strong>: Instructions ("),
        "{two_deep:?}"
    );
    let details: Vec<&str> = html.split("<details>").skip(1).collect();
    assert_eq!(details.len(), 2, "{html}");
    assert!(details[0].starts_with("\n<summary>e2e_explain::explain::two_deep::helper: Ir +"));
    let helper = first_row(details[0]);
    assert_eq!(
        helper[4], "<code>e2e_explain::leaf_helper</code>",
        "{helper:?}"
    );
    let total: i64 = two_deep[3].parse::<i64>().unwrap() - old_ir as i64;
    assert_eq!(helper[0], format!("+{total}"));
    assert!(details[0].contains("<strong>total</strong>"));
    // The source lines of the change (the loop's, inlined from the standard library).
    let line = first_row(&details[0][details[0].find("<th>line</th>").unwrap()..]);
    assert_eq!(line[4], "<code>e2e_explain::leaf_helper</code>", "{line:?}");
    assert!(line[0].starts_with('+'), "{line:?}");
    // The link to the differential flamegraph, which the run drew.
    let svg = home
        .path()
        .join("benchgrind-e2e/e2e_explain/explain/two_deep.helper")
        .join("callgrind.Ir.diff.flamegraph.svg");
    assert!(svg.is_file());
    let link = format!("Differential flamegraph: <a href=\"{}\">", svg.display());
    assert!(details[0].contains(&link), "{}", details[0]);
    assert!(
        details[1].contains("<code>e2e_explain::checksum_helper</code> <strong>gone</strong>"),
        "{}",
        details[1]
    );
    for block in &details {
        assert!(block.contains("</details>"));
        assert!(!block.contains('|'), "a table row did not render: {block}");
    }

    // `benchgrind merge` of the run's summaries writes the same comment, but for the flamegraph
    // links (a summary does not record them) and the order of the benchmarks within a bench
    // file (a summary does not record the run's order either): the same lines, sorted.
    let Some(cli) = common::cli() else {
        return;
    };
    let merged = Command::new(&cli)
        .args(["merge", "--output-format=markdown"])
        .arg(home.path())
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(3), "{merged:?}");
    let lines = |text: &str| -> Vec<String> {
        let mut lines: Vec<String> = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("Differential flamegraph:"))
            .map(str::to_owned)
            .collect();
        lines.sort();
        lines
    };
    let merged_markdown = stdout(&merged);
    assert_eq!(
        lines(&merged_markdown),
        lines(&markdown),
        "{merged_markdown}"
    );
    assert_eq!(merged_markdown.matches("<details>").count(), 2);
}

#[test]
fn load_baseline_explains_two_saved_baselines_without_running() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let main = run(
        BIN,
        &[&h, "two_deep", "--save-baseline=main"],
        home.path(),
        &[("E2E_EXTRA", "100")],
    );
    assert_eq!(main.status.code(), Some(0));
    let live = run(
        BIN,
        &[&h, "two_deep", "--save-baseline=new", "--baseline=main"],
        home.path(),
        &[("E2E_EXTRA", "300")],
    );
    let live_report = stdout(&live);
    let header = "e2e_explain::explain::two_deep";
    let live_rows = explanation(&live_report, header);
    let loaded = run(
        BIN,
        &[&h, "two_deep", "--load-baseline=new", "--baseline=main"],
        home.path(),
        &[
            ("BENCHGRIND_VALGRIND", "/nonexistent/valgrind"),
            ("PATH", "/nonexistent"),
        ],
    );
    let report = stdout(&loaded);
    println!("{report}");
    assert_eq!(loaded.status.code(), Some(0), "{report}");
    let rows = explanation(&report, header);
    assert_eq!(rows, live_rows);
    let Row::Function(diff, name) = &rows[0] else {
        panic!("{rows:?}")
    };
    assert!(name.starts_with("e2e_explain::leaf_helper "), "{rows:?}");
    assert_eq!(*diff, instructions_diff(&report, header));
    assert!(adds_up(&rows));
}

/// Compiles the C program of a binary benchmark to `program`, with `extra` more iterations in
/// `helper`, two calls below `main`.
fn compile(dir: &Path, program: &Path, extra: u32) {
    let source = dir.join("deep.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\n\
         static volatile long sink;\n\
         __attribute__((noinline)) static long helper(long n) {\n\
           long x = 0;\n\
           for (long i = 0; i < n + EXTRA; i++) { x = x * 31 ^ i; sink = x; }\n\
           return x;\n\
         }\n\
         __attribute__((noinline)) static long middle(long n) { return helper(n) + 1; }\n\
         int main(int argc, char **argv) {\n\
           sink = middle(argc > 1 ? atol(argv[1]) : 10);\n\
           return 0;\n\
         }\n",
    )
    .unwrap();
    let status = Command::new("cc")
        .args(["-O1", "-g", &format!("-DEXTRA={extra}"), "-o"])
        .arg(program)
        .arg(&source)
        .status()
        .expect("a C compiler (cc) runs");
    assert!(status.success());
}

#[test]
fn a_binary_benchmarks_change_is_explained_too() {
    const BIN_BENCH: &str = env!("CARGO_BIN_EXE_e2e_bin");
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let program = home.path().join("deep");
    let env = [("E2E_C_PROGRAM", program.to_str().unwrap())];
    let filter = "programs::c_program";
    compile(home.path(), &program, 0);
    let first = run(BIN_BENCH, &[&h, filter], home.path(), &env);
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    compile(home.path(), &program, 500);
    let second = run(BIN_BENCH, &[&h, filter], home.path(), &env);
    let report = stdout(&second);
    println!("{report}");
    assert_eq!(second.status.code(), Some(0), "{report}");
    let header = "e2e_bin::programs::c_program";
    let rows = explanation(&report, header);
    let Row::Function(diff, name) = &rows[0] else {
        panic!("{rows:?}")
    };
    assert!(name.starts_with("helper "), "{rows:?}");
    assert_eq!(*diff, instructions_diff(&report, header), "{rows:?}");
    assert!(
        rows.iter()
            .any(|r| matches!(r, Row::Line(d, at) if *d == *diff && at.ends_with("/deep.c:5"))),
        "the C source line of the loop, with all of the change: {rows:?}"
    );
    assert!(adds_up(&rows), "{rows:?}");
}
