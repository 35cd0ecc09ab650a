//! The Callgrind profile format with its call graph: each function's own costs and the
//! inclusive cost of each call edge, as flamegraphs need them.
//!
//! Names may be compressed (`fn=(12) name` defines, `fn=(12)` refers); a cost line after
//! `calls=` is the inclusive cost of that call, every other cost line belongs to the current
//! function. Parts of several dumps are added up. Callgrind marks recursion levels with a
//! suffix (`fib'2`); they stay separate nodes here and are merged only for display.

use std::collections::HashMap;
use std::path::Path;

use super::ParseError;

/// A function of the profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name as Callgrind wrote it (demangled by Valgrind).
    pub name: String,
    /// Its own costs, one per event.
    pub self_cost: Vec<u64>,
}

/// The call graph of a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallGraph {
    /// Event names in file order.
    pub events: Vec<String>,
    /// The functions, in order of first appearance.
    pub functions: Vec<Function>,
    /// `(caller, callee)` indices into `functions` and the inclusive costs of all those calls.
    pub calls: HashMap<(usize, usize), Vec<u64>>,
}

impl CallGraph {
    /// Sum of all functions' own costs: the profile's total per event.
    pub fn totals(&self) -> Vec<u64> {
        let mut totals = vec![0u64; self.events.len()];
        for f in &self.functions {
            for (t, c) in totals.iter_mut().zip(&f.self_cost) {
                *t = t.saturating_add(*c);
            }
        }
        totals
    }
}

/// Reads and parses a Callgrind out file with its call graph.
pub fn parse_file(path: &Path) -> Result<CallGraph, ParseError> {
    let bytes = super::read(path, "the Callgrind profile")?;
    parse(path, &bytes)
}

/// Parses a Callgrind out file's bytes; `path` is only used in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<CallGraph, ParseError> {
    let mut reader = Reader {
        graph: CallGraph {
            events: Vec::new(),
            functions: Vec::new(),
            calls: HashMap::new(),
        },
        positions: 1,
        names: HashMap::new(),
        index: HashMap::new(),
        current: None,
        callee: None,
        in_call: false,
    };
    super::callgrind_lines(path, bytes, |line| reader.line(line))?;
    if reader.graph.events.is_empty() {
        return Err(super::no_events(path));
    }
    Ok(reader.graph)
}

/// What has been read of a call graph so far.
struct Reader {
    graph: CallGraph,
    positions: usize,
    /// Compressed names: id to name.
    names: HashMap<String, String>,
    /// Functions by name.
    index: HashMap<String, usize>,
    /// The function of the last `fn=`.
    current: Option<usize>,
    /// The function of the last `cfn=`.
    callee: Option<usize>,
    /// The line before was `calls=`: the cost line is the call's inclusive cost.
    in_call: bool,
}

impl Reader {
    /// One line; the error is the message for that line.
    fn line(&mut self, line: &str) -> Result<(), String> {
        if super::is_cost_line(line) {
            return self.cost_line(line);
        }
        self.in_call = false;
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err(format!("unrecognised line `{line}`"));
        };
        match key {
            "events" => {
                let names: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
                if names.is_empty() {
                    return Err("the `events:` line names no event".into());
                }
                if !self.graph.events.is_empty() && self.graph.events != names {
                    return Err(super::callgrind::another_events_line(&self.graph.events));
                }
                self.graph.events = names;
            }
            "positions" => self.positions = value.split_whitespace().count().max(1),
            "fn" | "cfn" => {
                let name = resolve(&mut self.names, value.trim())
                    .map_err(|m| format!("{m} in `{line}`"))?;
                let id = self.function(name);
                if key == "fn" {
                    self.current = Some(id);
                } else {
                    self.callee = Some(id);
                }
            }
            "calls" => self.in_call = true,
            _ => {}
        }
        Ok(())
    }

    /// A cost line: the current function's own cost, or after `calls=` a call's.
    fn cost_line(&mut self, line: &str) -> Result<(), String> {
        let graph = &mut self.graph;
        if graph.events.is_empty() {
            return Err("a cost line comes before `events:`".into());
        }
        let costs = costs(line, self.positions, graph.events.len())
            .map_err(|m| format!("{m} in cost line `{line}`"))?;
        let Some(f) = self.current else {
            return Err("a cost line comes before any `fn=`".into());
        };
        let target = if self.in_call {
            let Some(g) = self.callee else {
                return Err("`calls=` without a `cfn=` before it".into());
            };
            graph
                .calls
                .entry((f, g))
                .or_insert_with(|| vec![0; costs.len()])
        } else {
            &mut graph.functions[f].self_cost
        };
        // Saturating: a call edge's inclusive costs may add up past 2^64 in a damaged file (the
        // totals parser reports such a file; the flamegraph only draws it).
        for (t, c) in target.iter_mut().zip(costs) {
            *t = t.saturating_add(c);
        }
        self.in_call = false;
        Ok(())
    }

    /// The function of a name, added on first sight.
    fn function(&mut self, name: String) -> usize {
        let graph = &mut self.graph;
        let n_events = graph.events.len();
        *self.index.entry(name.clone()).or_insert_with(|| {
            graph.functions.push(Function {
                name,
                self_cost: vec![0; n_events],
            });
            graph.functions.len() - 1
        })
    }
}

/// `(12) name` defines id 12, `(12)` refers to it, `name` is uncompressed.
fn resolve(names: &mut HashMap<String, String>, value: &str) -> Result<String, String> {
    let Some((id, name)) = super::name_id(value) else {
        return Ok(value.to_owned());
    };
    let name = name.trim();
    if name.is_empty() {
        names
            .get(id)
            .cloned()
            .ok_or_else(|| format!("name id ({id}) is used before it is defined"))
    } else {
        names.insert(id.to_owned(), name.to_owned());
        Ok(name.to_owned())
    }
}

/// The costs of a cost line after its position columns; missing ones are zero.
fn costs(line: &str, positions: usize, events: usize) -> Result<Vec<u64>, String> {
    let mut fields = line.split_whitespace();
    for _ in 0..positions {
        fields.next().ok_or("a position is missing")?;
    }
    let mut out = vec![0; events];
    for (slot, field) in fields.enumerate() {
        let value = field
            .parse::<u64>()
            .map_err(|_| format!("`{field}` is not a count"))?;
        *out.get_mut(slot)
            .ok_or_else(|| format!("more than {events} costs"))? = value;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIB: &str = "positions: line\nevents: Ir Dr\nfl=(1) a.rs\nfn=(1) c::fib\n\
        7 4 1\ncfn=(2) c::fib'2\ncalls=1 -4\n* 30 5\n+2 1\nfn=(2)\n7 30 5\ncfn=(2)\n\
        calls=3 -4\n* 20 2\nfn=(3) c::bench\n18 2\ncfn=(1)\ncalls=1 -12\n* 35 6\n";

    #[test]
    fn self_costs_and_call_edges() {
        let g = parse(Path::new("c.out"), FIB.as_bytes()).unwrap();
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
    fn errors_name_the_line() {
        let e = parse(Path::new("c.out"), b"events: Ir\nfn=(4)\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse(Path::new("c.out"), b"events: Ir\n1 2\n").unwrap_err();
        assert!(e.to_string().contains("before any `fn=`"), "{e}");
        let e = parse(Path::new("c.out"), b"events: Ir\nfn=a\n1 2 3\n").unwrap_err();
        assert!(e.to_string().contains("more than 1 costs"), "{e}");
    }

    // Found by fuzzing (fuzz/fuzz_targets/callgrind_profile.rs), minimized.
    #[test]
    fn a_second_events_line_must_name_the_same_events() {
        let e = parse(Path::new("c.out"), b"events:m\ntotals:\nevents:b 6").unwrap_err();
        assert_eq!(e.line, Some(3));
        let max = u64::MAX;
        let text = format!("events: Ir\nfn=a\n1 {max}\n2 1\nevents: Ir\n");
        let g = parse(Path::new("c.out"), text.as_bytes()).unwrap();
        assert_eq!(g.totals(), [max], "saturated, not wrapped");
    }
}
