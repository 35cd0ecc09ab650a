//! `benchgrind report`: a static site of the results (load -> overview + one page per
//! benchmark -> files), readable without a server or network: stylesheet and script are inlined,
//! plots are inline SVG, flamegraphs are copied next to the pages.
//!
//! Pages are written on every core at once; the overview last, so that a browser open on it
//! never sees pages that are not there yet.

mod html;
mod load;
mod overview;
mod page;
mod plot;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use load::Bench;

const USAGE: &str = "\
Usage: benchgrind report [OPTIONS] [INPUT]...

Writes a static HTML report of benchmark results: an overview of every benchmark (newest value,
change against the run before and against the baseline, regressions first; sortable and
filterable) and a page per benchmark with a history plot per metric, its flamegraphs, the other
tools' metrics and its baselines. Each INPUT is a benchgrind home (default:
./target/benchgrind), a directory of summaries (e.g. a CI partition's home) or a file of
summaries one per line (`--output-format=json`, `benchgrind merge --output-format=json`).
Exit status: 0 written, 1 error, 2 usage.

Options:
      --out=DIR        where to write the site [default: <first INPUT directory>/report]
      --baseline=NAME  the baseline to compare with [default: the one the run compared with,
                       else `default`, else the first by name]
      --open           open index.html in the browser afterwards
  -h, --help           print this help
";

/// What `benchgrind report` was asked to do.
#[derive(Debug, Default, PartialEq)]
struct Config {
    inputs: Vec<PathBuf>,
    out: Option<PathBuf>,
    baseline: Option<String>,
    open: bool,
    help: bool,
}

impl Config {
    fn parse(args: Vec<OsString>) -> Result<Config, String> {
        let mut config = Config::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let Some(text) = arg.to_str() else {
                config.inputs.push(PathBuf::from(arg));
                continue;
            };
            let (name, inline) = match text.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
                _ => (text, None),
            };
            let mut value = |flag: &str| {
                inline
                    .clone()
                    .or_else(|| args.next().and_then(|v| v.into_string().ok()))
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match name {
                "-h" | "--help" => config.help = true,
                "--open" if inline.is_none() => config.open = true,
                "--out" => config.out = Some(PathBuf::from(value("--out")?)),
                "--baseline" => config.baseline = Some(value("--baseline")?),
                _ if text.starts_with('-') && text != "-" => {
                    return Err(format!("unknown option `{text}`"));
                }
                _ => config.inputs.push(PathBuf::from(text)),
            }
        }
        Ok(config)
    }
}

/// Runs `benchgrind report`; returns the exit code.
pub fn run(args: Vec<OsString>) -> u8 {
    let config = match Config::parse(args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return 2;
        }
    };
    if config.help {
        print!("{USAGE}");
        return 0;
    }
    match report(config) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn report(mut config: Config) -> Result<()> {
    let start = Instant::now();
    if config.inputs.is_empty() {
        config.inputs.push(PathBuf::from("target/benchgrind"));
    }
    let out = match &config.out {
        Some(out) => out.clone(),
        None => match config.inputs.iter().find(|i| i.is_dir()) {
            Some(dir) => dir.join("report"),
            None => bail!("pass --out=DIR: the inputs are files, and the report needs a directory"),
        },
    };
    let loaded = load::load(&config.inputs, config.baseline.as_deref())?;
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    let index = write_site(&loaded, &config.inputs, &out)?;
    eprintln!(
        "benchgrind: wrote {} ({} benchmarks, {} history records) in {:.2} s",
        index.display(),
        loaded.benches.len(),
        loaded.records,
        start.elapsed().as_secs_f64()
    );
    if config.open {
        open(&index);
    }
    Ok(())
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
        std::fs::remove_dir_all(&pages)
            .with_context(|| format!("cannot replace the old pages in {}", pages.display()))?;
    } else if out.join("index.html").exists() {
        bail!(
            "{} exists and is not a benchgrind report; choose another --out",
            index.display()
        );
    }
    std::fs::create_dir_all(&pages)
        .with_context(|| format!("cannot create {}", pages.display()))?;
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
    benchgrind_runner::store::write_atomic(&index, text.as_bytes())
        .with_context(|| format!("cannot write {}", index.display()))?;
    Ok(index)
}

/// A benchmark's page and a copy of its flamegraphs.
fn write_page(bench: &Bench, pages: &Path) -> Result<()> {
    let slug = html::slug(&bench.package, &bench.id);
    let flames = flamegraphs(bench);
    if !flames.is_empty() {
        let dir = pages.join(&slug);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        for file in &flames {
            std::fs::copy(file, dir.join(file.file_name().expect("listed by name")))
                .with_context(|| format!("cannot copy {}", file.display()))?;
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
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
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

/// Opens the report in the desktop's browser; a failure only says where the report is.
fn open(index: &Path) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(index)
        .stdin(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!(
            "warning: cannot start {opener} ({e}); open {} in a browser",
            index.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, String> {
        Config::parse(args.iter().map(OsString::from).collect())
    }

    #[test]
    fn options_and_inputs() {
        let config = parse(&["--open", "--out", "site", "--baseline=main", "a", "b"]).unwrap();
        assert_eq!(
            config,
            Config {
                inputs: vec!["a".into(), "b".into()],
                out: Some("site".into()),
                baseline: Some("main".into()),
                open: true,
                help: false,
            }
        );
        assert_eq!(parse(&["--out"]).unwrap_err(), "--out needs a value");
        assert_eq!(parse(&["--frob"]).unwrap_err(), "unknown option `--frob`");
        assert_eq!(
            parse(&["--open=yes"]).unwrap_err(),
            "unknown option `--open=yes`"
        );
    }
}
