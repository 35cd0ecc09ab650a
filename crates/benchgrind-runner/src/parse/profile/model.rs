//! What a read gives: the profile, its functions and its call graph.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::parse::join::NotedPart;

/// How much of a profile to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// The header and the totals: events, `totals:`, `cmd:`, `pid:`, the parts.
    Totals,
    /// Also the functions' self costs ([`Function::self_cost`]), without their inclusive costs,
    /// lines or the call graph: what telling a change of layout from a change of code needs
    /// ([`crate::compare::layout`]), at little more than the cost of [`Read::Totals`] (every
    /// cost line is read for the totals anyway).
    Functions,
    /// Everything: also the functions, their lines and the call graph.
    Full,
}

/// A function, its contexts merged (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name as Callgrind wrote it, without recursion level and callers
    /// ([`crate::parse::names::base_name`]).
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
    /// The threads and processes a joined profile was joined from ([`crate::parse::join`]), each
    /// with its totals in the order of `events`; empty for a profile as Callgrind wrote it.
    pub parts: Vec<NotedPart>,
    /// Whether cost lines carry a source line (`positions:` names `line`).
    pub has_lines: bool,
    /// Source files named by cost lines, for [`Function::lines`].
    pub files: Vec<String>,
    /// The functions, in order of first appearance (empty with [`Read::Totals`]; with
    /// [`Read::Functions`] their self costs alone).
    pub functions: Vec<Function>,
    /// The call graph (empty with [`Read::Totals`]).
    pub graph: CallGraph,
    /// The sum of the cost lines, for a profile without `totals:`.
    pub(super) summed: Vec<u64>,
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

/// Adds `costs` to `sum`, saturating: a damaged file's costs may add up past 2^64.
pub(super) fn add(sum: &mut [u64], costs: &[u64]) {
    for (s, c) in sum.iter_mut().zip(costs) {
        *s = s.saturating_add(*c);
    }
}
