//! What the fuzz targets share: the invariants checked on every error (it names the file and,
//! where it gives a line, a line the input has), and a strict KLV decoder that the `klv` target
//! holds `benchgrind suite`'s encoder to.
//!
//! Each target in `fuzz_targets/` feeds the raw bytes of a (possibly damaged) file to the real
//! parser through the same text entry point the file reader uses, then to what benchgrind does
//! next with a parsed file (metrics, flamegraph stacks, comparisons, reports), since a crash
//! there is as much a crash on a damaged file.

use std::path::Path;

use benchgrind_runner::parse::ParseError;

/// The number of lines of `data` as the parsers count them (split at `\n`, from 1).
pub fn line_count(data: &[u8]) -> usize {
    data.iter().filter(|&&b| b == b'\n').count() + 1
}

/// A runner parser's error names the file it was given and a line the input has.
pub fn check_parse_error(e: &ParseError, path: &Path, data: &[u8]) {
    let ParseError::At {
        path: named,
        line,
        message,
    } = e
    else {
        panic!("a parser given bytes read a file: {e}");
    };
    assert_eq!(named, path, "the error names another file: {e}");
    if let Some(line) = *line {
        assert!(
            (1..=line_count(data)).contains(&line),
            "line {line} of {} lines: {e}",
            line_count(data)
        );
    }
    assert!(!message.is_empty(), "an error without a message");
    let shown = e.to_string();
    assert!(shown.starts_with(&path.display().to_string()), "{shown}");
}

/// Every `name:N` in `message` (a `file:line` the CLI's readers put in their errors) names a
/// line the input has.
pub fn check_lines_in_message(message: &str, name: &str, data: &[u8]) {
    let tag = format!("{name}:");
    for (at, _) in message.match_indices(&tag) {
        let digits: String = message[at + tag.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(line) = digits.parse::<usize>() {
            assert!(
                (1..=line_count(data)).contains(&line),
                "line {line} of {} lines: {message}",
                line_count(data)
            );
        }
    }
}

/// The items of a KLV document (`key:length:value\n`, rebar's runner input), strictly: every
/// length is a decimal number of bytes and every value ends with a newline.
pub fn decode_klv(mut raw: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut items = Vec::new();
    while !raw.is_empty() {
        let colon = |s: &[u8]| s.iter().position(|&b| b == b':');
        let k = colon(raw).ok_or("no `:` after the key")?;
        let key = std::str::from_utf8(&raw[..k]).map_err(|_| "the key is not UTF-8")?;
        let rest = &raw[k + 1..];
        let l = colon(rest).ok_or("no `:` after the length")?;
        let len: usize = std::str::from_utf8(&rest[..l])
            .ok()
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse().ok())
            .ok_or("the length is not a number")?;
        let rest = &rest[l + 1..];
        if rest.len() <= len || rest[len] != b'\n' {
            return Err(format!(
                "the value of `{key}` is not {len} bytes and a newline"
            ));
        }
        items.push((key.to_owned(), rest[..len].to_vec()));
        raw = &rest[len + 1..];
    }
    Ok(items)
}

/// What `benchgrind compare` does with two result sets once read: the comparison (U tests
/// included), a threshold check and every report format.
pub fn compare_and_report(
    old: &benchgrind_cli::compare::model::ResultSet,
    new: &benchgrind_cli::compare::model::ResultSet,
) {
    use benchgrind_cli::compare::report::{self, Reporter, Style};
    use benchgrind_cli::compare::{diff, threshold};
    let options = diff::Options {
        alpha: 0.05,
        utest: true,
    };
    let cmp = diff::compare(old, new, options);
    let limits = threshold::Limits {
        all: Some(5.0),
        ..threshold::Limits::default()
    };
    let violations = threshold::check(&cmp, &limits);
    let style = Style {
        color: true,
        repetitions: true,
    };
    let reporters: [&dyn Reporter; 4] = [
        &report::terminal::Terminal { style },
        &report::markdown::Markdown { style },
        &report::json::Json,
        &report::csv::Csv,
    ];
    for reporter in reporters {
        let mut out = Vec::new();
        reporter
            .write(&cmp, &violations, &mut out)
            .expect("writing into memory cannot fail");
    }
}

/// What `benchgrind merge` does with a summary once read: the result it describes, reported in
/// every format of the bench binary.
pub fn report_summary(summary: &benchgrind_runner::report::summary::Summary) {
    use benchgrind_runner::cli::Labels;
    use benchgrind_runner::report::{
        json::Json, markdown::Markdown, terminal, Reporter, RunSummary,
    };
    let Ok(result) = summary.to_result() else {
        return;
    };
    // gungraun's look (grid marks, a tolerance) and benchgrind's plain one.
    let terminal = |labels, grid, tolerance| terminal::Terminal {
        style: terminal::Style {
            color: true,
            labels,
            grid,
            tolerance,
        },
    };
    let mut reporters: [Box<dyn Reporter>; 4] = [
        Box::new(terminal(Labels::IaiCallgrind, true, Some(0.5))),
        Box::new(terminal(Labels::Benchgrind, false, None)),
        Box::new(Json { pretty: true }),
        Box::new(Markdown::default()),
    ];
    let tally = RunSummary {
        file: summary.file.clone(),
        measured: 1,
        seconds: summary.duration_secs,
        ..RunSummary::default()
    };
    for reporter in &mut reporters {
        let mut out = Vec::new();
        reporter.bench(&mut out, &result).expect("into memory");
        reporter.finish(&mut out, &tally).expect("into memory");
    }
}
