//! The other Valgrind tools and flamegraphs, end to end on `e2e_tools` under real Valgrind.

mod common;

use std::path::{Path, PathBuf};

use common::{blocks, run, stdout, Block};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_tools");
const MIB: u64 = 1 << 20;

fn home_arg(home: &Path) -> String {
    format!("--home={}", home.display())
}

fn bench_dir(home: &Path, group: &str, leaf: &str) -> PathBuf {
    home.join("benchgrind-e2e/e2e_tools").join(group).join(leaf)
}

fn block<'a>(blocks: &'a [Block], header_part: &str) -> &'a Block {
    blocks
        .iter()
        .find(|b| b.header.contains(header_part))
        .unwrap_or_else(|| panic!("no block `{header_part}` in {blocks:?}"))
}

fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/summary.v7.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(json: &serde_json::Value) {
    let validator = schema();
    let errors: Vec<String> = validator.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?} in {json}");
}

/// The process-wide `Total: N bytes` line of DHAT's log.
fn dhat_log_total(log: &str) -> u64 {
    let line = log
        .lines()
        .find(|l| l.contains("Total:"))
        .expect("DHAT's log has a Total line");
    let number = line.split("Total:").nth(1).unwrap().trim();
    number
        .split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn dhat_counts_the_benchmarks_mebibyte_and_not_its_setups_ten() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let first = run(
        BIN,
        &[&h, "--save-summary", "alloc_one_mib"],
        home.path(),
        &[],
    );
    let report = stdout(&first);
    assert_eq!(first.status.code(), Some(0), "{report}");
    let all = blocks(&report);
    let b = block(&all, "alloc_one_mib");
    let total = b.get("Total bytes");
    assert!(
        total.abs_diff(MIB) * 100 <= MIB,
        "DHAT total bytes {total} is not within 1% of 1 MiB\n{report}"
    );
    assert_eq!(b.get("Total blocks"), 1, "{report}");
    assert_eq!(
        b.get("Writes bytes"),
        MIB,
        "vec![1u8; 1 MiB] writes each byte once"
    );

    let dir = bench_dir(home.path(), "memory", "alloc_one_mib.one_mib");
    // Without the restriction DHAT's own total holds setup's 10 MiB and the harness' bytes.
    let log = std::fs::read_to_string(dir.join("dhat.log")).unwrap();
    assert!(dhat_log_total(&log) > 11 * MIB, "{log}");
    assert!(dir.join("dhat.out").is_file());
    assert!(dir.join("massif.out").is_file());
    // Massif cannot tell setup's heap from the benchmark's: its peak holds both.
    assert!(b.get("Peak heap bytes") >= 11 * MIB, "{report}");

    let json = summary(&dir);
    assert_valid(&json);
    assert_eq!(json["tools"]["dhat"]["metrics"]["TotalBytes"]["new"], total);
    assert_eq!(json["tools"]["dhat"]["status"], "ok");
    assert_eq!(
        json["tools"]["dhat"]["out"],
        dir.join("dhat.out").display().to_string()
    );

    // The second run compares with the first, and a hard limit on a DHAT metric fails the run.
    let second = run(
        BIN,
        &[&h, "--regression=totalbytes<=1000", "alloc_one_mib"],
        home.path(),
        &[],
    );
    let report = stdout(&second);
    assert_eq!(second.status.code(), Some(3), "{report}");
    let all = blocks(&report);
    let b = block(&all, "alloc_one_mib");
    let line = b.metrics.iter().find(|m| m.0 == "Total bytes").unwrap();
    assert_eq!(
        (line.2.as_str(), line.3.as_str()),
        (&*MIB.to_string(), "(No change)")
    );
    assert!(
        report.contains("DHAT Total bytes is 1048576, past the hard limit of 1000"),
        "{report}"
    );
    assert!(dir.join("dhat.out.old").is_file());
}

#[test]
fn dhat_finds_the_window_when_the_benchmark_ends_in_a_call() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let out = run(BIN, &[&h, "alloc_in_tail_call"], home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let all = blocks(&report);
    let b = block(&all, "alloc_in_tail_call");
    assert_eq!(b.get("Total bytes"), 4096, "{report}");
    // Written as a tail call, but the window inside the function keeps its frame (a jump out of
    // it would skip the closing request): it is on the allocation's stack, under the callee.
    let dir = bench_dir(home.path(), "memory", "alloc_in_tail_call.four_kib");
    let dhat: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("dhat.out")).unwrap()).unwrap();
    let frames = dhat["ftbl"].as_array().unwrap();
    let pp = dhat["pps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pp| pp["tb"] == 4096)
        .expect("the 4 KiB allocation");
    let stack: Vec<&str> = pp["fs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| frames[i.as_u64().unwrap() as usize].as_str().unwrap())
        .collect();
    let frame = |name: &str| stack.iter().position(|f| f.contains(name));
    let callee = frame("e2e_tools::fill_and_drop (").expect("the callee's frame");
    let own = frame("e2e_tools::alloc_in_tail_call (").expect("the benchmark's frame");
    assert!(callee < own, "{stack:?}");
}

#[test]
fn memcheck_errors_fail_the_benchmark_unless_the_exit_code_is_zero() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let out = run(
        BIN,
        &[&h, "--save-summary", "read_uninit"],
        home.path(),
        &[],
    );
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let all = blocks(&report);

    let failing = block(&all, "read_uninit eight_words");
    assert_eq!(failing.get("Errors"), 1, "{report}");
    let reason = failing.failed.as_deref().expect("the benchmark failed");
    assert_eq!(
        reason,
        "Memcheck found 1 error in 1 context (exited with code 201)"
    );
    let dir = bench_dir(home.path(), "memory", "read_uninit.eight_words");
    let log = dir.join("memcheck.log.new");
    assert!(
        report.contains(&format!(
            "FAILED e2e_tools::memory::read_uninit::eight_words: {reason} (log: {})",
            log.display()
        )),
        "{report}"
    );
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("Use of uninitialised value"),
        "{log_text}"
    );
    assert!(log_text.contains("e2e_tools::read_uninit"), "{log_text}");
    let json = summary(&dir);
    assert_valid(&json);
    assert_eq!(json["status"], "failed");
    assert_eq!(json["tools"]["memcheck"]["status"], "failed");
    assert_eq!(json["tools"]["memcheck"]["metrics"]["Errors"]["new"], 1);

    let tolerated = block(&all, "read_uninit tolerated");
    assert_eq!(tolerated.failed, None, "{report}");
    assert_eq!(tolerated.get("Errors"), 1, "the error is still counted");
    let dir = bench_dir(home.path(), "memory", "read_uninit.tolerated");
    assert_eq!(summary(&dir)["status"], "ok");
    assert!(report.contains("1 measured, 1 failed"), "{report}");
}

#[test]
fn the_harness_in_the_measured_process_is_clean_under_every_error_tool() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    // --tools adds DHAT to the code's Memcheck, Helgrind and DRD.
    let out = run(
        BIN,
        &[&h, "--tools=dhat", "--output-format=json", "clean"],
        home.path(),
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_valid(&json);
    for tool in ["memcheck", "helgrind", "drd"] {
        assert_eq!(json["tools"][tool]["metrics"]["Errors"]["new"], 0, "{tool}");
    }
    // 1000 u64 collected into a Vec: one allocation of 8000 bytes.
    assert_eq!(json["tools"]["dhat"]["metrics"]["TotalBytes"]["new"], 8000);
}

/// `(title, fg:w, y)` of every frame of an inferno SVG.
fn frames(svg: &str) -> Vec<(String, u64, i64)> {
    svg.split("<g><title>")
        .skip(1)
        .map(|part| {
            let title = part.split("</title>").next().unwrap().to_owned();
            let attr = |name: &str| {
                let start = part.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                part[start..].split('"').next().unwrap().to_owned()
            };
            (
                title,
                attr("fg:w").parse().unwrap(),
                attr("y").parse().unwrap(),
            )
        })
        .collect()
}

/// The inclusive cost Callgrind recorded for calls from `caller` to `callee`.
fn call_cost(profile: &str, caller: &str, callee: &str) -> u64 {
    let mut names = std::collections::HashMap::new();
    let mut name_of = |value: &str| -> String {
        let value = value.trim();
        match value.strip_prefix('(').and_then(|r| r.split_once(')')) {
            Some((id, name)) if !name.trim().is_empty() => {
                names.insert(id.to_owned(), name.trim().to_owned());
                name.trim().to_owned()
            }
            Some((id, _)) => names[id].clone(),
            None => value.to_owned(),
        }
    };
    let (mut current, mut target, mut in_call, mut sum) = (String::new(), String::new(), false, 0);
    for line in profile.lines() {
        if let Some(v) = line.strip_prefix("fn=") {
            current = name_of(v);
        } else if let Some(v) = line.strip_prefix("cfn=") {
            target = name_of(v);
        } else if line.starts_with("calls=") {
            in_call = true;
            continue;
        } else if in_call && current == caller && target == callee {
            sum += line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<u64>()
                .unwrap();
        }
        in_call = false;
    }
    sum
}

#[test]
fn a_fibonacci_flamegraph_adds_up_to_the_reported_instructions() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let out = run(BIN, &[&h, "bench_fibonacci"], home.path(), &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let ir = block(&blocks(&report), "bench_fibonacci").get("Instructions");

    let dir = bench_dir(home.path(), "flame", "bench_fibonacci.short");
    let svg = std::fs::read_to_string(dir.join("callgrind.Ir.flamegraph.svg")).unwrap();
    let frames = frames(&svg);
    let all = frames.iter().find(|f| f.0.starts_with("all ")).unwrap();
    assert_eq!(all.1, ir, "{frames:?}");
    // The frames next to `all` (above it in a flamegraph, below it in the default icicle).
    let roots: u64 = frames
        .iter()
        .filter(|f| f.2.abs_diff(all.2) == 16)
        .map(|f| f.1)
        .sum();
    assert_eq!(
        roots, ir,
        "the root frames' widths add up to Ir: {frames:?}"
    );

    // Real, demangled names: the outermost fibonacci frame is exactly Callgrind's inclusive
    // cost of the call from the benchmark function.
    assert!(!svg.contains("_ZN"), "mangled names in the SVG");
    let fib: Vec<_> = frames
        .iter()
        .filter(|f| f.0.starts_with("e2e_tools::fibonacci ("))
        .collect();
    assert!(fib.len() >= 2, "fibonacci and its recursion: {frames:?}");
    let outermost = fib.iter().min_by_key(|f| f.2.abs_diff(all.2)).unwrap();
    let profile = std::fs::read_to_string(dir.join("callgrind.out")).unwrap();
    let inclusive = call_cost(
        &profile,
        "e2e_tools::bench_fibonacci",
        "e2e_tools::fibonacci",
    );
    assert_eq!(outermost.1, inclusive, "{frames:?}");
    assert!(inclusive > 0 && inclusive < ir);
}

#[test]
fn a_differential_flamegraph_shows_the_changed_function() {
    let home = tempfile::tempdir().unwrap();
    let h = home_arg(home.path());
    let first = run(
        BIN,
        &[&h, "fibonacci_and_extra"],
        home.path(),
        &[("E2E_EXTRA", "100")],
    );
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    let dir = bench_dir(home.path(), "flame", "fibonacci_and_extra.with_extra");
    assert!(
        !dir.join("callgrind.Ir.diff.flamegraph.svg").exists(),
        "nothing to compare with on a first run"
    );
    let second = run(
        BIN,
        &[&h, "fibonacci_and_extra"],
        home.path(),
        &[("E2E_EXTRA", "1000")],
    );
    let report = stdout(&second);
    assert_eq!(second.status.code(), Some(0), "{report}");
    let ir = block(&blocks(&report), "fibonacci_and_extra").get("Instructions");

    let svg = std::fs::read_to_string(dir.join("callgrind.Ir.diff.flamegraph.svg")).unwrap();
    let frames = frames(&svg);
    let all = frames.iter().find(|f| f.0.starts_with("all ")).unwrap();
    assert_eq!(all.1, ir);
    // inferno appends each frame's change of its own cost: only extra_work's is not zero.
    let changed: Vec<&str> = frames
        .iter()
        .filter(|f| !f.0.starts_with("all ") && !f.0.ends_with("; 0.00%)"))
        .map(|f| f.0.as_str())
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(
        changed[0].starts_with("e2e_tools::extra_work ("),
        "{changed:?}"
    );
    assert!(changed[0].contains("; +"), "it grew: {changed:?}");
}
