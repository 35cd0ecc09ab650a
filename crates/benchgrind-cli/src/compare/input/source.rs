//! What a path given to `compare` is: a result file, a directory of summaries, a saved
//! baseline or a program to run; decided from its metadata and first bytes, before anything
//! runs.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use benchgrind_runner::error::FileResult;

use super::{baseline, bench_binary};

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
    let meta = match (fs::metadata(path).file_op("read", path), word) {
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
        (Err(e), None) => bail!(
            "{e}; pass a result file (benchgrind summaries or Google Benchmark JSON), a directory \
             of summaries, a baseline name or a bench binary"
        ),
    };
    if meta.is_dir() {
        return Ok(Source::SummaryDir(path.to_path_buf()));
    }
    let mut head = [0u8; 4];
    let n = fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .file_op("read", path)?;
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

/// Whether the file holds any of the byte strings.
fn contains_any(path: &Path, needles: &[&[u8]]) -> Result<bool> {
    let bytes = fs::read(path).file_op("read", path)?;
    Ok(needles
        .iter()
        .any(|needle| bytes.windows(needle.len()).any(|w| w == *needle)))
}

/// Whether any execute bit is set.
#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

/// Elsewhere, whether a file runs is not in its permissions: try it.
#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    true
}
