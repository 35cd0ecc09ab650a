//! The sides of a comparison: what a path on the command line is, and how it becomes a
//! [`ResultSet`].
//!
//! [`detect`] looks at a path once, before anything runs, so a wrong path fails fast. A result
//! file is read and recognised by its content ([`load_file`]); an executable is run
//! ([`run::run_gbench`]). A new input kind (benchgrind summaries) adds a [`Source`] variant, a
//! branch in [`detect`] or a recogniser in [`load_file`], and nothing else.

pub mod gbench;
pub mod lenient;
pub mod run;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::model::ResultSet;

/// What one side of the comparison reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A result file (today: Google Benchmark JSON).
    File(PathBuf),
    /// A Google Benchmark binary, run with `--benchmark_out`.
    GbenchBinary(PathBuf),
}

impl Source {
    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        match self {
            Source::File(p) | Source::GbenchBinary(p) => p,
        }
    }
}

/// Decides what `path` is, from its metadata and first bytes; nothing is run.
pub fn detect(path: &Path) -> Result<Source> {
    let meta = fs::metadata(path).with_context(|| {
        format!(
            "cannot read `{}`: pass a Google Benchmark JSON file or binary",
            path.display()
        )
    })?;
    if meta.is_dir() {
        bail!(
            "`{}` is a directory; `compare` reads Google Benchmark JSON files and binaries \
             (directories of benchgrind summaries are not supported yet)",
            path.display()
        );
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
            "`{}` is not a Google Benchmark binary (it does not link libbenchmark); \
             `compare` runs Google Benchmark binaries (benchgrind bench binaries are not \
             supported yet)",
            path.display()
        );
    }
    Ok(Source::GbenchBinary(path.to_path_buf()))
}

/// Reads a result file and converts it according to its content.
pub fn load_file(path: &Path, label: String) -> Result<ResultSet> {
    let bytes = fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "`{}` is not a JSON result file: not UTF-8 text ({e})",
            path.display()
        )
    })?;
    let doc: Value = serde_json::from_str(&lenient::rewrite_non_finite(&text)).map_err(|e| {
        // serde_json's message ends with the position, which leads the line here instead.
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        anyhow::anyhow!(
            "{}:{}:{}: malformed JSON ({message}); expected a Google Benchmark JSON file \
             (made with `--benchmark_out=FILE --benchmark_out_format=json`)",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if gbench::recognise(&doc) {
        return gbench::convert(&doc, label)
            .with_context(|| format!("`{}`: unexpected Google Benchmark JSON", path.display()));
    }
    bail!(
        "`{}` is JSON but not a result file `compare` knows: expected Google Benchmark JSON, \
         an object with `context` and `benchmarks` ({})",
        path.display(),
        describe(&doc)
    )
}

/// A short description of a JSON document's top level, for errors.
fn describe(doc: &Value) -> String {
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
