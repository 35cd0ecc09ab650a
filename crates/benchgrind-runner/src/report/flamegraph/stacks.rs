//! The folded stacks of a flamegraph, rebuilt from a Callgrind call graph.
//!
//! Callgrind records each function's own cost and the inclusive cost of each call edge, not
//! whole stacks. Stacks are rebuilt from the roots of the graph: a function's own cost is spread
//! over the paths that reach it, in proportion to the inclusive cost its callers spent calling
//! it (exact where a function has one caller, as in most benchmarks; Callgrind's recursion
//! levels `f'2` are kept apart while building and shown as `f`). Each function's share is
//! rounded so that the shares add up to its own cost, so the widths of a flamegraph add up to
//! the profile's total: the benchmark's reported value.

use crate::error::Problem;
use crate::problem;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

use crate::config::EventKind;
use crate::metrics::Metrics;
use crate::parse::profile::CallGraph;

/// The value of `event` in one cost vector of the graph's events.
fn value_of(graph: &CallGraph, event: EventKind, costs: &[u64]) -> Option<u64> {
    Metrics::from_costs(&graph.events, costs).get(event)
}

/// A function's name for display: Callgrind's recursion suffix (`'2`) removed, and no `;`,
/// which separates frames in the folded format.
fn display_name(name: &str) -> String {
    let base = match name.rfind('\'') {
        Some(i) if i + 1 < name.len() && name[i + 1..].bytes().all(|b| b.is_ascii_digit()) => {
            &name[..i]
        }
        _ => name,
    };
    base.replace(';', ":")
}

/// Stops the walk over paths in graphs with very many of them; the functions it did not reach
/// then appear as stacks of their own, their cost still counted.
const MAX_VISITS: usize = 200_000;

/// Stops the walk once the stacks found would take this many bytes as folded text (each path
/// is one line, its names joined): many long paths of long names (a deep call graph of C++ or
/// Rust generics) would otherwise take gigabytes, and deep paths a deep recursion here.
const MAX_STACK_BYTES: usize = 16 << 20;

/// The folded stacks (`a;b;c count` lines) of `event`, their counts adding up to the total,
/// sorted frame by frame (names in byte order, a stack before those it is a prefix of).
pub fn folded(graph: &CallGraph, event: EventKind) -> Result<String, Problem> {
    let n = graph.functions.len();
    let missing = || {
        problem!(
            "the profile has no {} (its events: {}); turn on what it needs, or ask for another \
             metric in FlamegraphConfig::event_kinds",
            event.name(),
            graph.events.join(" ")
        )
    };
    let own: Vec<u64> = graph
        .functions
        .iter()
        .map(|f| value_of(graph, event, &f.self_cost).ok_or_else(missing))
        .collect::<Result<_, _>>()?;

    let (roots, children) = call_shares(graph, event);
    let names = Names::of(graph);

    // Every path from a root, with the share of the last function's activity it carries.
    let mut walk = Walk {
        children: &children,
        name_bytes: names
            .rank
            .iter()
            .map(|&r| names.sorted[r as usize].len() + 1)
            .collect(),
        nodes: Vec::new(),
        path_bytes: 0,
        on_path: vec![false; n],
        paths: vec![Vec::new(); n],
        bytes: 0,
    };
    for root in roots {
        walk.visit(root, 1.0, None);
    }
    Ok(names.write(&merge(&walk, &own, &names.rank)))
}

/// The functions' display names: each distinct one once, in byte order (`sorted`), and the
/// position of each function's name there (`rank`). Stacks are merged and sorted as sequences
/// of ranks, which costs far less than as the text they stand for.
struct Names {
    sorted: Vec<String>,
    rank: Vec<u32>,
}

impl Names {
    fn of(graph: &CallGraph) -> Names {
        let display: Vec<String> = graph
            .functions
            .iter()
            .map(|f| display_name(&f.name))
            .collect();
        let mut sorted = display.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let rank = display
            .iter()
            .map(|name| sorted.binary_search(name).map_or(0, |i| i as u32))
            .collect();
        Names { sorted, rank }
    }

    /// The folded lines of `stacks`.
    fn write(&self, stacks: &[(Vec<u32>, u64)]) -> String {
        let mut out = String::new();
        for (stack, count) in stacks {
            for (i, &rank) in stack.iter().enumerate() {
                if i > 0 {
                    out.push(';');
                }
                out.push_str(&self.sorted[rank as usize]);
            }
            let _ = writeln!(out, " {count}");
        }
        out
    }
}

/// Each function's own cost split over the paths the walk found to it, the paths that name the
/// same functions (recursion levels do) merged: the stacks as ranks of names, root first,
/// sorted, with their counts.
fn merge(walk: &Walk, own: &[u64], rank: &[u32]) -> Vec<(Vec<u32>, u64)> {
    let mut stacks: HashMap<Vec<u32>, u64, BuildHasherDefault<RankHasher>> = HashMap::default();
    let (mut frames, mut key) = (Vec::new(), Vec::new());
    for (f, &cost) in own.iter().enumerate() {
        if cost == 0 {
            continue;
        }
        // A function the walk did not reach is a stack of its own.
        let paths: &[(Option<usize>, f64)] = match walk.paths[f].as_slice() {
            [] => &[(None, 1.0)],
            paths => paths,
        };
        let shares: Vec<f64> = paths.iter().map(|p| p.1).collect();
        for (&(node, _), count) in paths.iter().zip(apportion(cost, &shares)) {
            if count == 0 {
                continue;
            }
            walk.frames(node, f, &mut frames);
            key.clear();
            key.extend(frames.iter().rev().map(|&g| rank[g]));
            match stacks.get_mut(key.as_slice()) {
                Some(width) => *width = width.saturating_add(count),
                None => {
                    stacks.insert(key.clone(), count);
                }
            }
        }
    }
    let mut stacks: Vec<(Vec<u32>, u64)> = stacks.into_iter().collect();
    stacks.sort_unstable();
    stacks
}

/// A hasher for the rank sequences of [`merge`]: a multiply-rotate mix, much cheaper than the
/// default SipHash for keys that come from a profile, not from an adversary across a network.
#[derive(Default)]
struct RankHasher(u64);

impl Hasher for RankHasher {
    fn finish(&self) -> u64 {
        // The multiply carries differences up only; the table picks buckets with the low bits.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The roots of the call graph (functions nobody calls) and, per function, its callees with
/// the share of each callee's activity that the call carries: by the event's inclusive cost of
/// the calls, else by instructions, else evenly.
fn call_shares(graph: &CallGraph, event: EventKind) -> (Vec<usize>, Vec<Vec<(usize, f64)>>) {
    let n = graph.functions.len();
    let mut callers: Vec<Vec<(usize, f64, f64)>> = vec![Vec::new(); n];
    for (&(f, g), costs) in &graph.calls {
        if f != g {
            let by_event = value_of(graph, event, costs).unwrap_or(0) as f64;
            let by_first = costs.first().copied().unwrap_or(0) as f64;
            callers[g].push((f, by_event, by_first));
        }
    }
    let mut children: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (g, list) in callers.iter().enumerate() {
        let sum_event: f64 = list.iter().map(|c| c.1).sum();
        let sum_first: f64 = list.iter().map(|c| c.2).sum();
        for &(f, by_event, by_first) in list {
            let share = if sum_event > 0.0 {
                by_event / sum_event
            } else if sum_first > 0.0 {
                by_first / sum_first
            } else {
                1.0 / list.len() as f64
            };
            children[f].push((g, share));
        }
    }
    for c in &mut children {
        c.sort_by_key(|&(g, _)| g);
    }

    let roots = (0..n).filter(|&g| callers[g].is_empty()).collect();
    (roots, children)
}

/// The walk over every path from a root, depth first, within [`MAX_VISITS`] and
/// [`MAX_STACK_BYTES`]. The paths form a tree: each visit is a node that names its function and
/// the node of its caller, so a path costs one node, not a copy of its frames.
struct Walk<'a> {
    /// Callees of each function, with the share of their activity each call carries.
    children: &'a [Vec<(usize, f64)>],
    /// The bytes each function adds to a folded line (its display name and a `;`).
    name_bytes: Vec<usize>,
    /// The visits so far: the function, and the caller's visit (`None` for a root).
    nodes: Vec<(usize, Option<usize>)>,
    /// The folded length of the path to the function being visited.
    path_bytes: usize,
    /// Whether each function is on the current path (recursion is not followed).
    on_path: Vec<bool>,
    /// The visits of each function, with their shares of its activity.
    paths: Vec<Vec<(Option<usize>, f64)>>,
    /// The bytes of the folded lines of the paths found so far.
    bytes: usize,
}

impl Walk<'_> {
    fn visit(&mut self, f: usize, share: f64, caller: Option<usize>) {
        let path_bytes = self.path_bytes + self.name_bytes[f];
        if self.bytes + path_bytes > MAX_STACK_BYTES {
            return;
        }
        self.bytes += path_bytes;
        let node = self.nodes.len();
        self.nodes.push((f, caller));
        let outer_bytes = std::mem::replace(&mut self.path_bytes, path_bytes);
        self.on_path[f] = true;
        self.paths[f].push((Some(node), share));
        if self.nodes.len() < MAX_VISITS {
            for &(g, part) in &self.children[f] {
                let next = share * part;
                if !self.on_path[g] && next > 1e-12 {
                    self.visit(g, next, Some(node));
                }
            }
        }
        self.on_path[f] = false;
        self.path_bytes = outer_bytes;
    }

    /// The functions on the path to `node`, innermost first (`f` alone without a node).
    fn frames(&self, node: Option<usize>, f: usize, frames: &mut Vec<usize>) {
        frames.clear();
        let Some(mut node) = node else {
            frames.push(f);
            return;
        };
        loop {
            let (g, caller) = self.nodes[node];
            frames.push(g);
            match caller {
                Some(caller) => node = caller,
                None => return,
            }
        }
    }
}

/// Splits `total` over paths in proportion to their `shares`, in whole counts that add up to
/// `total`: each gets the floor of its exact part, and what the floors leave goes one by one to
/// the largest remainders first (ties to the earlier path). Only those few are picked out, not
/// every path sorted, since a function may have a hundred thousand paths.
fn apportion(total: u64, shares: &[f64]) -> Vec<u64> {
    let sum: f64 = shares.iter().sum();
    let exact: Vec<f64> = shares
        .iter()
        .map(|&share| {
            if sum > 0.0 {
                total as f64 * share / sum
            } else {
                total as f64 / shares.len() as f64
            }
        })
        .collect();
    let mut counts: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    // Above 2^53 the floats round, and the floored shares may add up to more than the total
    // (past 2^64 even): the excess comes off the largest counts, whose rounding made it.
    let assigned: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if assigned > u128::from(total) {
        let mut excess = assigned - u128::from(total);
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.sort_unstable_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
        for i in order {
            let take = excess.min(u128::from(counts[i]));
            counts[i] -= take as u64;
            excess -= take;
        }
        return counts;
    }
    let short = total - assigned as u64;
    let len = counts.len() as u64;
    if short == 0 || len == 0 {
        return counts;
    }
    // Float error on huge totals may leave more than one count per path.
    let (every, first) = (short / len, (short % len) as usize);
    if first > 0 {
        let remainder = |i: usize| exact[i] - exact[i].floor();
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.select_nth_unstable_by(first - 1, |&a, &b| {
            remainder(b).total_cmp(&remainder(a)).then(a.cmp(&b))
        });
        for &i in &order[..first] {
            counts[i] = counts[i].saturating_add(1);
        }
    }
    for count in &mut counts {
        *count = count.saturating_add(every);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::profile::Read;
    use std::path::Path;

    #[test]
    fn shares_of_totals_past_two_to_the_53_add_up_to_the_total() {
        // Each total rounds up as a float; each list of shares, floored, went past it by 1 to
        // 599 before the excess was taken off (worked out with Python's floats, which are the
        // same doubles).
        for total in [u64::MAX, (1 << 60) + 200, (1 << 54) + 3] {
            for shares in [
                vec![1.0, 1.0],
                vec![0.3, 5.0, 1e-9, 1.0],
                vec![5.0, 5.0, 0.1, 2.0],
            ] {
                let counts = apportion(total, &shares);
                let sum: u128 = counts.iter().map(|&c| u128::from(c)).sum();
                assert_eq!(sum, u128::from(total), "{total} {shares:?}: {counts:?}");
            }
        }
    }

    fn graph(text: &str) -> CallGraph {
        crate::parse::profile::parse(Path::new("t.out"), text.as_bytes(), Read::Full)
            .unwrap()
            .graph
    }

    fn sum(folded: &str) -> u64 {
        folded
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum()
    }

    #[test]
    fn recursion_levels_merge_and_the_widths_add_up() {
        let g = graph(
            "events: Ir\nfn=(1) c::run\n1 1\ncfn=(2) c::bench\ncalls=1 1\n1 40\n\
             fn=(2)\n1 2\ncfn=(3) c::fib\ncalls=1 1\n1 38\n\
             fn=(3)\n1 8\ncfn=(4) c::fib'2\ncalls=2 1\n1 30\nfn=(4)\n1 30\ncfn=(4)\ncalls=5 1\n1 70\n",
        );
        let f = folded(&g, EventKind::Ir).unwrap();
        assert_eq!(
            f,
            "c::run 1\nc::run;c::bench 2\nc::run;c::bench;c::fib 8\n\
             c::run;c::bench;c::fib;c::fib 30\n"
        );
        assert_eq!(sum(&f), 41);
    }

    #[test]
    fn a_shared_callee_is_split_by_its_callers_costs() {
        let g = graph(
            "events: Ir\nfn=(1) m\n1 1\ncfn=(2) a\ncalls=1 1\n1 31\ncfn=(3) b\ncalls=1 1\n1 11\n\
             fn=(2)\n1 1\ncfn=(4) leaf\ncalls=1 1\n1 30\nfn=(3)\n1 1\ncfn=(4)\ncalls=1 1\n1 10\n\
             fn=(4)\n1 40\n",
        );
        let f = folded(&g, EventKind::Ir).unwrap();
        assert_eq!(f, "m 1\nm;a 1\nm;a;leaf 30\nm;b 1\nm;b;leaf 10\n");
    }

    #[test]
    fn rounding_keeps_the_total() {
        assert_eq!(apportion(10, &[1.0, 1.0, 1.0]), [4, 3, 3]);
        assert_eq!(apportion(10, &[1.0, 2.0, 2.0]), [2, 4, 4]);
        assert_eq!(apportion(7, &[1.0, 1.0, 3.0, 3.0]), [1, 1, 3, 2]);
        assert_eq!(apportion(0, &[1.0, 1.0]), [0, 0]);
    }

    #[test]
    fn names_lose_the_recursion_suffix_only() {
        assert_eq!(display_name("c::fib'2"), "c::fib");
        assert_eq!(display_name("<T as c::A<'a>>::f"), "<T as c::A<'a>>::f");
        assert_eq!(display_name("a;b"), "a:b");
    }

    #[test]
    fn a_missing_event_is_an_error_that_says_so() {
        let g = graph("events: Ir\nfn=a\n1 1\n");
        let e = folded(&g, EventKind::Bc).unwrap_err();
        assert!(e.contains("no Bc"), "{e}");
    }

    #[test]
    fn counts_near_two_to_the_64_do_not_overflow() {
        let max = u64::MAX;
        let g = graph(&format!(
            "events: Ir\nfn=r\n1 1\ncfn=a\ncalls=1 1\n1 {max}\ncfn=b\ncalls=1 1\n1 {max}\n\
             fn=a\n1 1\ncfn=c\ncalls=1 1\n1 {max}\nfn=b\n1 1\ncfn=c\ncalls=1 1\n1 {max}\n\
             fn=c\n1 {max}\n"
        ));
        let f = folded(&g, EventKind::Ir).unwrap();
        assert!(f.contains("r;a;c ") && f.contains("r;b;c "), "{f}");
    }

    // A slow input found while fuzzing (fuzz/fuzz_targets/callgrind_profile.rs, by hand from
    // what it showed): 15 KB of profile, a ladder of diamonds (2^20 paths) of 200-byte names,
    // took 6 s and 2.4 GB to fold before the walk had a byte budget.
    #[test]
    fn many_long_paths_stay_within_the_byte_budget() {
        let long = "x".repeat(200);
        let mut text = String::from("events: Ir\n");
        let name = |n: &str, defined: &mut Vec<String>| match defined.iter().position(|d| d == n) {
            Some(i) => format!("({i})"),
            None => {
                defined.push(n.to_owned());
                format!("({}) {n}{long}", defined.len() - 1)
            }
        };
        let mut defined = Vec::new();
        for k in 0..20 {
            let (a, b, c, next) = (
                format!("a{k}"),
                format!("b{k}"),
                format!("c{k}"),
                format!("a{}", k + 1),
            );
            for (caller, callees) in [(&a, vec![&b, &c]), (&b, vec![&next]), (&c, vec![&next])] {
                text += &format!("fn={}\n1 100000000\n", name(caller, &mut defined));
                for callee in callees {
                    text += &format!("cfn={}\ncalls=1 1\n1 5\n", name(callee, &mut defined));
                }
            }
        }
        let g = graph(&text);
        let start = std::time::Instant::now();
        let f = folded(&g, EventKind::Ir).unwrap();
        assert!(f.len() < 2 * MAX_STACK_BYTES, "{} bytes", f.len());
        assert_eq!(sum(&f), g.totals()[0], "every cost still counted");
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }
}
