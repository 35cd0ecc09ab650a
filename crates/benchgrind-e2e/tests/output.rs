//! `--nocapture`: what benchmarks print is shown under their own header, with the fork server
//! and with process isolation, with one worker and with two; it never hangs the run. Without
//! `--nocapture` nothing of it is shown.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIB: &str = env!("CARGO_BIN_EXE_e2e_print");
const BIN: &str = env!("CARGO_BIN_EXE_e2e_print_bin");

/// Runs `bin --bench ARGS` with stdout and stderr into one file (so the order in which they were
/// written is kept); kills it after `limit`, which fails the test instead of hanging it.
fn run_merged(bin: &str, args: &[&str], home: &Path, limit: Duration) -> (i32, String) {
    let path = home.join("merged.txt");
    let file = std::fs::File::create(&path).unwrap();
    let mut child = Command::new(bin)
        // Every benchmark runs, and one that would have been reused must count as it did.
        .env("BENCHGRIND_VERIFY_REUSE", "yes")
        .arg("--bench")
        .arg(format!("--home={}", home.display()))
        .args(args)
        .current_dir(home)
        .env("BENCHGRIND_COLOR", "never")
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{bin} {args:?}` did not finish in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut text = String::new();
    std::fs::File::open(&path)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    (status.code().unwrap_or(-1), text)
}

/// The lines printed by benchmarks (`... by NAME ID`, `stderr of NAME ID`, `setup of NAME ID`),
/// each with the header above it.
fn printed_under(text: &str) -> Vec<(String, String)> {
    let mut header = String::new();
    let mut printed = Vec::new();
    for line in text.lines() {
        if line.starts_with("e2e_print") {
            header = line.to_owned();
        } else if line.starts_with("printed by ")
            || line.starts_with("stderr of ")
            || line.starts_with("setup of ")
        {
            printed.push((line.to_owned(), header.clone()));
        }
    }
    printed
}

/// `printed by prints ids_7` names its benchmark as `prints ids_7`: the header must hold
/// `::prints ids_7:`.
fn check_under_own_header(printed: &[(String, String)]) {
    for (line, header) in printed {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, id) = (words[words.len() - 2], words[words.len() - 1]);
        assert!(
            header.contains(&format!("::{name} {id}:")),
            "`{line}` is under `{header}`"
        );
    }
}

#[test]
fn library_benchmarks_print_under_their_own_header() {
    for isolation in ["fork", "process"] {
        for jobs in ["--jobs=1", "--jobs=2"] {
            let home = tempfile::tempdir().unwrap();
            let isolation_arg = format!("--isolation={isolation}");
            let (code, text) = run_merged(
                LIB,
                &["--nocapture", jobs, &isolation_arg],
                home.path(),
                Duration::from_secs(120),
            );
            assert_eq!(code, 0, "{isolation} {jobs}:\n{text}");
            let printed = printed_under(&text);
            // 20 benchmarks, a line on stdout and one on stderr each.
            assert_eq!(printed.len(), 40, "{isolation} {jobs}:\n{text}");
            check_under_own_header(&printed);
            assert!(text.contains("20 benchmarks"), "{text}");
        }
    }
}

#[test]
fn only_the_chosen_stream_is_shown() {
    let home = tempfile::tempdir().unwrap();
    let (code, text) = run_merged(
        LIB,
        &["--nocapture=stderr", "--jobs=2"],
        home.path(),
        Duration::from_secs(120),
    );
    assert_eq!(code, 0, "{text}");
    let printed = printed_under(&text);
    assert_eq!(printed.len(), 20, "{text}");
    assert!(printed.iter().all(|(l, _)| l.starts_with("stderr of")));
    check_under_own_header(&printed);

    let (code, text) = run_merged(LIB, &["--jobs=2"], home.path(), Duration::from_secs(120));
    assert_eq!(code, 0, "{text}");
    assert!(
        printed_under(&text).is_empty(),
        "captured output shown:\n{text}"
    );
}

#[test]
fn binary_benchmarks_print_under_their_own_header() {
    for jobs in ["--jobs=1", "--jobs=2"] {
        let home = tempfile::tempdir().unwrap();
        let (code, text) = run_merged(
            BIN,
            &["--nocapture", jobs],
            home.path(),
            Duration::from_secs(120),
        );
        assert_eq!(code, 0, "{jobs}:\n{text}");
        let printed = printed_under(&text);
        // 8 echoes with two lines, the setup's line and the command's, the inherited line.
        assert_eq!(printed.len(), 8 * 2 + 2 + 1, "{jobs}:\n{text}");
        check_under_own_header(&printed);
    }
    // Without --nocapture, only the stream the benchmark itself inherits.
    let home = tempfile::tempdir().unwrap();
    let (code, text) = run_merged(BIN, &["--jobs=2"], home.path(), Duration::from_secs(120));
    assert_eq!(code, 0, "{text}");
    let printed = printed_under(&text);
    assert_eq!(printed.len(), 1, "{text}");
    check_under_own_header(&printed);
}

/// A reused result is reported as it was, output included: `--nocapture` twice shows what the
/// benchmark printed both times, for a library and a binary benchmark, the second time under
/// a header whose result is marked reused.
#[test]
fn a_reused_benchmark_shows_what_its_measured_run_printed() {
    for (bin, filter, printed) in [
        (LIB, "prints::ids_3", "printed by prints ids_3"),
        (BIN, "echoes::ids_5", "printed by echoes ids_5"),
    ] {
        let home = tempfile::tempdir().unwrap();
        let run = || {
            let out = Command::new(bin)
                .args(["--bench", "--nocapture", filter])
                .arg(format!("--home={}", home.path().display()))
                .current_dir(home.path())
                .env("BENCHGRIND_COLOR", "never")
                .env("BENCHGRIND_VERIFY_REUSE", "no")
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            let both = [out.stdout, out.stderr].concat();
            String::from_utf8_lossy(&both).into_owned()
        };
        let (first, second) = (run(), run());
        assert!(!first.contains("Reused:"), "{first}");
        assert!(second.contains("Reused:"), "{second}");
        for text in [&first, &second] {
            assert!(text.contains(printed), "{text}");
            assert!(
                text.contains(&printed.replace("printed by", "stderr of")),
                "{text}"
            );
        }
    }
}
