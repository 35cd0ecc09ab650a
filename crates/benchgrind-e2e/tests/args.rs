//! The measured window holds the benchmark function's own execution only (issue 13): arguments
//! passed in registers, on the stack, by hidden pointer, as `String`, `Vec` and 4 KiB arrays are
//! in place before it opens, an argument the function does not consume is dropped at the end of
//! its body, inside the window, as Rust drops a function's arguments (and as iai-callgrind and
//! gungraun count them), and the function's own work (a loop on registers included) is all
//! inside it. Real Valgrind on `e2e_args`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{blocks, run, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_e2e_args");

/// Instructions per benchmark, keyed by the function name (and id, when it has one).
fn instructions(home: &Path, extra: &[&str]) -> BTreeMap<String, u64> {
    let home_arg = format!("--home={}", home.display());
    let mut args = vec![home_arg.as_str()];
    args.extend_from_slice(extra);
    let output = run(BIN, &args, home, &[]);
    let report = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{report}");
    blocks(&report)
        .into_iter()
        .map(|b| {
            let name = b.header.split_whitespace().next().unwrap();
            let name = name.trim_start_matches("e2e_args::args_group::").to_owned();
            (name, b.get("Instructions"))
        })
        .collect()
}

#[test]
fn arguments_of_every_kind_cost_nothing_in_the_window() {
    let home = tempfile::tempdir().unwrap();
    let counts = instructions(home.path(), &[]);
    let count = |name: &str| counts[name];
    // Each benchmark with arguments against its twin without: the difference is the function's
    // own work on them (one load or one `xor`), never a copy of them.
    for (with, without) in [
        ("arrays", "arrays_none"),
        ("registers", "registers_none"),
        ("stack", "registers_none"),
        ("string", "string_dropped"),
        ("vec", "vec_dropped"),
        ("page", "len_none"),
    ] {
        let (a, b) = (count(with), count(without));
        assert!(
            a.abs_diff(b) <= 2,
            "{with} counts {a}, {without} counts {b}: more than 2 apart\n{counts:?}"
        );
    }
    // Dropping the `String` (free: about 100 instructions) happens inside the window.
    assert!(count("string") > count("len_none") + 50, "{counts:?}");
    // The loop of 111 steps is all inside the window, none of it moved out.
    assert!(count("collatz") > 111 * 4, "{counts:?}");
    // Filling a 4 KiB return value is the function's work; copying it out is not.
    assert!(
        (4096 / 8..5000).contains(&count("returns_page")),
        "{counts:?}"
    );
}

#[test]
fn the_same_with_the_cache_simulation_off() {
    // Without the cache simulation Callgrind also counts the block of the closing request (and
    // counts a `rep` instruction once, not per repetition): the counts move by a few
    // instructions, the twins by the same, and they stay within 2 of each other.
    let home = tempfile::tempdir().unwrap();
    let on = instructions(home.path(), &[]);
    let off = instructions(home.path(), &["--callgrind-args=--cache-sim=no"]);
    let shift = off["registers_none"] - on["registers_none"];
    assert!(shift <= 8, "{on:?}\n{off:?}");
    for name in [
        "arrays",
        "arrays_none",
        "registers",
        "stack",
        "string",
        "vec",
        "page",
    ] {
        assert_eq!(off[name], on[name] + shift, "{name}\n{on:?}\n{off:?}");
    }
    assert!(
        off["collatz"].abs_diff(on["collatz"] + shift) <= 1,
        "{on:?}\n{off:?}"
    );
}

#[test]
fn the_window_is_inside_the_benchmark_function() {
    // Callgrind attributes the window's instructions to the benchmark function itself, the
    // frame that `benchgrind explain` and the flamegraphs show.
    let home = tempfile::tempdir().unwrap();
    instructions(home.path(), &["e2e_args::args_group::collatz"]);
    let out = home
        .path()
        .join("benchgrind-e2e/e2e_args/args_group/collatz.n27/callgrind.out");
    let text = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let functions: Vec<&str> = text.lines().filter(|l| l.starts_with("fn=")).collect();
    assert_eq!(functions.len(), 1, "{text}");
    assert!(functions[0].ends_with("e2e_args::collatz"), "{text}");
}
