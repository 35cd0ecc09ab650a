//! The sides of a comparison: what a path on the command line is, and how it becomes a
//! [`ResultSet`].
//!
//! [`detect`] looks at a path once, before anything runs, so a wrong path fails fast. A result
//! file is read and recognised by its content ([`load_file`]: Google Benchmark JSON, a benchgrind
//! summary, or a file of summaries one per line); a directory is searched for `summary.json`
//! files ([`summary::load_dir`]); a word that is no path is a saved baseline ([`baseline`]); an
//! executable is run ([`run::run_gbench`] or [`bench_binary::run`]). A new input kind adds a
//! [`Source`] variant, a branch in [`detect`] or a recogniser in [`load_file`], and nothing else.

pub mod baseline;
pub mod bench_binary;
pub mod gbench;
pub mod lenient;
pub mod run;
pub mod summary;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::model::ResultSet;

/// What one side of the comparison reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A result file: Google Benchmark JSON, or benchgrind summaries.
    File(PathBuf),
    /// A directory: every `summary.json` below it.
    SummaryDir(PathBuf),
    /// A baseline saved with `--save-baseline=NAME`, below a benchgrind home.
    Baseline {
        /// The baseline's name.
        name: String,
        /// The home it was found in.
        home: PathBuf,
    },
    /// A Google Benchmark binary, run with `--benchmark_out`.
    GbenchBinary(PathBuf),
    /// A benchgrind bench binary, run with `--output-format=json`.
    BenchBinary(PathBuf),
}

impl Source {
    /// The input as the user gave it, for labels and messages.
    pub fn describe(&self) -> String {
        match self {
            Source::File(p)
            | Source::SummaryDir(p)
            | Source::GbenchBinary(p)
            | Source::BenchBinary(p) => p.display().to_string(),
            Source::Baseline { name, home } => format!("baseline {name} ({})", home.display()),
        }
    }

    /// Whether this is a program that runs.
    pub fn is_binary(&self) -> bool {
        matches!(self, Source::GbenchBinary(_) | Source::BenchBinary(_))
    }
}

/// Decides what `path` is, from its metadata and first bytes; nothing is run. A word that names
/// no file is looked up as a baseline below `home`.
pub fn detect(path: &Path, home: &Path) -> Result<Source> {
    let word = path.to_str().filter(|w| baseline::is_name(w));
    let meta = match (fs::metadata(path), word) {
        (Ok(meta), _) => meta,
        (Err(_), Some(name)) => {
            if baseline::find(home, name)?.is_empty() {
                bail!(
                    "`{name}` is neither a file nor a saved baseline: there is no such file, and \
                     no `baseline.{name}.callgrind.out` below `{}` (set the benchgrind home with \
                     `--home`)",
                    home.display()
                );
            }
            return Ok(Source::Baseline {
                name: name.to_string(),
                home: home.to_path_buf(),
            });
        }
        (Err(e), None) => {
            return Err(anyhow::Error::new(e).context(format!(
                "cannot read `{}`: pass a result file (benchgrind summaries or Google Benchmark \
                 JSON), a directory of summaries, a baseline name or a bench binary",
                path.display()
            )))
        }
    };
    if meta.is_dir() {
        return Ok(Source::SummaryDir(path.to_path_buf()));
    }
    let mut head = [0u8; 4];
    let n = fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let head = &head[..n];
    let elf = head == b"\x7fELF";
    let script = head.starts_with(b"#!") && is_executable(&meta);
    if !(elf || script) {
        return Ok(Source::File(path.to_path_buf()));
    }
    if !is_executable(&meta) {
        bail!(
            "`{}` is a program but not executable: `chmod +x` it, or pass its JSON output",
            path.display()
        );
    }
    // A bench binary first: its Rust symbols may well contain `9benchmark` too.
    if elf && contains_any(path, &[bench_binary::MARKER])? {
        return Ok(Source::BenchBinary(path.to_path_buf()));
    }
    // Scripts may wrap a Google Benchmark binary; a compiled program must link the library:
    // statically it holds the flag's name, dynamically the library's name, and either way the
    // mangled names of `benchmark::` symbols.
    if elf
        && !contains_any(
            path,
            &[b"benchmark_out_format", b"libbenchmark", b"9benchmark"],
        )?
    {
        bail!(
            "`{}` is not a Google Benchmark binary (it does not link libbenchmark) nor a \
             benchgrind bench binary (it does not hold benchgrind's options)",
            path.display()
        );
    }
    Ok(Source::GbenchBinary(path.to_path_buf()))
}

/// Reads a result file and converts it according to its content: a Google Benchmark JSON
/// document, one benchgrind summary, or benchgrind summaries one per line.
pub fn load_file(path: &Path, label: String) -> Result<ResultSet> {
    let bytes = fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "`{}` is not a JSON result file: not UTF-8 text ({e})",
            path.display()
        )
    })?;
    let doc: Value = match serde_json::from_str(&lenient::rewrite_non_finite(&text)) {
        Ok(doc) => doc,
        // Not one document: maybe summaries, one per line, as `--output-format=json` prints them.
        Err(_) if first_line_is_summary(&text) => {
            return summary::convert_lines(path, &text, label)
        }
        Err(e) => bail!(
            "{}:{}:{}: malformed JSON ({}); expected a benchgrind summary (one per line, from \
             `--output-format=json`, or a `summary.json` from `--save-summary`) or a Google \
             Benchmark JSON file (made with `--benchmark_out=FILE --benchmark_out_format=json`)",
            path.display(),
            e.line(),
            e.column(),
            // serde_json's message ends with the position, which leads the line here instead.
            summary::strip_position(&e)
        ),
    };
    if gbench::recognise(&doc) {
        return gbench::convert(&doc, label)
            .with_context(|| format!("`{}`: unexpected Google Benchmark JSON", path.display()));
    }
    if summary::recognise(&doc) {
        let bench = summary::convert(&doc, &path.display().to_string())?;
        return Ok(ResultSet {
            label,
            benchmarks: vec![bench],
        });
    }
    bail!(
        "`{}` is JSON but not a result file `compare` knows: expected a benchgrind summary, an \
         object with `version`, `id` and `metrics`, or Google Benchmark JSON, an object with \
         `context` and `benchmarks` ({})",
        path.display(),
        describe(&doc)
    )
}

/// Whether the first non-blank line of `text` is, on its own, a benchgrind summary.
fn first_line_is_summary(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|doc| summary::recognise(&doc))
}

/// A short description of a JSON document's top level, for errors.
pub fn describe(doc: &Value) -> String {
    match doc {
        Value::Object(map) if map.is_empty() => "found an empty object".into(),
        Value::Object(map) => {
            let keys: Vec<_> = map.keys().take(6).map(|k| format!("`{k}`")).collect();
            let more = if map.len() > 6 { ", ..." } else { "" };
            format!("found keys {}{more}", keys.join(", "))
        }
        Value::Array(_) => "found an array".into(),
        Value::String(_) => "found a string".into(),
        Value::Number(_) => "found a number".into(),
        Value::Bool(_) => "found a boolean".into(),
        Value::Null => "found null".into(),
    }
}

fn contains_any(path: &Path, needles: &[&[u8]]) -> Result<bool> {
    let bytes = fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    Ok(needles
        .iter()
        .any(|needle| bytes.windows(needle.len()).any(|w| w == *needle)))
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    true
}
