//! Benchmark code written for iai-callgrind, built against benchgrind and run under real
//! Valgrind: generic benchmark functions and the 0.13/0.14 configuration items (`compat_lib`,
//! `compat_bin`), a tour of the binary benchmark API (`compat_bin_tour`), and the seed examples
//! of the 0.1 and 0.10 APIs. Every bench binary runs twice: the second run must report no change.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

#[test]
fn generic_functions_and_the_0_13_config_items_run() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_lib", HERE);
    let expected = [
        // Cut after 50 characters, iai-callgrind's default.
        "compat_lib::generics::bench_clone strings:vec![(String::from(\"apple\"), 1u32), \
         (String::from(...",
        "compat_lib::generics::bench_clone bytes:vec![(vec![1u8, 2, 3], 'a'), (vec![1, 2, 4], \
         'b')]...",
        "compat_lib::generics::bench_split words:\"the quick brown fox jumps over the lazy dog\"",
        "compat_lib::generics::bench_split temporary:&\"a b\".repeat(20)",
        "compat_lib::generics::bench_sum small:vec![1u8, 2, 3, 4]",
        "compat_lib::generics::bench_sum wide:vec![1u64, 2, 3, 4]",
        "compat_lib::generics::bench_array_args pair:3u64, 4",
        "compat_lib::generics::bench_array_args parens:5u64, 6",
        "compat_lib::generics::bench_setup_array with_setup:make_pair(3, 4)",
        "compat_lib::generics::bench_array_value whole:[1u32, 2, 3]",
        // `file` with a setup: each line inside the setup's call.
        "compat_lib::generics::bench_lines lines_0:line_length(plum.txt;purple)",
        "compat_lib::generics::bench_lines lines_1:line_length(fig.txt;green and soft)",
        "compat_lib::generics::bench_lines lines_2:line_length(quince.txt;yellow, hard, fragrant)",
        "compat_lib::configs::bench_entry_point fib:10",
        "compat_lib::configs::bench_default_window fib:10",
        // truncate_description(Some(12)) at function level.
        "compat_lib::configs::bench_configured long_description:String::from...",
        // output_format(OutputFormat::default().truncate_description(None)).
        "compat_lib::configs::bench_output_format full_description:String::from(\"this description \
         is not cut even though it is long\")",
        "compat_lib::configs::bench_child_process",
        // A group re-exported from a module by name.
        "compat_lib::inner_group::bench_square three:3",
    ];
    assert_eq!(headers(&blocks), expected, "{report}");
    // The entry point leaves out the noise that the default window counts.
    let entry = find(&blocks, "compat_lib::configs::bench_entry_point fib:10").get("Instructions");
    let window =
        find(&blocks, "compat_lib::configs::bench_default_window fib:10").get("Instructions");
    assert!(
        entry + 1000 < window,
        "entry point {entry}, window {window}"
    );
    // And it is exactly the entry point's inclusive cost in the default window's profile.
    let (home, output) = run_exact(
        "compat_lib",
        "compat_lib::configs::bench_default_window::fib",
    );
    assert!(output.status.success());
    let profile = home
        .path()
        .join("benchgrind-compat-tests/compat_lib/configs/bench_default_window.fib/callgrind.out");
    let text = std::fs::read_to_string(&profile).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Names are written in full (`--compress-strings=no`): the call of `fibonacci_entry`.
    let call = lines
        .iter()
        .position(|l| l.starts_with("cfn=") && l.ends_with("fibonacci_entry"))
        .unwrap_or_else(|| panic!("no call of fibonacci_entry in\n{text}"));
    assert!(lines[call + 1].starts_with("calls=1 "), "{text}");
    let inclusive: u64 = lines[call + 2]
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(entry, inclusive, "{text}");
    // with_raw_callgrind_args(["--branch-sim=yes"]) adds the branch events.
    assert!(find(&blocks, expected[15]).get("Bc") > 0);
    // callgrind_args(["--simulate-wb=yes"]) adds 0.13's write-back events.
    let _ = find(&blocks, expected[15]).get("DLdmw");
    // main!'s setup runs before the first benchmark and its teardown after the last.
    let setup = report.find("main setup ran").expect("main setup printed");
    let teardown = report
        .find("main teardown ran")
        .expect("main teardown printed");
    assert!(setup < report.find(expected[0]).unwrap());
    assert!(teardown > report.find(expected[16]).unwrap());
    // tool_override replaces the group's Memcheck with DHAT; tools_override([]) drops it.
    let section = |header: &str| {
        let start = report.find(header).unwrap();
        let end = report[start + 1..]
            .find("\ncompat_lib::")
            .map_or(report.len(), |e| start + 1 + e);
        report[start..end].to_owned()
    };
    assert!(section(expected[13]).contains("MEMCHECK"));
    let configured = section(expected[15]);
    assert!(configured.contains("DHAT") && !configured.contains("MEMCHECK"));
    let format = section(expected[16]);
    assert!(!format.contains("DHAT") && !format.contains("MEMCHECK"));
    // `show_intermediate(true)` shows the benchmark's one thread under the total.
    assert!(format.contains("  ## thread 1\n"), "{format}");
    assert!(!section(expected[15]).contains("## thread"));
}

#[test]
fn binary_items_of_0_13_and_0_14_run() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_bin", HERE);
    assert_same_headers(
        &blocks,
        &[
            "compat_bin::attribute_group::bench_echo cut:(\"a long...",
            "compat_bin::attribute_group::bench_delay waits:() -> target/release/read-file \
             ready.txt ready",
            "compat_bin::attribute_group::bench_delay_config config:() -> target/release/read-file \
             ready.txt ready",
            "compat_bin::attribute_group::bench_generic generic:(\"generic\") -> \
             target/release/echo generic",
            "compat_bin::attribute_group::bench_array_args array:(2, false, \"w\") -> \
             target/release/echo 2 false w",
            "compat_bin::attribute_group::bench_one_line one_line:(\"x\") -> target/release/echo x",
            "compat_bin::low_level_group::bench_echo cut:(\"a long...",
            "compat_bin::low_level_group::echo_ids words_2:() -> target/release/echo one two",
            "compat_bin::low_level_group::misnamed nowhere:() -> target/release/echo one",
            // Filled by a function returning `()`.
            "compat_bin::function_group::from_fn hello:() -> target/release/echo hello",
        ],
        &report,
    );
    // The entry point counts echo's main only, not the process's start-up.
    let whole = find(
        &blocks,
        "compat_bin::attribute_group::bench_echo cut:(\"a long...",
    )
    .get("Instructions");
    // (The program's path in the header depends on where the target directory is.)
    let main_only = blocks
        .iter()
        .find(|b| {
            b.header
                .starts_with("compat_bin::low_level_group::echo_ids words_2:")
        })
        .unwrap()
        .get("Instructions");
    assert!(main_only * 10 < whole, "{main_only} vs {whole}");
}

#[test]
fn the_binary_api_tour_runs() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_bin_tour", HERE);
    // Every benchmark's checks passed (a failing one fails the run, which `run` asserts): the
    // teardowns read what the commands left, the fixtures were in the sandbox, the piped
    // command saw the setup's output, `has-env` saw the most specific level's variable.
    let expected = [
        "echoes::bare () -> target/release/echo",
        "echoes::single alone:(\"lily\") -> target/release/echo lily",
        "echoes::single several_0:(\"rose\") -> target/release/echo rose",
        "echoes::single several_1:(\"daisy\") -> target/release/echo daisy",
        "echoes::main_level () -> target/release/has-env TOUR_LEVEL main",
        "files::check_file called:(\"note.txt\", \"written by the setup\") -> target/rel...",
        "files::check_file by_path:(\"p.txt\", \"path setup\") -> target/release/read-fil...",
        "files::check_file pairs_0:(\"x.txt\", \"ex\") -> target/release/read-file x.txt ...",
        "files::check_file pairs_1:(\"y.txt\", \"why\") -> target/release/read-file y.txt...",
        // The file's lines are passed as `String`s.
        "files::from_lines orchard_0:(String::from(\"plum.txt;purple\")) -> target/releas...",
        "files::from_lines orchard_1:(String::from(\"fig.txt;green and soft\")) -> target...",
        "files::from_lines orchard_2:(String::from(\"quince.txt;yellow, hard, fragrant\")...",
        "files::fixture shelf:(\"tour/shelf.txt\", \"first shelf\\n\") -> target/rele...",
        "files::fixture count:(\"tour/count.txt\", \"seven\\n\") -> target/release/re...",
        "pipes::piped hello:(\"hello\") -> target/release/pipe",
        "pipes::piped goodbye:(\"goodbye\") -> target/release/pipe",
        "group_level::seen_level function_level:(\"function\") -> target/release/has-env \
         TOUR_LEVEL ...",
        "group_level::seen_level bench_level:(\"bench\") -> target/release/has-env TOUR_LEVEL \
         ben...",
        "group_level::group_default group_level:(\"group\") -> target/release/has-env \
         TOUR_LEVEL gro...",
        "low_level::by_hand benchmark_setup:() -> target/release/read-file low.txt 'made by th...",
        "low_level::by_hand bench_setup:() -> target/release/read-file bench.txt 'made by ...",
        "low_level::levels function:() -> target/release/has-env TOUR_LEVEL function",
        "low_level::levels bench:() -> target/release/has-env TOUR_LEVEL bench",
        "low_level::several_commands numbered_0:() -> target/release/echo one",
        "low_level::several_commands numbered_1:() -> target/release/echo two",
    ]
    .map(|h| format!("compat_bin_tour::{h}"));
    assert_same_headers(&blocks, &expected, &report);
    // The programs were found in this workspace, and shown relative to it.
    let root = Path::new(HERE).parent().unwrap().to_str().unwrap();
    assert!(!report.contains(&format!("{root}/target/")), "{report}");
}

#[test]
fn seed_000s_plain_functions_are_named_by_the_function() {
    let examples = Path::new(HERE).parent().unwrap().join("examples");
    let examples = examples.to_str().unwrap();
    let (report, blocks) = run_twice("benchgrind-examples", "seed000_quickstart", examples);
    assert_eq!(
        headers(&blocks),
        ["iai_benchmark_short", "iai_benchmark_long"],
        "{report}"
    );
    // fibonacci(10) and fibonacci(30): the seed shows 1732 and 26214732 instructions, the
    // measured window adds a few.
    let short = blocks[0].get("Instructions");
    let long = blocks[1].get("Instructions");
    assert!((1700..1800).contains(&short), "{short}");
    assert!((26_214_700..26_214_800).contains(&long), "{long}");
}

#[test]
fn groups_given_to_main_under_aliases_run_under_them() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_aliases", HERE);
    assert_eq!(
        headers(&blocks),
        [
            "compat_aliases::squares::area seven:7",
            "compat_aliases::circles::area seven:7"
        ],
        "{report}"
    );
}

/// The instructions of the one bench of `function` in `group` (`file::group`).
fn instructions_of(blocks: &[Block], report: &str, group: &str, function: &str) -> u64 {
    let prefix = format!("{group}::{function} ");
    blocks
        .iter()
        .find(|b| b.header.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {function}\n{report}"))
        .get("Instructions")
}

#[test]
fn parts_of_an_argument_no_name_binds_are_dropped_in_the_window() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_patterns", HERE);
    let count = |name: &str| instructions_of(&blocks, &report, "compat_patterns::patterns", name);
    let (wild, named) = (count("wild"), count("named"));
    let (rest, all_named) = (count("rest"), count("all_named"));
    // The vector's drop (free: 100 instructions) is in all four.
    assert!(named >= 100, "{report}");
    assert!(wild.abs_diff(named) <= 2, "{wild} vs {named}\n{report}");
    assert!(
        rest.abs_diff(all_named) <= 2,
        "{rest} vs {all_named}\n{report}"
    );
}

#[test]
fn arguments_by_value_cost_what_a_word_costs_whatever_their_size() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_by_value", HERE);
    let count = |name: &str| instructions_of(&blocks, &report, "compat_by_value::by_value", name);
    for (word, others) in [
        ("word", ["four_words", "sixty_four_bytes"]),
        ("word_ref", ["four_words_ref", "sixty_four_bytes_ref"]),
    ] {
        for other in others {
            let (w, o) = (count(word), count(other));
            assert!(o <= w + 1, "{other} {o} vs {word} {w}\n{report}");
        }
    }
}

#[test]
fn a_file_that_expects_unused_qualifications_builds_without_a_warning() {
    // The bench denies unmet expectations, so it does not build without the lint it expects.
    let (exe, messages) =
        bench_binary_with("benchgrind-compat-tests", "compat_expect", &["lint-expect"]);
    assert!(messages.is_empty(), "{messages}");
    let home = tempfile::tempdir().unwrap();
    let report = run(&exe, home.path(), HERE, &[]);
    assert_eq!(
        headers(&blocks(&report)),
        [
            "compat_expect::expecting::top_level ten:10",
            "compat_expect::inner_group::no_arguments",
        ],
        "{report}"
    );
}

#[test]
fn the_keyed_plain_function_form_takes_callgrind_args() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_plain", HERE);
    assert_eq!(
        headers(&blocks),
        ["bench_fibonacci_short", "bench_empty"],
        "{report}"
    );
    // `callgrind_args = "--branch-sim=yes"` adds the branch events.
    assert!(blocks[0].get("Bc") > 0, "{report}");
    assert!(blocks[1].get("Instructions") < blocks[0].get("Instructions"));
}

#[test]
fn older_binary_groups_run_hooks_fixtures_and_options() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_legacy", HERE);
    assert_eq!(
        headers(&blocks),
        [
            "compat_legacy::legacy_group reads setup:read-file setup.txt \"from setup\"",
            "compat_legacy::legacy_group reads fixture:read-file fixtures/orchard.inputs \"pl...",
            "compat_legacy::legacy_group wrong content:read-file setup.txt other",
            "compat_legacy::legacy_group echo_1:echo x",
            "compat_legacy::legacy_group echo_2:echo x x",
            "compat_legacy::no_sandbox package dir:read-file benches/fixtures/orchard.in...",
        ],
        "{report}"
    );
    // `before` runs once before the group's first benchmark, `after` once after its last.
    let before = report.find("legacy before ran").expect("before printed");
    let after = report.find("legacy after ran").expect("after printed");
    assert!(before < report.find(&blocks[0].header).unwrap());
    assert!(after > report.find(&blocks[4].header).unwrap());
    assert!(after < report.find(&blocks[5].header).unwrap());
    assert_eq!(report.matches("legacy before ran").count(), 1);
}

#[test]
fn hooks_given_bench_true_are_measured_where_and_when_they_run() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let envs = [("COMPAT_HOOK_LOG", log.as_path())];
    let (report, blocks) =
        run_twice_with("benchgrind-compat-tests", "compat_bench_hooks", HERE, &envs);
    let group = "compat_bench_hooks::hooks";
    assert_eq!(
        headers(&blocks),
        [
            format!("{group} before:run_before"),
            format!("{group} setup:run_setup"),
            format!("{group} reads setup:read-file setup.txt \"from setup\""),
            format!("{group} again:read-file setup.txt \"from setup\""),
            format!("{group} teardown:run_teardown"),
            format!("{group} after:run_after"),
        ],
        "{report}"
    );
    // A hook's window holds the hook alone: thousands of instructions, where the command (a
    // whole process) counts hundreds of thousands.
    for block in [&blocks[0], &blocks[1], &blocks[4], &blocks[5]] {
        let ir = block.get("Instructions");
        assert!((1_000..50_000).contains(&ir), "{}: {ir}", block.header);
    }
    assert!(blocks[2].get("Instructions") > 100_000, "{report}");
    // Per run, one at a time and all in the group's sandbox (not the package's directory), as
    // 0.10 ran them: `before` first, `setup` measured, each command between its setup and
    // teardown, the measured `teardown` after a setup, `after` last (`setup` checks the file
    // `before` wrote, `teardown` the one `setup` wrote).
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
    let order = [
        "before", "setup", "setup", "teardown", "setup", "teardown", "setup", "teardown", "after",
    ];
    assert_eq!(lines.len(), 2 * order.len(), "{text}");
    for run in lines.chunks(order.len()) {
        let names: Vec<&str> = run.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, order, "{text}");
        assert!(run.iter().all(|(_, dir)| *dir == run[0].1), "{text}");
        assert_ne!(run[0].1, HERE, "{text}");
    }
    assert_ne!(
        lines[0].1,
        lines[order.len()].1,
        "a new sandbox per run: {text}"
    );
}

#[test]
fn a_filter_that_leaves_out_the_measured_hooks_still_runs_them_in_the_shared_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let exe = bench_binary("benchgrind-compat-tests", "compat_bench_hooks");
    let output = Command::new(&exe)
        .args(["--bench", "reads"])
        .arg(format!("--home={}", dir.path().join("home").display()))
        .current_dir(HERE)
        .env("COMPAT_HOOK_LOG", &log)
        .env("BENCHGRIND_COLOR", "never")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{report}");
    assert_eq!(
        headers(&blocks(&report)),
        ["compat_bench_hooks::hooks reads setup:read-file setup.txt \"from setup\""]
    );
    // `before` and `after` are called by the harness, unmeasured, in the group's sandbox (the
    // setup checks the file `before` wrote there).
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
    let names: Vec<&str> = lines.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["before", "setup", "teardown", "after"], "{text}");
    assert!(
        lines.iter().all(|(_, d)| *d == lines[0].1 && *d != HERE),
        "{text}"
    );
}

#[test]
fn seed_002s_library_quickstart_counts_as_the_seed_shows() {
    let examples = Path::new(HERE).parent().unwrap().join("examples");
    let examples = examples.to_str().unwrap();
    let (report, blocks) = run_twice("benchgrind-examples", "seed002_lib_quickstart", examples);
    let group = "seed002_lib_quickstart::bench_fibonacci_group";
    assert_eq!(
        headers(&blocks),
        [
            format!("{group}::bench_fibonacci short:10"),
            format!("{group}::bench_fibonacci long:30"),
            format!("{group}::bench_fibonacci_alternative short:10"),
        ],
        "{report}"
    );
    // The seed shows 1733 and 26214733 instructions.
    let short = blocks[0].get("Instructions");
    let long = blocks[1].get("Instructions");
    assert!((1700..1800).contains(&short), "{short}");
    assert!((26_214_700..26_214_800).contains(&long), "{long}");
}

#[test]
fn the_main_run_form_runs_every_id_with_options_hooks_and_fixtures() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_main_run", HERE);
    assert_eq!(
        headers(&blocks),
        [
            "compat_main_run hello:echo hello world",
            "compat_main_run empty:echo",
            // The per-command setup wrote this file into the sandbox.
            "compat_main_run setup_file:read-file setup.txt \"from setup\"",
            // The fixtures were copied into the sandbox.
            "compat_main_run fixture:read-file fixtures/orchard.inputs \"pl...",
            // `args` without an id are numbered.
            "compat_main_run 0:echo no id",
            "compat_main_run 1:echo",
            // `teardown = check_setup_file, bench = true`: measured after a setup, in a sandbox.
            "compat_main_run teardown:check_setup_file",
        ],
        "{report}"
    );
    // `options = "--branch-sim=yes"` reached Callgrind.
    assert!(blocks.iter().all(|b| b.get("Bc") > 0), "{report}");
    assert_eq!(report.matches("main run before ran").count(), 1);
}

#[test]
fn seed_002s_binary_groups_run_as_the_seed_shows() {
    let examples = Path::new(HERE).parent().unwrap().join("examples");
    let examples = examples.to_str().unwrap();
    let (report, blocks) = run_twice("benchgrind-examples", "seed002_printargs", examples);
    assert_eq!(
        headers(&blocks),
        [
            "seed002_printargs::my_exe_group do foo with test1:benchmark-tests-printargs \
             \"--foo=fixt...",
            "seed002_printargs::my_exe_group positional arguments:benchmark-tests-printargs foo \
             \"foo ba...",
            "seed002_printargs::my_exe_group no argument:benchmark-tests-printargs",
        ],
        "{report}"
    );
    // The entry point (`benchmark_tests_printargs::main`) leaves the start-up out.
    assert!(blocks[1].get("Instructions") * 10 < blocks[2].get("Instructions"));
    for (name, header) in [
        (
            "seed002_run_cmd",
            "seed002_run_cmd::my_exe_group some id:my-exe",
        ),
        (
            "seed002_exit_with",
            "seed002_exit_with::my_exe_group some id:my-exe",
        ),
        ("seed002_envs", "seed002_envs::my_exe_group some id:my-exe"),
    ] {
        let (report, blocks) = run_twice("benchgrind-examples", name, examples);
        assert_eq!(headers(&blocks), [header], "{report}");
    }
}

#[test]
fn bodies_of_every_shape_run_in_the_window() {
    let (report, blocks) = run_twice("benchgrind-compat-tests", "compat_bodies", HERE);
    assert_eq!(blocks.len(), 16, "{report}");
    let count = |header: &str| find(&blocks, header).get("Instructions");
    // Recursion: the outermost call's window holds all six calls.
    assert!(
        count("compat_bodies::bodies::recursive five:5") > 6 * 5,
        "{report}"
    );
    // An argument the body consumes is dropped (freed) inside the window; one it only
    // mutates is dropped after it.
    assert!(
        count("compat_bodies::bodies::consumes dropped:vec![0u8; 64]") > 50,
        "{report}"
    );
    assert!(count("compat_bodies::bodies::unit_body") < 10, "{report}");
    // `?` leaves early: the error path stops before the addition and its `Ok`.
    assert_ne!(
        count("compat_bodies::bodies::question_mark number:\"1234\""),
        count("compat_bodies::bodies::question_mark not_a_number:\"12x\""),
        "{report}"
    );
}

#[test]
fn an_edition_2018_crate_returns_borrows_of_mut_parameters() {
    let (report, blocks) = run_twice("benchgrind-compat-2018", "compat_edition2018", HERE);
    assert_eq!(
        headers(&blocks),
        [
            "compat_edition2018::edition2018::borrows_from_mut first:&mut vec![5u8, 6]",
            "compat_edition2018::edition2018::two_mut both:&mut 1u8, &mut 2u8",
            "compat_edition2018::edition2018::impl_and_coercion",
            "compat_edition2018::edition2018::boxed_error number:\"42\"",
        ],
        "{report}"
    );
}

/// Sources written for gungraun, unchanged, under `'gungraun'.package = 'benchgrind'`
/// (`benchmark-tests/renamed/Cargo.toml`): they compile (else the build fails here) and count.
#[test]
fn sources_for_gungraun_run_with_the_dependency_renamed() {
    let (report, blocks) = run_twice("benchgrind-compat-renamed", "renamed", HERE);
    assert_eq!(
        headers(&blocks),
        [
            "renamed::numbers::bench_fib short:10",
            "renamed::numbers::bench_fib many_0:12",
            "renamed::numbers::bench_fib many_1:14",
            "renamed::numbers::bench_sort sorted:vec![3u32, 1, 2]",
        ],
        "{report}"
    );
    // fib(14) does more than fib(12), which does more than fib(10).
    let counts: Vec<u64> = blocks.iter().map(|b| b.get("Instructions")).collect();
    assert!(counts[0] < counts[1] && counts[1] < counts[2], "{report}");
    let (report, blocks) = run_twice("benchgrind-compat-renamed", "renamed_bin", HERE);
    assert_eq!(
        headers(&blocks),
        ["renamed_bin::commands::bench_seq count:(3) -> seq 3"],
        "{report}"
    );
}
