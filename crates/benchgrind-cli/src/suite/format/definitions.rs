//! `definitions/**/*.toml`: benchmark definitions in rebar's format, resolved into
//! [`Definition`]s with their patterns and haystack bytes loaded.
//!
//! The group of a benchmark is its file's path under `definitions/` without `.toml`; its full
//! name is `group/name`. A broken file or benchmark becomes a [`Problem`] and the rest still
//! load, so one typo does not stop a whole suite from being measured. Unknown keys in a
//! `[[bench]]` are errors (as in rebar): a misspelt key would otherwise be silently ignored.
//!
//! As in rebar, only the benchmarks that the caller selects (the filters of `measure`, say) are
//! resolved and checked: the haystack or pattern file of a benchmark left out is not read, so
//! it cannot fail the run. Every file is still parsed, and TOML that does not parse is a
//! problem wherever it is (it could hold a selected benchmark).

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::Arc,
};

use serde::Deserialize;
use toml::{Spanned, Value};

use super::{inputs, parse_toml_at, Lines, Problem};

/// A definition file: benchmarks and the group's analysis text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireFile {
    #[serde(default)]
    bench: Vec<WireBench>,
    analysis: Option<String>,
}

/// One `[[bench]]` entry, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct WireBench {
    model: String,
    name: Spanned<String>,
    regex: Spanned<Value>,
    #[serde(default)]
    case_insensitive: bool,
    #[serde(default)]
    unicode: bool,
    haystack: Spanned<Value>,
    count: Spanned<Value>,
    engines: Vec<Spanned<String>>,
    analysis: Option<String>,
}

/// One engine named by a benchmark, with where it is named (for "unknown engine" errors).
#[derive(Clone, Debug)]
pub struct EngineRef {
    /// The engine name as written.
    pub name: String,
    /// `file:line` of the entry in `engines = [...]`.
    pub location: String,
}

/// An expected count for the engines matching `engine` (anchored), rebar's per-engine counts.
#[derive(Clone, Debug)]
pub struct CountRule {
    re: regex::Regex,
    /// The engine regex as written (`.*` for a single count), as reports show it.
    pub engine: String,
    /// The expected count.
    pub count: u64,
}

/// A benchmark definition, ready to be turned into KLV.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Full name, `group/name`.
    pub name: String,
    /// The model label, passed through to runners.
    pub model: String,
    /// The patterns, after `path`/`literal`/`per-line`/`prepend`/`append`.
    pub patterns: Vec<String>,
    /// `regex = { path = ... }`: the pattern file, relative to `regexes/`.
    pub regex_path: Option<String>,
    /// `case-insensitive`.
    pub case_insensitive: bool,
    /// `unicode`.
    pub unicode: bool,
    /// The haystack bytes, after every transformation.
    pub haystack: Arc<[u8]>,
    /// `haystack = { path = ... }`: the haystack file, relative to `haystacks/`.
    pub haystack_path: Option<String>,
    /// Expected counts; the first rule whose pattern matches the engine applies.
    pub counts: Vec<CountRule>,
    /// The engines to measure, in the order written.
    pub engines: Vec<EngineRef>,
    /// Free-form analysis text for reports.
    pub analysis: Option<String>,
    /// `file:line` of the benchmark's `name`.
    pub location: String,
}

impl Definition {
    /// The expected count for `engine`, or `None` when no count rule matches it.
    pub fn count_for(&self, engine: &str) -> Option<u64> {
        self.counts
            .iter()
            .find(|c| c.re.is_match(engine))
            .map(|c| c.count)
    }

    /// The haystack length used for throughput; rebar leaves it out for the `compile` and
    /// `regex-redux` models, where the haystack is not what is being measured.
    pub fn haystack_len(&self) -> Option<u64> {
        match self.model.as_str() {
            "compile" | "regex-redux" => None,
            _ => Some(self.haystack.len() as u64),
        }
    }
}

/// Everything found under `definitions/`: the good definitions, the problems, and each group's
/// top-level `analysis` text.
#[derive(Debug, Default)]
pub struct Definitions {
    /// The selected definitions, in file-path order, then file order.
    pub defs: Vec<Definition>,
    /// Problems: broken files, bad fields and duplicate names of selected benchmarks.
    pub problems: Vec<Problem>,
    /// What was noticed about benchmarks not selected (a bad or duplicate name); not errors.
    pub notes: Vec<Problem>,
    /// The full names of the benchmarks not selected, left unresolved.
    pub unselected: Vec<String>,
    /// Group -> analysis text.
    pub analysis: BTreeMap<String, String>,
}

/// Chooses the benchmarks to resolve, from their full name, model and engine names.
pub type Select<'a> = &'a dyn Fn(&str, &str, &[&str]) -> bool;

/// Selects every benchmark.
pub fn all(_name: &str, _model: &str, _engines: &[&str]) -> bool {
    true
}

/// The one benchmark named `name` (`group/name`) under `dir/definitions`, resolved alone: a
/// problem in another benchmark does not matter. Not finding it is an error that names the
/// directory and the benchmarks it holds, or the problems that may hide it.
pub fn find_one(dir: &Path, name: &str) -> anyhow::Result<Definition> {
    let mut defs = load(dir, &|n, _, _| n == name);
    if let Some(i) = defs.defs.iter().position(|d| d.name == name) {
        return Ok(defs.defs.swap_remove(i));
    }
    let mut msg = format!(
        "no benchmark named '{name}' in {}",
        dir.join("definitions").display()
    );
    if !defs.problems.is_empty() {
        msg.push_str("; these problems may hide it:");
        for pr in &defs.problems {
            msg.push_str(&format!("\n  {pr}"));
        }
    } else if defs.unselected.is_empty() {
        msg.push_str(" (known: none)");
    } else {
        msg.push_str(&format!(" (known: {})", defs.unselected.join(", ")));
    }
    anyhow::bail!(msg)
}

/// Whether a name piece (group or benchmark) matches rebar's `^[-A-Za-z0-9]+$`.
fn valid_piece(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Every `*.toml` file below `dir`, recursively.
fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            toml_files(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Loads the definitions under `dir/definitions` that `select` chooses, reading haystacks from
/// `dir/haystacks` and pattern files from `dir/regexes`.
pub fn load(dir: &Path, select: Select) -> Definitions {
    let mut out = Definitions::default();
    let root = dir.join("definitions");
    let mut files = vec![];
    if let Err(e) = toml_files(&root, &mut files) {
        out.problems.push(Problem {
            location: root.display().to_string(),
            message: format!("cannot read the definitions directory: {e} (is -d/--dir pointing at the suite directory?)"),
        });
        return out;
    }
    let mut load = Loading {
        cache: inputs::Cache::new(dir),
        seen: BTreeMap::new(),
        select,
    };
    for path in files {
        load_file(&root, &path, &mut load, &mut out);
    }
    out
}

/// What loading the files of one suite shares.
struct Loading<'a> {
    /// Haystack and pattern files read.
    cache: inputs::Cache,
    /// Full names seen -> where.
    seen: BTreeMap<String, String>,
    /// Which benchmarks to resolve.
    select: Select<'a>,
}

/// Loads one definition file into `out`, its problems included.
fn load_file(root: &Path, path: &Path, load: &mut Loading, out: &mut Definitions) {
    let problem = |location: String, message: String| Problem { location, message };
    let group = path
        .strip_prefix(root)
        .unwrap_or(path)
        .with_extension("")
        .to_string_lossy()
        .replace('\\', "/");
    if let Some(bad) = group.split('/').find(|p| !valid_piece(p)) {
        out.problems.push(problem(
            path.display().to_string(),
            format!("group name '{group}' (from the file path) has part '{bad}', which must match ^[-A-Za-z0-9]+$; rename the file"),
        ));
        return;
    }
    match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(text)) => parse_file(path, &text, &group, load, out),
        Ok(Err(_)) => out.problems.push(problem(
            path.display().to_string(),
            "the file is not valid UTF-8".into(),
        )),
        Err(e) => out.problems.push(problem(
            path.display().to_string(),
            format!("cannot read: {e}"),
        )),
    }
}

/// Loads the definitions of the suite `dir` from the text of one definition file, `path` (below
/// `dir/definitions`, named in problems), as [`load`] does for each file.
pub fn load_text(dir: &Path, path: &Path, text: &str) -> Definitions {
    let mut out = Definitions::default();
    let group = path.file_stem().unwrap_or_default().to_string_lossy();
    let mut load = Loading {
        cache: inputs::Cache::new(dir),
        seen: BTreeMap::new(),
        select: &all,
    };
    parse_file(path, text, &group, &mut load, &mut out);
    out
}

/// Parses one definition file's text into `out`, its problems included.
fn parse_file(path: &Path, text: &str, group: &str, load: &mut Loading, out: &mut Definitions) {
    // Each `[[bench]]` is parsed on its own, so a broken benchmark does not hide the others in
    // the same file; line numbers stay those of the whole file.
    let lines = Lines::new(text);
    for range in segments(text) {
        let start = range.start;
        match parse_toml_at::<WireFile>(path, &lines, range) {
            Ok(wire) => load_benches(path, &lines, start, group, wire, load, out),
            Err(p) => out.problems.push(p),
        }
    }
}

/// Byte ranges of `text` split before every line that is exactly `[[bench]]`.
fn segments(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut starts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && line.trim() == "[[bench]]" {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// Resolves the selected `[[bench]]` entries of one file into definitions.
fn load_benches(
    path: &Path,
    lines: &Lines,
    start: usize,
    group: &str,
    wire: WireFile,
    load: &mut Loading,
    out: &mut Definitions,
) {
    let problem = |location: String, message: String| Problem { location, message };
    if let Some(a) = wire.analysis {
        out.analysis.insert(group.to_string(), a);
    }
    for b in wire.bench {
        let loc = |off: usize| lines.location(path, Some(start + off));
        let name_loc = loc(b.name.span().start);
        let local = b.name.get_ref().clone();
        let full = format!("{group}/{local}");
        let engine_names: Vec<&str> = b.engines.iter().map(|e| e.get_ref().as_str()).collect();
        let selected = (load.select)(&full, &b.model, &engine_names);
        // A bad name of a benchmark left out is only noted, as rebar does not check it.
        let (list, aside) = if selected {
            (&mut out.problems, "")
        } else {
            (&mut out.notes, " (not selected, so not loaded)")
        };
        if !valid_piece(&local) {
            list.push(problem(name_loc, format!("benchmark name '{local}' must match ^[-A-Za-z0-9]+$ (the full name would be '{full}'){aside}")));
            continue;
        }
        if let Some(first) = load.seen.get(&full) {
            list.push(problem(
                name_loc,
                format!("benchmark '{full}' is defined twice (first at {first}){aside}"),
            ));
            continue;
        }
        load.seen.insert(full.clone(), name_loc.clone());
        if !selected {
            out.unselected.push(full);
            continue;
        }
        let cache = &mut load.cache;
        let mut fail = |at: usize, field: &str, m: String| {
            out.problems.push(problem(
                loc(at),
                format!("benchmark '{full}': `{field}`: {m}"),
            ));
        };
        let patterns = match inputs::patterns(cache, b.regex.get_ref()) {
            Ok(p) => p,
            Err(m) => {
                fail(b.regex.span().start, "regex", m.into());
                continue;
            }
        };
        let haystack = match inputs::haystack(cache, b.haystack.get_ref()) {
            Ok(h) => h,
            Err(m) => {
                fail(b.haystack.span().start, "haystack", m.into());
                continue;
            }
        };
        let counts = match counts(b.count.get_ref()) {
            Ok(c) => c,
            Err(m) => {
                fail(b.count.span().start, "count", m);
                continue;
            }
        };
        let engines = b
            .engines
            .iter()
            .map(|e| EngineRef {
                name: e.get_ref().clone(),
                location: loc(e.span().start),
            })
            .collect();
        out.defs.push(Definition {
            name: full,
            model: b.model,
            patterns,
            regex_path: path_of(b.regex.get_ref()),
            case_insensitive: b.case_insensitive,
            unicode: b.unicode,
            haystack,
            haystack_path: path_of(b.haystack.get_ref()),
            counts,
            engines,
            analysis: b.analysis,
            location: name_loc,
        });
    }
}

/// The `path` of a `regex` or `haystack` table, if it has one.
fn path_of(v: &Value) -> Option<String> {
    v.get("path").and_then(Value::as_str).map(str::to_string)
}

/// The `count` value: one number for every engine, or a list of engine regexes with counts.
fn counts(v: &Value) -> Result<Vec<CountRule>, String> {
    let rule = |engine: &str, count: i64| -> Result<CountRule, String> {
        let count = u64::try_from(count)
            .map_err(|_| format!("the count must not be negative, got {count}"))?;
        let re = regex::Regex::new(&format!("^(?:{engine})$"))
            .map_err(|e| format!("invalid engine regex {engine:?}: {e}"))?;
        Ok(CountRule {
            re,
            engine: engine.to_string(),
            count,
        })
    };
    match v {
        Value::Integer(n) => Ok(vec![rule(".*", *n)?]),
        Value::Array(items) => items
            .iter()
            .map(|item| {
                let t = item
                    .as_table()
                    .ok_or("each entry must be a table `{ engine = \"regex\", count = N }`")?;
                if let Some(k) = t.keys().find(|k| *k != "engine" && *k != "count") {
                    return Err(format!("unknown key `{k}` (expected `engine` and `count`)"));
                }
                let engine = t
                    .get("engine")
                    .and_then(Value::as_str)
                    .ok_or("each entry needs `engine = \"regex\"`")?;
                let count = t
                    .get("count")
                    .and_then(Value::as_integer)
                    .ok_or("each entry needs `count = N`")?;
                rule(engine, count)
            })
            .collect(),
        _ => {
            Err("expected a number or a list of `{ engine = \"regex\", count = N }` tables".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found by fuzzing (fuzz/fuzz_targets/definitions_toml.rs): each location counted the lines
    // from the start of the file, so a file of many benchmarks loaded in quadratic time; with
    // the line index it is linear, and every location still names its benchmark's line.
    #[test]
    fn many_benchmarks_load_in_linear_time_with_their_lines() {
        let n = 20_000;
        let mut text = String::new();
        for i in 0..n {
            text += &format!(
                "[[bench]]\nmodel = \"count\"\nname = \"b{i}\"\nregex = \"a\"\n\
                 haystack = \"aaa\"\ncount = 3\nengines = [\"e\"]\n\n"
            );
        }
        // The same name again: a problem at its line.
        text += "[[bench]]\nmodel = \"count\"\nname = \"b0\"\nregex = \"a\"\n\
                 haystack = \"a\"\ncount = 1\nengines = [\"e\"]\n";
        let path = Path::new("/suite/definitions/many.toml");
        let start = std::time::Instant::now();
        let defs = load_text(Path::new("/suite"), path, &text);
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        assert_eq!(defs.defs.len(), n, "{:?}", defs.problems.first());
        assert_eq!(
            defs.defs[n - 1].location,
            format!("{}:{}", path.display(), 8 * (n - 1) + 3)
        );
        let last = format!("{}:{}", path.display(), 8 * n + 3);
        assert!(
            defs.problems.iter().any(|p| p.location == last),
            "{:?}",
            defs.problems
        );
    }
}
