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
use std::sync::Mutex;

use super::join::{NotedPart, PART_COMMENT};
use super::ParseError;
use reader::Reader;

mod reader;

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

/// How many profiles this process has read in `dir` (every [`Read`]), for the tests that check
/// that a benchmark's profiles are read once.
pub fn reads_in(dir: &Path) -> usize {
    READS.lock().map_or(0, |reads| {
        reads
            .as_ref()
            .and_then(|r| r.get(dir).copied())
            .unwrap_or(0)
    })
}

/// Profiles read, by directory: one entry per benchmark directory.
static READS: Mutex<Option<HashMap<PathBuf, usize>>> = Mutex::new(None);

fn count_read(path: &Path) {
    if let (Ok(mut reads), Some(dir)) = (READS.lock(), path.parent()) {
        *reads
            .get_or_insert_with(HashMap::new)
            .entry(dir.to_owned())
            .or_default() += 1;
    }
}

/// Reads and parses a Callgrind out file.
pub fn parse_file(path: &Path, read: Read) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "the Callgrind profile")?;
    parse(path, &bytes, read)
}

/// Parses the bytes of a Callgrind out file; `path` names it in errors and in the result.
pub fn parse(path: &Path, bytes: &[u8], read: Read) -> Result<Profile, ParseError> {
    count_read(path);
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

#[cfg(test)]
mod tests;
