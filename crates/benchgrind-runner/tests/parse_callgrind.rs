//! The Callgrind parser on profiles written by real Valgrind (see `tests/fixtures/README.md`).

use std::path::{Path, PathBuf};
use std::process::Command;

use benchgrind_runner::metrics::Metrics;
use benchgrind_runner::parse::profile::{self, Profile, Read};

fn parse_file(path: &Path) -> Result<Profile, benchgrind_runner::parse::ParseError> {
    profile::parse_file(path, Read::Totals)
}

fn parse(path: &Path, bytes: &[u8]) -> Result<Profile, benchgrind_runner::parse::ParseError> {
    profile::parse(path, bytes, Read::Totals)
}
use benchgrind_runner::EventKind;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

const FIXTURES: [&str; 3] = [
    "fib10.cache-sim.callgrind.out",
    "sort100.no-cache-sim.callgrind.out",
    "fib15.instr-branch.callgrind.out",
];

#[test]
fn events_and_totals_of_real_profiles() {
    let fib = parse_file(&fixture(FIXTURES[0])).unwrap();
    assert_eq!(
        fib.events,
        ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]
    );
    assert_eq!(fib.totals(), [2658, 534, 711, 3, 0, 6, 3, 0, 6]);
    assert!(fib
        .cmd
        .as_deref()
        .unwrap()
        .ends_with("--benchgrind-run 0 0 0"));

    let sort = parse_file(&fixture(FIXTURES[1])).unwrap();
    assert_eq!(sort.events, ["Ir"]);
    assert_eq!(sort.totals(), [866]);
    let kinds: Vec<_> = Metrics::from_profile(&sort)
        .values
        .iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(kinds, [EventKind::Ir]);

    let branch = parse_file(&fixture(FIXTURES[2])).unwrap();
    assert_eq!(branch.total("Bc"), Some(2959));
    assert_eq!(branch.total("Bim"), Some(1));
    let metrics = Metrics::from_profile(&branch);
    assert_eq!(metrics.get(EventKind::Ir), Some(29598));
    assert_eq!(metrics.get(EventKind::Bcm), Some(297));
}

/// Summing the body's self costs (what the parser falls back to without a `totals:` line) gives
/// Callgrind's own totals on every real profile: positions, subpositions, name compression and
/// `calls=` lines are all read right.
#[test]
fn summed_body_costs_equal_the_totals_line() {
    for name in FIXTURES {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let with_totals = parse(Path::new(name), &bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let without: String = text
            .lines()
            .filter(|l| !l.starts_with("totals:") && !l.starts_with("summary:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let summed = parse(Path::new(name), without.as_bytes()).unwrap();
        assert_eq!(summed.totals(), with_totals.totals(), "{name}");
    }
}

/// The totals agree with Valgrind's own reader, `callgrind_annotate`.
#[test]
fn totals_agree_with_callgrind_annotate() {
    for name in FIXTURES {
        let profile = parse_file(&fixture(name)).unwrap();
        let out = Command::new("callgrind_annotate")
            .arg(fixture(name))
            .output()
            .expect("callgrind_annotate (part of Valgrind) runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find(|l| l.contains("PROGRAM TOTALS"))
            .unwrap_or_else(|| panic!("no PROGRAM TOTALS in\n{text}"));
        let numbers: Vec<u64> = line
            .split_whitespace()
            .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .filter(|w| !w.starts_with('('))
            .map(|w| w.replace(',', "").parse().unwrap())
            .collect();
        let nonzero: Vec<u64> = profile.totals().into_iter().filter(|&t| t != 0).collect();
        let annotated: Vec<u64> = numbers.into_iter().filter(|&n| n != 0).collect();
        assert_eq!(annotated, nonzero, "{name}: {line}");
    }
}

#[test]
fn damaged_profiles_give_errors_with_path_and_line() {
    let text = std::fs::read_to_string(fixture(FIXTURES[0])).unwrap();
    // A cost line with a damaged count.
    let damaged = text.replacen("\n+1 2\n", "\n+1 x\n", 1);
    assert_ne!(damaged, text, "the fixture has the cost line `+1 2`");
    let err = parse(Path::new("damaged.out"), damaged.as_bytes()).unwrap_err();
    let line = damaged.lines().position(|l| l == "+1 x").unwrap() + 1;
    assert!(
        err.to_string()
            .starts_with(&format!("damaged.out:{line}: ")),
        "{err}"
    );

    // Cut in the middle of the header: no events line.
    let err = parse(Path::new("cut.out"), &text.as_bytes()[..40]).unwrap_err();
    assert!(err.to_string().contains("no `events:` line"), "{err}");

    // Cut after the body started: the costs read so far, no panic.
    let cut = &text[..text.find("totals:").unwrap() - 20];
    assert!(parse(Path::new("cut.out"), cut.as_bytes()).is_ok());
}
