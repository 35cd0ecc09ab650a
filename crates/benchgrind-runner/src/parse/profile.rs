//! The Callgrind profile format (`callgrind.out`): the one reader of it. A profile is read once,
//! and totals ([`Profile::totals`]), the breakdown per thread and process
//! ([`Profile::parts`]), the attribution to functions and lines ([`Profile::functions`], for
//! [`crate::explain`]) and the call graph ([`Profile::graph`], for the flamegraphs) all come from
//! that one read. [`Read::Totals`] reads the header and the `totals:` lines only, for when
//! nothing else is wanted.
//!
//! The whole format is followed: `ob=`/`fl=`/`fi=`/`fe=`/`fn=` and the callee's `cob=`/`cfi=`/
//! `cfn=`, with name compression (`(id) name` defines, `(id)` refers; one table each for
//! objects, files and functions; an id a profile never defines reads as the name `(id)`, as
//! some forked processes' profiles of older Callgrind runs have them), `positions:` (`line`,
//! `instr line`, ...) with subposition compression (`+n`, `-n`, `*` relative to the same column
//! of the previous cost line; `calls=` target positions are not cost lines and do not move it,
//! as `callgrind_annotate` reads them), and the cost line after `calls=`, which is the call's
//! inclusive cost and never the caller's self cost. Parts of several dumps add up. A joined
//! profile's parts are noted in comments ([`super::join`]).
//!
//! Definitions, both exact:
//! - self cost of F: the sum of F's cost lines (not those after `calls=`). Callgrind's contexts
//!   of a function (recursion levels `fib'2`, callers `helper'step` with `--separate-callers`)
//!   are merged into it in [`Profile::functions`], so the self costs add up to the total; the
//!   call graph keeps them apart, as the stacks of a flamegraph need them.
//! - inclusive cost of F: its self cost plus the inclusive cost of every call F makes to another
//!   function. Calls of F to itself (direct recursion, after the merge) are left out, as their
//!   cost is already in F's self cost and in the calls it makes. For a function that is not
//!   recursive this is what `callgrind_annotate --inclusive=yes` shows. Mutual recursion
//!   (`a -> b -> a`) is counted along each call, as Callgrind's own call costs count it.
//!
//! Functions are told apart by object, file (`fl=`, the file the function is defined in;
//! `fi=`/`fe=` only move the cost lines of inlined code to another file) and name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::join::{parse_part_comment, NotedPart, PART_COMMENT};
use super::ParseError;
use crate::explain::names;

/// How much of a profile to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// The header and the totals: events, `totals:`, `cmd:`, `pid:`, the parts.
    Totals,
    /// Everything: also the functions, their lines and the call graph.
    Full,
}

/// A function, its contexts merged (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name as Callgrind wrote it, without recursion level and callers
    /// ([`names::base_name`]).
    pub name: String,
    /// The object (`ob=`), when the profile says.
    pub object: Option<String>,
    /// The source file of the function (`fl=`), when the profile says.
    pub file: Option<String>,
    /// Self cost per event.
    pub self_cost: Vec<u64>,
    /// Inclusive cost per event (see the module documentation).
    pub inclusive: Vec<u64>,
    /// Self cost per source line: `(index into Profile::files, line)` to costs. Empty without
    /// line information; line 0 (unknown) is not recorded.
    pub lines: HashMap<(usize, u64), Vec<u64>>,
}

/// A node of the call graph: a function context as Callgrind names it (`fib'2` apart from
/// `fib`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The name as Callgrind wrote it (demangled by Valgrind).
    pub name: String,
    /// Its own costs, one per event.
    pub self_cost: Vec<u64>,
}

/// The call graph: each context's own costs and the inclusive cost of each call edge.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallGraph {
    /// Event names in file order.
    pub events: Vec<String>,
    /// The contexts, in order of first appearance.
    pub functions: Vec<Node>,
    /// `(caller, callee)` indices into `functions` and the inclusive costs of all those calls.
    pub calls: HashMap<(usize, usize), Vec<u64>>,
}

impl CallGraph {
    /// Sum of all contexts' own costs: the profile's total per event.
    pub fn totals(&self) -> Vec<u64> {
        let mut totals = vec![0u64; self.events.len()];
        for f in &self.functions {
            add(&mut totals, &f.self_cost);
        }
        totals
    }
}

/// A Callgrind profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The file it was read from.
    pub path: PathBuf,
    /// Event names in file order.
    pub events: Vec<String>,
    /// The `totals:` lines added up over parts; `None` when the file has none.
    pub totals: Option<Vec<u64>>,
    /// The `cmd:` header.
    pub cmd: Option<String>,
    /// The `pid:` header.
    pub pid: Option<u32>,
    /// The threads and processes a joined profile was joined from ([`super::join`]), each
    /// with its totals in the order of `events`; empty for a profile as Callgrind wrote it.
    pub parts: Vec<NotedPart>,
    /// Whether cost lines carry a source line (`positions:` names `line`).
    pub has_lines: bool,
    /// Source files named by cost lines, for [`Function::lines`].
    pub files: Vec<String>,
    /// The functions, in order of first appearance (empty with [`Read::Totals`]).
    pub functions: Vec<Function>,
    /// The call graph (empty with [`Read::Totals`]).
    pub graph: CallGraph,
    /// The sum of the cost lines, for a profile without `totals:`.
    summed: Vec<u64>,
}

impl Profile {
    /// The sum of the self costs: the profile's total per event.
    pub fn self_sum(&self) -> Vec<u64> {
        let mut sum = vec![0; self.events.len()];
        for f in &self.functions {
            add(&mut sum, &f.self_cost);
        }
        sum
    }

    /// The totals: the `totals:` lines, or the sum of the cost lines when there are none.
    pub fn totals(&self) -> Vec<u64> {
        self.totals.clone().unwrap_or_else(|| self.summed.clone())
    }

    /// The total of one event, or `None` when the profile does not have that event.
    pub fn total(&self, event: &str) -> Option<u64> {
        let i = self.events.iter().position(|e| e == event)?;
        Some(self.totals().get(i).copied().unwrap_or(0))
    }
}

/// How many profiles this process has read (every [`Read`]), for the tests that check that a
/// benchmark's profiles are read once.
pub fn reads() -> usize {
    READS.load(Ordering::Relaxed)
}

static READS: AtomicUsize = AtomicUsize::new(0);

/// Reads and parses a Callgrind out file.
pub fn parse_file(path: &Path, read: Read) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "the Callgrind profile")?;
    parse(path, &bytes, read)
}

/// Parses the bytes of a Callgrind out file; `path` names it in errors and in the result.
pub fn parse(path: &Path, bytes: &[u8], read: Read) -> Result<Profile, ParseError> {
    READS.fetch_add(1, Ordering::Relaxed);
    let mut reader = Reader::new(path, read);
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        if raw.first() == Some(&b'#') {
            if let Some(rest) = raw.strip_prefix(PART_COMMENT.as_bytes()) {
                reader.part(&String::from_utf8_lossy(rest));
            }
            continue;
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        reader.line(line).map_err(|message| ParseError {
            path: path.to_owned(),
            line: Some(i + 1),
            message,
        })?;
    }
    reader.finish()
}

/// Adds `costs` to `sum`, saturating: a damaged file's costs may add up past 2^64.
fn add(sum: &mut [u64], costs: &[u64]) {
    for (s, c) in sum.iter_mut().zip(costs) {
        *s = s.saturating_add(*c);
    }
}

/// Where a cost line after `calls=` goes.
struct Call {
    /// The callee is the current function itself (recursion, after the merge).
    recursive: bool,
    /// The callee's context in the call graph.
    node: usize,
}

/// A function's identity: object, file, name.
type Key = (Option<String>, Option<String>, String);

/// The state of a read in progress.
struct Reader {
    profile: Profile,
    read: Read,
    /// Compressed names: objects, files, functions.
    tables: [HashMap<String, String>; 3],
    /// Merged functions by identity.
    index: HashMap<Key, usize>,
    /// Contexts of the call graph by identity (the name as written).
    nodes: HashMap<Key, usize>,
    file_index: HashMap<String, usize>,
    /// Which position column is the line, and how many columns there are.
    line_column: Option<usize>,
    columns: usize,
    last: Vec<i64>,
    object: Option<String>,
    file: Option<String>,
    /// The file of the following cost lines (`fi=`/`fe=`, else `fl=`).
    cost_file: Option<usize>,
    /// The current function (merged) and context (graph node).
    current: Option<(usize, usize)>,
    callee_object: Option<String>,
    callee_file: Option<String>,
    callee: Option<String>,
    call: Option<Call>,
}

const OBJECTS: usize = 0;
const FILES: usize = 1;
const FUNCTIONS: usize = 2;

impl Reader {
    fn new(path: &Path, read: Read) -> Reader {
        Reader {
            profile: Profile {
                path: path.to_owned(),
                events: Vec::new(),
                totals: None,
                cmd: None,
                pid: None,
                parts: Vec::new(),
                has_lines: true,
                files: Vec::new(),
                functions: Vec::new(),
                graph: CallGraph::default(),
                summed: Vec::new(),
            },
            read,
            tables: Default::default(),
            index: HashMap::new(),
            nodes: HashMap::new(),
            file_index: HashMap::new(),
            line_column: Some(0),
            columns: 1,
            last: vec![0],
            object: None,
            file: None,
            cost_file: None,
            current: None,
            callee_object: None,
            callee_file: None,
            callee: None,
            call: None,
        }
    }

    /// A `# benchgrind part:` comment.
    fn part(&mut self, rest: &str) {
        if let Some(part) = parse_part_comment(rest) {
            self.profile.parts.push(part);
        }
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        if super::is_cost_line(line) {
            return self.cost_line(line);
        }
        // A cost line right after `calls=` is the call's; anything else in between is damage.
        if self.call.take().is_some() {
            return Err(format!(
                "`calls=` is not followed by the cost line of the call but by `{line}`"
            ));
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err(format!("unrecognised line `{line}`"));
        };
        let value = value.trim();
        match key {
            "events" => self.events(value)?,
            "positions" => self.positions(value)?,
            "totals" => self.totals(value)?,
            "summary" => self.check_counts("summary:", value)?,
            "cmd" => self.profile.cmd = Some(value.to_owned()),
            "pid" => self.profile.pid = value.parse().ok(),
            // The cost line after it is the call's, not summed.
            "calls" if self.read == Read::Totals => {
                self.call = Some(Call {
                    recursive: true,
                    node: 0,
                })
            }
            _ if self.read == Read::Totals => {}
            "ob" => self.object = Some(self.name(OBJECTS, value)),
            "fl" => {
                let file = self.name(FILES, value);
                self.cost_file = Some(self.intern_file(&file));
                self.file = Some(file);
            }
            "fi" | "fe" => {
                let file = self.name(FILES, value);
                self.cost_file = Some(self.intern_file(&file));
            }
            "fn" => self.function(value)?,
            "cob" => self.callee_object = Some(self.name(OBJECTS, value)),
            "cfi" | "cfl" => self.callee_file = Some(self.name(FILES, value)),
            "jfi" => {
                self.name(FILES, value);
            }
            "cfn" => self.callee = Some(self.name(FUNCTIONS, value)),
            "jfn" => {
                self.name(FUNCTIONS, value);
            }
            "calls" => self.calls(value)?,
            _ => {}
        }
        Ok(())
    }

    fn events(&mut self, value: &str) -> Result<(), String> {
        if !self.profile.events.is_empty() {
            // Every part repeats its header; a different one cannot be added up.
            let names: Vec<&str> = value.split_whitespace().collect();
            if names != self.profile.events {
                return Err(format!(
                    "a later part counts other events (`{value}`) than the first (`{}`): two \
                     profiles in one file? Keep one",
                    self.profile.events.join(" ")
                ));
            }
            return Ok(());
        }
        self.profile.events = value.split_whitespace().map(str::to_owned).collect();
        if self.profile.events.is_empty() {
            return Err("the `events:` line names no event".into());
        }
        self.profile.summed = vec![0; self.profile.events.len()];
        self.profile.graph.events = self.profile.events.clone();
        Ok(())
    }

    fn positions(&mut self, value: &str) -> Result<(), String> {
        let names: Vec<&str> = value.split_whitespace().collect();
        if names.is_empty() {
            return Err("the `positions:` line is empty".into());
        }
        self.columns = names.len();
        self.line_column = names.iter().position(|n| *n == "line");
        self.profile.has_lines = self.line_column.is_some();
        self.last = vec![0; names.len()];
        Ok(())
    }

    fn totals(&mut self, value: &str) -> Result<(), String> {
        let values = self.check_counts("totals:", value)?;
        let n = values.len();
        let totals = self.profile.totals.get_or_insert_with(|| vec![0; n]);
        add(totals, &values);
        Ok(())
    }

    /// The counts of a `totals:` or `summary:` line, checked against the events.
    fn check_counts(&self, what: &str, value: &str) -> Result<Vec<u64>, String> {
        let n = self.events_len(what)?;
        counts(value.split_whitespace(), n).map_err(|m| format!("{m} in `{what}` line"))
    }

    fn events_len(&self, what: &str) -> Result<usize, String> {
        match self.profile.events.len() {
            0 => Err(format!("`{what}` comes before the `events:` line")),
            n => Ok(n),
        }
    }

    /// Resolves name compression in table `kind`; an id never defined stays `(id)`.
    fn name(&mut self, kind: usize, value: &str) -> String {
        // `(below main)` is a name as Callgrind writes it uncompressed, not an id.
        let Some((id, name)) = super::name_id(value) else {
            return value.to_owned();
        };
        let name = name.trim();
        let table = &mut self.tables[kind];
        if name.is_empty() {
            table.get(id).cloned().unwrap_or_else(|| format!("({id})"))
        } else {
            table.insert(id.to_owned(), name.to_owned());
            name.to_owned()
        }
    }

    fn intern_file(&mut self, file: &str) -> usize {
        if let Some(&i) = self.file_index.get(file) {
            return i;
        }
        self.profile.files.push(file.to_owned());
        self.file_index
            .insert(file.to_owned(), self.profile.files.len() - 1);
        self.profile.files.len() - 1
    }

    /// The context of the call graph named `key`, added on first sight.
    fn node(&mut self, key: Key) -> usize {
        let n = self.profile.events.len();
        let graph = &mut self.profile.graph;
        *self.nodes.entry(key).or_insert_with_key(|key| {
            graph.functions.push(Node {
                name: key.2.clone(),
                self_cost: vec![0; n],
            });
            graph.functions.len() - 1
        })
    }

    fn function(&mut self, value: &str) -> Result<(), String> {
        let n = self.events_len("fn=")?;
        let raw = self.name(FUNCTIONS, value);
        let node = self.node((self.object.clone(), self.file.clone(), raw.clone()));
        let key = (
            self.object.clone(),
            self.file.clone(),
            names::base_name(&raw).to_owned(),
        );
        let functions = &mut self.profile.functions;
        let id = *self.index.entry(key).or_insert_with_key(|key| {
            functions.push(Function {
                name: key.2.clone(),
                object: key.0.clone(),
                file: key.1.clone(),
                self_cost: vec![0; n],
                inclusive: vec![0; n],
                lines: HashMap::new(),
            });
            functions.len() - 1
        });
        self.current = Some((id, node));
        // Inlined code moved the cost lines elsewhere; a new function starts in its own file.
        self.cost_file = self.file.clone().map(|f| self.intern_file(&f));
        Ok(())
    }

    fn calls(&mut self, value: &str) -> Result<(), String> {
        let Some(callee) = self.callee.take() else {
            return Err("`calls=` without a `cfn=` before it".into());
        };
        let Some((current, _)) = self.current else {
            return Err("`calls=` before any `fn=`".into());
        };
        let count = value.split_whitespace().next().unwrap_or("");
        count
            .parse::<u64>()
            .map_err(|_| format!("`{count}` is not a call count in `calls={value}`"))?;
        let object = self.callee_object.take().or_else(|| self.object.clone());
        let file = self.callee_file.take().or_else(|| self.file.clone());
        let caller = &self.profile.functions[current];
        let recursive = names::base_name(&callee) == caller.name && object == caller.object;
        let node = self.node((object, file, callee));
        self.call = Some(Call { recursive, node });
        Ok(())
    }

    fn cost_line(&mut self, line: &str) -> Result<(), String> {
        let n = self.events_len("a cost line")?;
        if self.read == Read::Totals {
            // Only the sum, for a profile without `totals:`.
            let mut fields = line.split_whitespace();
            for _ in 0..self.columns {
                fields
                    .next()
                    .ok_or_else(|| format!("a position is missing in cost line `{line}`"))?;
            }
            let costs = counts(fields, n).map_err(|m| format!("{m} in cost line `{line}`"))?;
            if self.call.take().is_none() {
                add(&mut self.profile.summed, &costs);
            }
            return Ok(());
        }
        let Some((current, node)) = self.current else {
            return Err(format!("the cost line `{line}` comes before any `fn=`"));
        };
        let mut fields = line.split_whitespace();
        let mut source_line = None;
        for column in 0..self.columns {
            let field = fields
                .next()
                .ok_or_else(|| format!("a position is missing in cost line `{line}`"))?;
            let pos = position(field, self.last[column])
                .ok_or_else(|| format!("`{field}` is not a position in cost line `{line}`"))?;
            self.last[column] = pos;
            if self.line_column == Some(column) {
                source_line = Some(pos);
            }
        }
        let costs = counts(fields, n).map_err(|m| format!("{m} in cost line `{line}`"))?;
        let function = &mut self.profile.functions[current];
        match self.call.take() {
            Some(call) => {
                if !call.recursive {
                    add(&mut function.inclusive, &costs);
                }
                let edge = self
                    .profile
                    .graph
                    .calls
                    .entry((node, call.node))
                    .or_insert_with(|| vec![0; n]);
                add(edge, &costs);
            }
            None => {
                add(&mut function.self_cost, &costs);
                add(&mut function.inclusive, &costs);
                if let (Some(file), Some(l)) = (self.cost_file, source_line) {
                    if l > 0 {
                        let slot = function
                            .lines
                            .entry((file, l as u64))
                            .or_insert_with(|| vec![0; n]);
                        add(slot, &costs);
                    }
                }
                add(&mut self.profile.graph.functions[node].self_cost, &costs);
                add(&mut self.profile.summed, &costs);
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Profile, ParseError> {
        if self.profile.events.is_empty() {
            return Err(super::no_events(&self.profile.path));
        }
        if self.call.is_some() && self.read == Read::Full {
            return Err(ParseError {
                path: self.profile.path,
                line: None,
                message: "the file ends after `calls=`, before the cost of the call: it is \
                          truncated"
                    .into(),
            });
        }
        let events = self.profile.events.len();
        for part in &mut self.profile.parts {
            part.totals.resize(events, 0);
        }
        Ok(self.profile)
    }
}

/// A position field: absolute (decimal or `0x` hex), `+n`/`-n` relative to `last`, or `*`.
fn position(field: &str, last: i64) -> Option<i64> {
    let number = |s: &str| match s.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => s.parse::<i64>().ok(),
    };
    match field.as_bytes()[0] {
        b'*' if field.len() == 1 => Some(last),
        b'+' => last.checked_add(number(&field[1..])?),
        b'-' => last.checked_sub(number(&field[1..])?),
        _ => number(field),
    }
}

/// Up to `n` counts; missing ones are zero.
fn counts<'a>(fields: impl Iterator<Item = &'a str>, n: usize) -> Result<Vec<u64>, String> {
    let mut out = vec![0; n];
    for (slot, field) in fields.enumerate() {
        let value = field
            .parse::<u64>()
            .map_err(|_| format!("`{field}` is not a count"))?;
        *out.get_mut(slot)
            .ok_or_else(|| format!("{} costs for {n} events", slot + 1))? = value;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Profile, ParseError> {
        parse(Path::new("t.out"), text.as_bytes(), Read::Full)
    }

    fn totals(text: &str) -> Result<Profile, ParseError> {
        parse(Path::new("t.out"), text.as_bytes(), Read::Totals)
    }

    fn by_name<'a>(profile: &'a Profile, name: &str) -> &'a Function {
        profile
            .functions
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    // The shape Callgrind writes with compression: compressed names, relative lines, an inlined
    // file, a call whose cost line sits between two self cost lines, a recursion level.
    const TEXT: &str = "positions: line\nevents: Ir Dr\nob=(1) /bin/p\nfl=(1) a.c\n\
        fn=(1) main\n10 5 1\n+2 3\ncfn=(2) work\ncalls=1 20\n* 100 10\n+1 1\n\
        fi=(2) h.h\n7 4\nfe=(1)\n14 1\n\
        fn=(2)\n20 60 6\ncfn=(3) fib\ncalls=1 -10\n* 40 4\n\
        fl=(3) b.c\nfn=(3)\n5 10 1\ncfn=(4) fib'2\ncalls=2 5\n* 30 3\nfn=(4)\n5 30 3\n\
        totals: 115 11\n";

    #[test]
    fn self_inclusive_and_lines() {
        let profile = p(TEXT).unwrap();
        let main = by_name(&profile, "main");
        assert_eq!(main.self_cost, [14, 1]);
        assert_eq!(main.inclusive, [114, 11]);
        assert_eq!(main.file.as_deref(), Some("a.c"));
        assert_eq!(main.object.as_deref(), Some("/bin/p"));
        let line = |f: &Function, file: &str, l: u64| {
            let file = profile.files.iter().position(|x| x == file).unwrap();
            f.lines.get(&(file, l)).cloned()
        };
        // 10, +2 = 12, the call at * = 12 (not a self line), +1 = 13, then h.h:7 and a.c:14.
        assert_eq!(line(main, "a.c", 10), Some(vec![5, 1]));
        assert_eq!(line(main, "a.c", 12), Some(vec![3, 0]));
        assert_eq!(line(main, "a.c", 13), Some(vec![1, 0]));
        assert_eq!(line(main, "h.h", 7), Some(vec![4, 0]));
        assert_eq!(line(main, "a.c", 14), Some(vec![1, 0]));
        let fib = by_name(&profile, "fib");
        // fib'2 is merged into fib; the call between the levels is recursion.
        assert_eq!(fib.self_cost, [40, 4]);
        assert_eq!(fib.inclusive, [40, 4]);
        assert_eq!(fib.file.as_deref(), Some("b.c"));
        assert_eq!(by_name(&profile, "work").inclusive, [100, 10]);
        assert_eq!(profile.functions.len(), 3);
        assert_eq!(profile.self_sum(), [114, 11]);
        assert_eq!(profile.totals(), [115, 11]);
    }

    #[test]
    fn the_call_graph_keeps_recursion_levels_apart() {
        let text = "positions: line\nevents: Ir Dr\nfl=(1) a.rs\nfn=(1) c::fib\n\
            7 4 1\ncfn=(2) c::fib'2\ncalls=1 -4\n* 30 5\n+2 1\nfn=(2)\n7 30 5\ncfn=(2)\n\
            calls=3 -4\n* 20 2\nfn=(3) c::bench\n18 2\ncfn=(1)\ncalls=1 -12\n* 35 6\n";
        let g = p(text).unwrap().graph;
        let names: Vec<_> = g.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["c::fib", "c::fib'2", "c::bench"]);
        assert_eq!(g.functions[0].self_cost, [5, 1]);
        assert_eq!(g.functions[1].self_cost, [30, 5]);
        assert_eq!(g.calls[&(0, 1)], [30, 5]);
        assert_eq!(g.calls[&(1, 1)], [20, 2]);
        assert_eq!(g.calls[&(2, 0)], [35, 6]);
        assert_eq!(g.totals(), [37, 6]);
    }

    #[test]
    fn totals_alone_read_the_same_totals() {
        for text in [
            TEXT,
            "events: Ir Dr\nfn=a\n3 10 2\n+1 5\ncfn=b\ncalls=1 0\n4 100 50\nfn=b\n* 7 1\n",
        ] {
            assert_eq!(totals(text).unwrap().totals(), p(text).unwrap().totals());
        }
        // Without `totals:`, the cost lines but those of calls add up.
        let text = "events: Ir Dr\nfn=a\n3 10 2\n+1 5\ncfn=b\ncalls=1 0\n4 100 50\nfn=b\n* 7 1\n";
        assert_eq!(totals(text).unwrap().totals(), [22, 3]);
        let profile = totals(TEXT).unwrap();
        assert!(profile.functions.is_empty() && profile.graph.functions.is_empty());
        // A `totals:` line wins; short lines are zero-filled.
        let profile = totals("events: Ir Dr Dw\n1 1\ntotals: 9\n").unwrap();
        assert_eq!(profile.totals(), [9, 0, 0]);
        assert_eq!(profile.total("Dw"), Some(0));
        assert_eq!(profile.total("Bc"), None);
    }

    #[test]
    fn uncompressed_names_parts_and_ids_never_defined() {
        // As Callgrind writes with `--compress-strings=no`, `(below main)` included, and a
        // joined profile's note of its parts.
        let text = "# callgrind format\npid: 7\ncmd:  ./prog a\n\
            # benchgrind part: pid=7 thread=1 totals=5 cmd=./prog a\n\
            # benchgrind part: pid=7 thread=2 totals=4 cmd=./prog a\n\
            positions: line\nevents: Ir\nfl=a.c\nfn=(below main)\n1 5\nfn=worker\n2 4\n\
            totals: 9\n";
        let profile = p(text).unwrap();
        assert_eq!(by_name(&profile, "(below main)").self_cost, [5]);
        assert_eq!((profile.pid, profile.cmd.as_deref()), (Some(7), Some("./prog a")));
        let parts: Vec<_> = profile.parts.iter().map(|p| (p.id.thread, p.totals[0])).collect();
        assert_eq!(parts, [(1, 5), (2, 4)]);
        assert_eq!(totals(text).unwrap().parts, profile.parts);
        // Older Callgrind runs wrote some forked processes' profiles with ids they never
        // defined: the function is read, named by its id.
        let profile = p("events: Ir\nfl=(1) a.c\nfn=(0) main\n1 2\nfi=(2)\n3 4\nfn=(5)\n1 1\n")
            .unwrap();
        assert_eq!(by_name(&profile, "main").self_cost, [6]);
        assert!(profile.files.contains(&"(2)".to_owned()));
        assert_eq!(by_name(&profile, "(5)").self_cost, [1]);
    }

    #[test]
    fn instruction_and_line_positions() {
        let text = "positions: instr line\nevents: Ir\nfl=a.c\nfn=f\n0x10 3 1\n+4 +1 2\n* -1 4\n";
        let profile = p(text).unwrap();
        let f = &profile.functions[0];
        assert_eq!(f.self_cost, [7]);
        assert_eq!(f.lines[&(0, 3)], [5]);
        assert_eq!(f.lines[&(0, 4)], [2]);
        assert!(p("positions: instr\nevents: Ir\nfn=f\n1 2\n")
            .unwrap()
            .functions[0]
            .lines
            .is_empty());
    }

    // Found by the explain_profile fuzz target (fuzz/README.md): costs adding up past 2^64
    // overflowed (a panic with overflow checks, a wrong sum without).
    #[test]
    fn costs_past_two_to_the_64_saturate() {
        let max = u64::MAX;
        let text = format!(
            "events: Ir\nfn=main\n1 {max}\n2 {max}\ncfn=work\ncalls=1 1\n3 {max}\n\
             fn=work\n1 {max}\n"
        );
        let profile = p(&text).unwrap();
        let main = by_name(&profile, "main");
        assert_eq!(main.self_cost, [max]);
        assert_eq!(main.inclusive, [max]);
        assert_eq!(profile.totals(), [max]);
        assert_eq!(totals(&text).unwrap().totals(), [max]);
    }

    #[test]
    fn damaged_files_name_the_line() {
        for (text, line, words) in [
            ("events: Ir\nfn=a\n1 x\n", 3, "`x` is not a count"),
            ("events: Ir\n1 2\n", 2, "before any `fn=`"),
            ("fn=a\n1 2\n", 2, "before the `events:` line"),
            ("events: Ir\nfn=a\ncalls=1 2\n", 3, "without a `cfn=`"),
            (
                "events: Ir\nfn=a\ncfn=b\ncalls=1 2\nfn=c\n",
                5,
                "not followed by the cost",
            ),
            ("events: Ir\nfn=a\nx 1\n", 3, "unrecognised line"),
            ("events: Ir\nfn=a\n1 1 2\n", 3, "2 costs for 1 events"),
            ("events: Ir\nfn=a\n+x 1\n", 3, "not a position"),
            ("events: Ir\ntotals: 1 2\n", 2, "2 costs for 1 events"),
            // Found by fuzzing (fuzz/fuzz_targets/callgrind_profile.rs), minimized.
            ("events:m\ntotals:\nevents:b 6", 3, "other events"),
        ] {
            let e = p(text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text}: {e}");
            assert!(e.to_string().contains(words), "{e}");
            assert!(e.to_string().starts_with(&format!("t.out:{line}: ")), "{e}");
        }
        let e = p("events: Ir\nfn=a\ncfn=b\ncalls=1 2\n").unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        assert!(p("").unwrap_err().to_string().contains("no `events:`"));
        assert!(p("events: Ir\n1 5\nevents: Ir\nfn=a\n2 6\n").is_err());
        assert!(totals("events: Ir\n1 5\nevents: Ir\n2 6\n").is_ok());
    }
}
