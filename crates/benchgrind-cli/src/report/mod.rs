//! The site that `benchgrind report` (`cmd/report.rs`) writes: results loaded (`load`) ->
//! an overview (`overview`) and one page per benchmark (`page`, plots by `plot`) -> files,
//! readable without a server or network: stylesheet and script are inlined, plots are inline
//! SVG, flamegraphs are copied next to the pages.
//!
//! Pages are written on every core at once; the overview last, so that a browser open on it
//! never sees pages that are not there yet.

mod change;
mod html;
mod load;
mod overview;
mod page;
mod perf;
mod plot;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;

use load::Bench;

/// What was written.
pub struct Written {
    /// The overview page.
    pub index: PathBuf,
    /// How many benchmarks.
    pub benchmarks: usize,
    /// How many history records were read.
    pub records: usize,
}

/// Reads `inputs` and writes the site into `out`; `baseline` names the baseline to compare
/// with. Warnings (skipped files) go to stderr.
pub fn write(inputs: &[PathBuf], out: &Path, baseline: Option<&str>) -> Result<Written> {
    let loaded = load::load(inputs, baseline)?;
    for warning in &loaded.warnings {
        crate::messages::warning!("{warning}");
    }
    let index = write_site(&loaded, inputs, out)?;
    Ok(Written {
        index,
        benchmarks: loaded.benches.len(),
        records: loaded.records,
    })
}

/// Writes the pages and the overview into `out`; returns the overview's path.
fn write_site(loaded: &load::Loaded, inputs: &[PathBuf], out: &Path) -> Result<PathBuf> {
    let pages = out.join("bench");
    let index = out.join("index.html");
    // A report written before may list benchmarks that are gone: its pages go, but only in a
    // directory that is a report (another directory given as --out is left alone).
    let ours = std::fs::read_to_string(&index)
        .is_ok_and(|t| t.contains(&format!("content=\"{}\"", html::GENERATOR)));
    if ours && pages.is_dir() {
        std::fs::remove_dir_all(&pages).file_op("replace the old pages in", &pages)?;
    } else if out.join("index.html").exists() {
        bail!(
            "{} exists and is not a benchgrind report; choose another --out",
            index.display()
        );
    }
    std::fs::create_dir_all(&pages).file_op("create", &pages)?;
    let mut benches: Vec<&Bench> = loaded.benches.values().collect();
    benches.sort_by(|a, b| {
        (html::status_rank(&a.status), &a.id, &a.package).cmp(&(
            html::status_rank(&b.status),
            &b.id,
            &b.package,
        ))
    });
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = benches.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = benches
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().try_for_each(|b| write_page(b, &pages))))
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a page writer does not panic"))
    })?;
    let metrics = html::metric_order(benches.iter().flat_map(|b| b.current.keys()));
    let sources = inputs
        .iter()
        .map(|i| i.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let text = overview::write(&benches, &metrics, loaded.records, &sources);
    benchgrind_runner::store::write_atomic(&index, text.as_bytes()).file_op("write", &index)?;
    Ok(index)
}

/// A benchmark's page and a copy of its flamegraphs.
fn write_page(bench: &Bench, pages: &Path) -> Result<()> {
    let slug = html::slug(&bench.package, &bench.id);
    let flames = flamegraphs(bench);
    if !flames.is_empty() {
        let dir = pages.join(&slug);
        std::fs::create_dir_all(&dir).file_op("create", &dir)?;
        for file in &flames {
            std::fs::copy(file, dir.join(file.file_name().expect("listed by name")))
                .file_op("copy", file)?;
        }
    }
    let names: Vec<(String, Option<(u32, u32)>)> = flames
        .iter()
        .filter_map(|f| Some((f.file_name()?.to_str()?.to_owned(), svg_size(f))))
        .collect();
    let text = page::write(bench, &names)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("the page of {}", bench.id))?;
    let path = pages.join(format!("{slug}.html"));
    Ok(std::fs::write(&path, text).file_op("write", &path)?)
}

/// The benchmark's flamegraph SVGs (`callgrind.<Metric>[.diff].flamegraph.svg`), regular ones
/// first.
fn flamegraphs(bench: &Bench) -> Vec<PathBuf> {
    let Some(Ok(entries)) = bench.dir.as_ref().map(std::fs::read_dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".flamegraph.svg"))
        })
        .collect();
    found.sort_by_key(|p| (p.to_string_lossy().contains(".diff."), p.clone()));
    found
}

/// The `viewBox` size of an SVG, from its first kilobytes; the page gives the flamegraph's frame
/// the same proportions.
fn svg_size(path: &Path) -> Option<(u32, u32)> {
    use std::io::Read;
    let mut head = vec![0; 2048];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let head = String::from_utf8_lossy(&head[..n]);
    let rest = &head[head.find("viewBox=\"")? + 9..];
    let mut numbers = rest[..rest.find('"')?].split_whitespace().skip(2);
    let width = numbers.next()?.parse::<f64>().ok()?;
    let height = numbers.next()?.parse::<f64>().ok()?;
    (width >= 1.0 && height >= 1.0).then_some((width as u32, height as u32))
}
