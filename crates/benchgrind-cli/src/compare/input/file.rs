//! A result file: read once and recognised by its content, then converted into a
//! [`ResultSet`]: a Google Benchmark JSON document, one benchgrind summary, or benchgrind
//! summaries one per line.

use std::fs;
use std::path::Path;

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;
use serde_json::Value;

use super::{gbench, lenient, summary};
use crate::compare::model::ResultSet;

/// Reads a result file and converts it according to its content: a Google Benchmark JSON
/// document, one benchgrind summary, or benchgrind summaries one per line.
pub fn load(path: &Path, label: String) -> Result<ResultSet> {
    let bytes = fs::read(path).file_op("read", path)?;
    parse(path, bytes, label)
}

/// Converts the bytes of the result file `path` (named in errors) as [`load`] does.
pub fn parse(path: &Path, bytes: Vec<u8>, label: String) -> Result<ResultSet> {
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
        let mut machines = Vec::new();
        summary::note_machine(&mut machines, &doc);
        return Ok(ResultSet {
            label,
            benchmarks: vec![bench],
            machines,
            gbench: None,
        });
    }
    bail!(
        "`{}` is JSON but not a result file `compare` knows: expected a benchgrind summary, an \
         object with `version`, `id` and `metrics`, or Google Benchmark JSON, an object with \
         `context` and `benchmarks` ({})",
        path.display(),
        lenient::describe(&doc)
    )
}

/// Whether the first non-blank line of `text` is, on its own, a benchgrind summary.
fn first_line_is_summary(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|doc| summary::recognise(&doc))
}
