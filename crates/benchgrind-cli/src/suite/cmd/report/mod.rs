//! `suite report`: a Markdown report from result files, laid out as rebar's report (its headings
//! start at level 3, to be placed in a larger document): the ranking (search-time and
//! compile-time benchmarks apart, `--summary-exclude`, `--intersection`), the nested list of
//! benchmark groups, then a section per group, nested as the groups are (`curated/01-literal` is
//! `literal` under `curated`), with one table as rebar writes it, engines as rows and benchmarks
//! as columns, values without ratios unless `--ratio`, with the group's `analysis` text and each
//! benchmark's parameters (rebar's list: full name, model, regex or its file, options, haystack
//! or its file, counts, analysis) when the definitions are available (`-d`); then every error
//! row. Links (engine directories, `MODELS.md`, regex and haystack files) are relative to the
//! repository root, which `--relative-path-to-repo-root` places relative to the report.
//!
//! Order, as rebar's: with definitions, the benchmarks defined, by group name then as their file
//! lists them; the benchmarks without a definition (rebar drops them) after those, and every
//! benchmark when there are no definitions, in the order they first appear in the result files.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
    path::PathBuf,
    sync::LazyLock,
};

use crate::exit::Outcome;
use crate::suite::{
    flags::{self, Filters, Stat, Units},
    format::{
        definitions::{self, Definitions},
        engines::Engines,
    },
    grouped::{self, Entry},
    ranking,
    results::Metric,
};
use crate::usage::{self, Opt, UsageError};

mod cells;
mod parameters;
use cells::{local_name, md};
use parameters::parameters;

/// The help text.
pub static USAGE: LazyLock<String> = LazyLock::new(|| {
    usage::page(
        "\
Write a Markdown report from result files.

USAGE:
    benchgrind suite report [OPTIONS] <results> ... > report.md

",
        &[
            &[Opt::new(
                "-d, --dir <dir>",
                "the suite directory, for benchmark parameters and `analysis` texts\n(default: ./benchmarks; without its definitions the report says so)",
            )],
            flags::FILTER_OPTS,
            &grouped::COMPARE_OPTS[..2],
            &[
                Opt::new(
                    "--intersection",
                    "only benchmarks that the most engines measured without error,\n\
                     as rebar (e.g. with -e, those every engine selected measured)",
                ),
                Opt::new(
                    "--ratio",
                    "show each value's ratio to the best value of its benchmark",
                ),
                Opt::new(
                    "--relative-path-to-repo-root <path>",
                    "where the repository root is from the report, for its links\n\
                     (default: empty, the report is in the root; else ending in /,\n\
                     e.g. ../../)",
                ),
                Opt::new(
                    "--summary-exclude <regex>",
                    "leave engines whose name matches out of the summary tables\n\
                     (their values still count as the best of a benchmark)",
                ),
                flags::HELP_OPT,
            ],
        ],
    )
});

/// What `suite report` was asked.
#[derive(Debug)]
pub struct Config {
    /// The result files.
    paths: Vec<PathBuf>,
    /// The benchmark, model and engine filters.
    filters: Filters,
    /// `-s/--statistic`.
    stat: Stat,
    /// `-u/--units`.
    units: Units,
    /// `-d/--dir`: the suite directory, for parameters and analysis texts.
    dir: PathBuf,
    /// `--intersection`.
    intersection: bool,
    /// `--summary-exclude`.
    summary_exclude: Option<regex::Regex>,
    /// `--ratio`: ratios beside the values of the group tables.
    ratio: bool,
    /// `--relative-path-to-repo-root`: put before every link's path.
    root: String,
}

impl Config {
    /// Parses the flags after `suite report`.
    pub fn parse(p: &mut lexopt::Parser) -> Result<Config, UsageError> {
        use lexopt::Arg::{Long, Short, Value};
        let (mut paths, mut filters, mut stat, mut units) = (
            vec![],
            Filters::default(),
            Stat::default(),
            Units::default(),
        );
        let mut dir = PathBuf::from("benchmarks");
        let (mut intersection, mut summary_exclude, mut ratio) = (false, None, false);
        let mut root = String::new();
        while let Some(arg) = p.next()? {
            if let Some(kind) = Filters::kind(&arg) {
                filters.take(kind, p)?;
                continue;
            }
            match arg {
                Short('h') | Long("help") => return Err(UsageError::Help(USAGE.as_str())),
                Value(v) => paths.push(PathBuf::from(v)),
                Short('d') | Long("dir") => dir = PathBuf::from(usage::string(p, "-d/--dir")?),
                Short('s') | Long("statistic") => stat = usage::parse(p, "-s/--statistic")?,
                Short('u') | Long("units") => units = usage::parse(p, "-u/--units")?,
                Long("intersection") => intersection = true,
                Long("ratio") => ratio = true,
                Long("relative-path-to-repo-root") => {
                    root = usage::string(p, "--relative-path-to-repo-root")?;
                    if !root.is_empty() && !root.ends_with('/') {
                        return Err(UsageError::new(format!(
                            "--relative-path-to-repo-root: '{root}' must end with '/' (e.g. '{root}/'), or be empty for a report in the repository root"
                        )));
                    }
                }
                Long("summary-exclude") => {
                    let pattern = usage::string(p, "--summary-exclude")?;
                    summary_exclude = Some(regex::Regex::new(&pattern).map_err(|e| {
                        UsageError::new(format!(
                            "--summary-exclude: invalid regex '{pattern}': {e}"
                        ))
                    })?);
                }
                other => return Err(other.unexpected().into()),
            }
        }
        Ok(Config {
            paths: grouped::result_files(paths)?,
            filters,
            stat,
            units,
            dir,
            intersection,
            summary_exclude,
            ratio,
            root,
        })
    }
}

/// One benchmark's name and its entries.
type Bench<'a> = (&'a str, Vec<&'a Entry>);

/// Runs `suite report`.
pub fn run(config: &Config) -> anyhow::Result<Outcome> {
    let (mut entries, metric) = grouped::load(&config.paths, &config.filters)?;
    if config.intersection {
        grouped::intersection(&mut entries);
    }
    let defs = if config.dir.join("definitions").is_dir() {
        // The definitions of the benchmarks reported; the others are not resolved.
        let names: BTreeSet<&str> = entries.iter().map(|e| e.m.name.as_str()).collect();
        let defs = definitions::load(&config.dir, &|n, _, _| names.contains(n));
        for p in &defs.problems {
            crate::messages::note!("{p} (its benchmark's parameters are left out of the report)");
        }
        Some(defs)
    } else {
        crate::messages::note!(
            "{} is not a directory, so the report has no benchmark parameters (-d/--dir names the suite directory)",
            config.dir.join("definitions").display()
        );
        None
    };
    // The engines' directories, for links, when engines.toml loads.
    let engines = if config.dir.join("engines.toml").is_file() {
        Engines::load(&config.dir)
            .map_err(|problems| {
                for p in problems {
                    crate::messages::note!(
                        "{p} (the summary tables do not link engine directories)"
                    );
                }
            })
            .ok()
    } else {
        None
    };
    let mut out = String::new();
    heading(&mut out, config, metric, defs.is_some())?;
    summary(&mut out, config, engines.as_ref(), &entries)?;
    let tree = Node::tree(ordered(&entries, defs.as_ref()));
    group_list(&mut out, &tree)?;
    for (node, depth) in tree.headings() {
        blank(&mut out);
        writeln!(out, "{} {}", "#".repeat(depth + 3), node.title())?;
        if !node.benches.is_empty() {
            group_section(&mut out, config, defs.as_ref(), &node.path, &node.benches)?;
        }
    }
    errors(&mut out, &entries)?;
    print!("{out}");
    Ok(Outcome::Done)
}

/// The benchmarks in rebar's order: with definitions, those defined sorted by group name (a
/// stable sort, so a group keeps its file's order), then the others in the order of the result
/// files; without, all in that order.
fn ordered<'a>(entries: &'a [Entry], defs: Option<&Definitions>) -> Vec<Bench<'a>> {
    let mut rows: Vec<Option<Bench>> = grouped::first_seen(entries, |e| e.m.name.as_str())
        .into_iter()
        .map(Some)
        .collect();
    let index: BTreeMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.as_ref().map_or("", |(n, _)| *n), i))
        .collect();
    let mut defined: Vec<&str> = defs
        .iter()
        .flat_map(|d| d.defs.iter())
        .map(|d| d.name.as_str())
        .collect();
    defined.sort_by_key(|n| group_name(n));
    let mut out: Vec<Bench> = defined
        .into_iter()
        .filter_map(|n| rows[*index.get(n)?].take())
        .collect();
    out.extend(rows.into_iter().flatten());
    out
}

/// A benchmark's group: its name without the last `/` part.
fn group_name(name: &str) -> &str {
    name.rsplit_once('/').map_or("", |(g, _)| g)
}

/// A group in the tree of groups: `curated` holds `curated/01-literal`, which holds its
/// benchmarks.
#[derive(Default)]
struct Node<'a> {
    /// The last part of the group name.
    name: String,
    /// The full group name.
    path: String,
    /// The groups below, in the order first seen.
    nodes: Vec<Node<'a>>,
    /// The benchmarks of this very group.
    benches: Vec<Bench<'a>>,
}

impl<'a> Node<'a> {
    /// The tree of the groups of `benches`, children in the order first seen.
    fn tree(benches: Vec<Bench<'a>>) -> Node<'a> {
        let mut root = Node::default();
        for bench in benches {
            let mut node = &mut root;
            let group = group_name(bench.0);
            if !group.is_empty() {
                for part in group.split('/') {
                    let i = match node.nodes.iter().position(|n| n.name == part) {
                        Some(i) => i,
                        None => {
                            let path = if node.path.is_empty() {
                                part.to_string()
                            } else {
                                format!("{}/{part}", node.path)
                            };
                            node.nodes.push(Node {
                                name: part.to_string(),
                                path,
                                ..Node::default()
                            });
                            node.nodes.len() - 1
                        }
                    };
                    node = &mut node.nodes[i];
                }
            }
            node.benches.push(bench);
        }
        root
    }

    /// The groups with a heading, depth first, each with its depth: as rebar, a group with no
    /// sibling (benchmarks count as siblings) and no benchmarks of its own is left out, its
    /// groups taking its depth (so `a/b/c` alone is one heading, `c`). rebar leaves out such a
    /// group that has benchmarks too, and with it their table; here they are shown.
    fn headings(&self) -> Vec<(&Node<'a>, usize)> {
        fn imp<'n, 'a>(
            node: &'n Node<'a>,
            siblings: usize,
            depth: usize,
            out: &mut Vec<(&'n Node<'a>, usize)>,
        ) {
            let depth = if siblings == 0 && node.benches.is_empty() {
                depth
            } else {
                out.push((node, depth));
                depth + 1
            };
            let children = node.nodes.len() + node.benches.len();
            for n in &node.nodes {
                imp(n, children - 1, depth, out);
            }
        }
        let mut out = vec![];
        imp(self, 0, 0, &mut out);
        out
    }

    /// The heading: the name without a leading `NN-` (rebar's convention for ordering files).
    fn title(&self) -> &str {
        let digits = self.name.bytes().take_while(u8::is_ascii_digit).count();
        match self.name[digits..].strip_prefix('-') {
            Some(rest) if digits > 0 => rest,
            _ if self.name.is_empty() => "(no group)",
            _ => &self.name,
        }
    }
}

/// The list of links to the groups' headings, nested as they are, as rebar's report has it.
fn group_list(out: &mut String, tree: &Node) -> std::fmt::Result {
    blank(out);
    writeln!(
        out,
        "### Benchmark Groups\n\nEach group below holds related benchmarks, compared in one table.\n"
    )?;
    for (node, depth) in tree.headings() {
        let title = node.title();
        writeln!(out, "{}* [{title}](#{})", "  ".repeat(depth), anchor(title))?;
    }
    Ok(())
}

/// The anchor GitHub gives a heading: lower case, spaces as `-`, other punctuation than `-` and
/// `_` dropped (for rebar's names, `[-a-z0-9]`, the name itself, as rebar writes it).
fn anchor(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The ranking of engines, as rebar's report has it: search-time benchmarks and compile-time
/// ones (model `compile`) ranked apart, each table left out when empty.
fn summary(
    out: &mut String,
    config: &Config,
    engines: Option<&Engines>,
    entries: &[Entry],
) -> std::fmt::Result {
    let (compile, search): (Vec<Entry>, Vec<Entry>) = entries
        .iter()
        .cloned()
        .partition(|e| e.m.model == "compile");
    for (title, part) in [("search-time", search), ("compile-time", compile)] {
        let ranks: Vec<ranking::Rank> = ranking::ranking(&part, config.stat, false)
            .into_iter()
            .filter(|r| {
                !config
                    .summary_exclude
                    .as_ref()
                    .is_some_and(|re| re.is_match(&r.engine))
            })
            .collect();
        if ranks.is_empty() {
            continue;
        }
        blank(out);
        if !out.contains("\n### Summary\n") {
            writeln!(out, "### Summary\n")?;
        }
        writeln!(out, "#### Summary of {title} benchmarks\n\n| Engine | Version | Geometric mean of speed ratios | Benchmark count |\n| --- | --- | ---: | ---: |")?;
        for r in ranks {
            // As rebar, the engine links to the directory its runner runs in.
            let dir = engines
                .and_then(|e| e.by_name.get(&r.engine))
                .and_then(|e| e.run.cwd.as_deref());
            let engine = match dir {
                Some(dir) => config.link(&md(&r.engine), dir),
                None => md(&r.engine),
            };
            writeln!(
                out,
                "| {} | {} | {:.2} | {} |",
                engine,
                md(&r.version),
                r.geomean,
                r.count
            )?;
        }
    }
    Ok(())
}

/// Ends `out` with a blank line, for what follows to be a new block.
fn blank(out: &mut String) {
    while !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
}

/// The title and the sentence saying what the numbers are.
fn heading(out: &mut String, config: &Config, metric: Metric, defs: bool) -> std::fmt::Result {
    let files: Vec<String> = config
        .paths
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect();
    // As rebar's first lines: what wrote the report, and how.
    let args: Vec<String> = std::env::args().skip(1).collect();
    writeln!(
        out,
        "<!-- Generated by benchgrind {}; do not edit by hand. -->\n<!-- benchgrind {} -->\n",
        env!("CARGO_PKG_VERSION"),
        args.join(" ")
    )?;
    let ratio = if config.ratio {
        " and, in parentheses, how many times the best value of its benchmark it is (1.00x)"
    } else {
        ""
    };
    writeln!(
        out,
        "Generated by benchgrind {} from {}. Metric: {}; statistic: {:?}. Each cell of a group's \
         table shows an engine's value{ratio}; the best of each benchmark is in bold.\n",
        env!("CARGO_PKG_VERSION"),
        files.join(", "),
        metric.as_str(),
        config.stat,
    )?;
    if !defs {
        writeln!(
            out,
            "The benchmarks' parameters are not shown: `{}` is not a directory (`-d/--dir` names \
             the suite directory).\n",
            config.dir.join("definitions").display()
        )?;
    }
    Ok(())
}

/// One group's analysis text, table and benchmark parameters (its heading is written before).
fn group_section(
    out: &mut String,
    config: &Config,
    defs: Option<&Definitions>,
    group: &str,
    benches: &[Bench],
) -> std::fmt::Result {
    blank(out);
    if let Some(text) = defs.and_then(|d| d.analysis.get(group)) {
        writeln!(out, "{}\n", text.trim())?;
    }
    // As rebar: engines as rows (by name), benchmarks as columns (in the group's order).
    let engines: BTreeSet<&str> = benches
        .iter()
        .flat_map(|(_, row)| row)
        .map(|e| e.m.engine.as_str())
        .collect();
    write!(out, "| Engine |")?;
    for (name, _) in benches {
        write!(out, " {} |", md(local_name(name)))?;
    }
    writeln!(out, "\n| - |{}", " - |".repeat(benches.len()))?;
    for engine in engines {
        let cells: Vec<String> = benches
            .iter()
            .map(|(_, row)| cell(row, engine, config))
            .collect();
        writeln!(out, "| {} | {} |", md(engine), cells.join(" | "))?;
    }
    if let Some(defs) = defs {
        let names: Vec<&str> = benches.iter().map(|(name, _)| *name).collect();
        parameters(out, &config.dir, &config.root, defs, &names)?;
    }
    Ok(())
}

/// One engine's cell of a benchmark's column: `-`, `ERROR`, or the value, with its ratio under
/// `--ratio` (in bold for the best).
fn cell(row: &[&Entry], engine: &str, config: &Config) -> String {
    let best = row
        .iter()
        .filter(|e| e.m.err.is_none())
        .map(|e| e.m.stat(config.stat))
        .fold(f64::INFINITY, f64::min);
    match row.iter().find(|e| e.m.engine == engine) {
        None => "-".into(),
        Some(e) if e.m.err.is_some() => "ERROR".into(),
        Some(e) => {
            let v = e.m.stat(config.stat);
            let c = if config.ratio {
                grouped::cell(&e.m, config.stat, config.units, grouped::ratio(v, best))
            } else {
                grouped::cell_value(&e.m, config.stat, config.units)
            };
            if v == best {
                format!("**{c}**")
            } else {
                c
            }
        }
    }
}

/// The closing list of error rows, if any.
fn errors(out: &mut String, entries: &[Entry]) -> std::fmt::Result {
    let errors: Vec<&Entry> = entries.iter().filter(|e| e.m.err.is_some()).collect();
    if errors.is_empty() {
        return Ok(());
    }
    blank(out);
    writeln!(out, "### Errors\n")?;
    for e in errors {
        writeln!(
            out,
            "- `{}` with `{}` ({}): {}",
            e.m.name,
            e.m.engine,
            e.source,
            md(e.m.err.as_deref().unwrap_or_default())
        )?;
    }
    Ok(())
}

impl Config {
    /// A Markdown link to `path`, a path from the repository root.
    fn link(&self, text: &str, path: &str) -> String {
        cells::link(&self.root, text, path)
    }
}
