//! The state machine of one read: line by line, the names, positions and costs of the format
//! as the [module documentation](super) describes them.

use crate::error::Problem;
use crate::problem;
use std::collections::HashMap;
use std::path::Path;

use super::model::{add, CallGraph, Function, Node, Profile, Read};
use crate::parse::join::parse_part_comment;
use crate::parse::{names, ParseError};

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
pub(super) struct Reader {
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
    pub(super) fn new(path: &Path, read: Read) -> Reader {
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
    pub(super) fn part(&mut self, rest: &str) {
        if let Some(part) = parse_part_comment(rest) {
            self.profile.parts.push(part);
        }
    }

    pub(super) fn line(&mut self, line: &str) -> Result<(), Problem> {
        if crate::parse::is_cost_line(line) {
            return self.cost_line(line);
        }
        // A cost line right after `calls=` is the call's; anything else in between is damage.
        if self.call.take().is_some() {
            return Err(problem!(
                "`calls=` is not followed by the cost line of the call but by `{line}`"
            ));
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err(problem!("unrecognised line `{line}`"));
        };
        let value = value.trim();
        match key {
            "events" => self.events(value)?,
            "positions" => self.positions(value)?,
            "totals" => self.totals(value)?,
            "summary" => {
                self.check_counts("summary:", value)?;
            }
            "cmd" => self.profile.cmd = Some(value.to_owned()),
            "pid" => self.profile.pid = value.parse().ok(),
            // The cost line after it is the call's, not summed.
            "calls" if self.read != Read::Full => {
                (self.callee, self.callee_object, self.callee_file) = (None, None, None);
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

    fn events(&mut self, value: &str) -> Result<(), Problem> {
        if !self.profile.events.is_empty() {
            // Every part repeats its header; a different one cannot be added up.
            let names: Vec<&str> = value.split_whitespace().collect();
            if names != self.profile.events {
                return Err(problem!(
                    "a later part counts other events (`{value}`) than the first (`{}`): two \
                     profiles in one file? Keep one",
                    self.profile.events.join(" ")
                ));
            }
            return Ok(());
        }
        self.profile.events = value.split_whitespace().map(str::to_owned).collect();
        if self.profile.events.is_empty() {
            return Err(Problem::new("the `events:` line names no event"));
        }
        self.profile.summed = vec![0; self.profile.events.len()];
        self.profile.graph.events = self.profile.events.clone();
        Ok(())
    }

    fn positions(&mut self, value: &str) -> Result<(), Problem> {
        let names: Vec<&str> = value.split_whitespace().collect();
        if names.is_empty() {
            return Err(Problem::new("the `positions:` line is empty"));
        }
        self.columns = names.len();
        self.line_column = names.iter().position(|n| *n == "line");
        self.profile.has_lines = self.line_column.is_some();
        self.last = vec![0; names.len()];
        Ok(())
    }

    fn totals(&mut self, value: &str) -> Result<(), Problem> {
        let values = self.check_counts("totals:", value)?;
        let n = values.len();
        let totals = self.profile.totals.get_or_insert_with(|| vec![0; n]);
        add(totals, &values);
        Ok(())
    }

    /// The counts of a `totals:` or `summary:` line, checked against the events.
    fn check_counts(&self, what: &str, value: &str) -> Result<Vec<u64>, Problem> {
        let n = self.events_len(what)?;
        counts(value.split_whitespace(), n).map_err(|m| problem!("{m} in `{what}` line"))
    }

    fn events_len(&self, what: &str) -> Result<usize, Problem> {
        match self.profile.events.len() {
            0 => Err(problem!("`{what}` comes before the `events:` line")),
            n => Ok(n),
        }
    }

    /// Resolves name compression in table `kind`; an id never defined stays `(id)`.
    fn name(&mut self, kind: usize, value: &str) -> String {
        // `(below main)` is a name as Callgrind writes it uncompressed, not an id.
        let Some((id, name)) = crate::parse::name_id(value) else {
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

    fn function(&mut self, value: &str) -> Result<(), Problem> {
        let n = self.events_len("fn=")?;
        let raw = self.name(FUNCTIONS, value);
        // The call graph only for a full read.
        let node = match self.read {
            Read::Full => self.node((self.object.clone(), self.file.clone(), raw.clone())),
            Read::Totals | Read::Functions => 0,
        };
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

    fn calls(&mut self, value: &str) -> Result<(), Problem> {
        let Some(callee) = self.callee.take() else {
            return Err(Problem::new("`calls=` without a `cfn=` before it"));
        };
        let Some((current, _)) = self.current else {
            return Err(Problem::new("`calls=` before any `fn=`"));
        };
        let count = value.split_whitespace().next().unwrap_or("");
        count
            .parse::<u64>()
            .map_err(|_| problem!("`{count}` is not a call count in `calls={value}`"))?;
        let object = self.callee_object.take().or_else(|| self.object.clone());
        // Without `cfi=`, the callee is in the file of the call's position (`fi=` included),
        // as Callgrind writes `cfi=` only where the two differ.
        let here = self.cost_file.map(|i| self.profile.files[i].clone());
        let file = self.callee_file.take().or(here);
        let caller = &self.profile.functions[current];
        let recursive = names::base_name(&callee) == caller.name && object == caller.object;
        let node = self.node((object, file, callee));
        self.call = Some(Call { recursive, node });
        Ok(())
    }

    fn cost_line(&mut self, line: &str) -> Result<(), Problem> {
        let n = self.events_len("a cost line")?;
        if self.read == Read::Totals {
            // Only the sum, for a profile without `totals:`.
            let mut fields = line.split_whitespace();
            for _ in 0..self.columns {
                fields
                    .next()
                    .ok_or_else(|| problem!("a position is missing in cost line `{line}`"))?;
            }
            let costs = counts(fields, n).map_err(|m| problem!("{m} in cost line `{line}`"))?;
            if self.call.take().is_none() {
                add(&mut self.profile.summed, &costs);
            }
            return Ok(());
        }
        let Some((current, node)) = self.current else {
            return Err(problem!("the cost line `{line}` comes before any `fn=`"));
        };
        if self.read == Read::Functions {
            return self.self_cost_line(line, current, n);
        }
        let mut fields = line.split_whitespace();
        let mut source_line = None;
        for column in 0..self.columns {
            let field = fields
                .next()
                .ok_or_else(|| problem!("a position is missing in cost line `{line}`"))?;
            let pos = position(field, self.last[column])
                .ok_or_else(|| problem!("`{field}` is not a position in cost line `{line}`"))?;
            self.last[column] = pos;
            if self.line_column == Some(column) {
                source_line = Some(pos);
            }
        }
        let costs = counts(fields, n).map_err(|m| problem!("{m} in cost line `{line}`"))?;
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

    /// A cost line of [`Read::Functions`]: the current function's self cost and the sum, the
    /// positions skipped (the lines are not kept).
    fn self_cost_line(&mut self, line: &str, current: usize, n: usize) -> Result<(), Problem> {
        let mut fields = line.split_whitespace();
        for _ in 0..self.columns {
            fields
                .next()
                .ok_or_else(|| problem!("a position is missing in cost line `{line}`"))?;
        }
        let costs = counts(fields, n).map_err(|m| problem!("{m} in cost line `{line}`"))?;
        if self.call.take().is_none() {
            add(&mut self.profile.functions[current].self_cost, &costs);
            add(&mut self.profile.summed, &costs);
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> Result<Profile, ParseError> {
        if self.profile.events.is_empty() {
            return Err(crate::parse::no_events(&self.profile.path));
        }
        if self.call.is_some() && self.read == Read::Full {
            return Err(ParseError::At {
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
fn counts<'a>(fields: impl Iterator<Item = &'a str>, n: usize) -> Result<Vec<u64>, Problem> {
    let mut out = vec![0; n];
    for (slot, field) in fields.enumerate() {
        let value = field
            .parse::<u64>()
            .map_err(|_| problem!("`{field}` is not a count"))?;
        *out.get_mut(slot)
            .ok_or_else(|| problem!("{} costs for {n} events", slot + 1))? = value;
    }
    Ok(out)
}
