//! Joining the profiles of one run into one: Callgrind writes a profile per thread
//! (`--separate-threads=yes`) of every process (`--trace-children=yes`), and per dump
//! (`--dump-before`, at each `fork`); a benchmark counts them all.
//!
//! The joined profile is a plain Callgrind profile (`callgrind_annotate` and KCachegrind read
//! it): the first part's header, one `events:` line naming every part's events, every part's
//! body after the other (a function that appears in several parts adds up, as Callgrind's format
//! says), and `totals:` their sum. Bodies are copied as they are, which needs full names and
//! absolute positions (`--compress-strings=no --compress-pos=no`, see
//! [`crate::execute::args::COUNT_EVERYTHING`]); only cost lines are rewritten when a part names
//! its events in another order. Each part is noted in a comment before the body,
//! `# benchgrind part: pid=P thread=T totals=N N ... cmd=COMMAND`, which [`super::profile`]
//! reads back as the breakdown per thread and process.

use crate::error::Problem;
use crate::problem;
use std::fmt::Write as _;

/// The comment that notes a part in a joined profile.
pub const PART_COMMENT: &str = "# benchgrind part:";

/// Which process and thread a profile is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartId {
    /// The process.
    pub pid: u32,
    /// Valgrind's number of the thread (1 is the process's first).
    pub thread: u32,
}

/// One profile as Callgrind wrote it.
#[derive(Debug)]
pub struct Part<'a> {
    /// Whose it is.
    pub id: PartId,
    /// Its text.
    pub text: &'a str,
}

/// A part's header and body.
struct Split<'a> {
    header: Vec<&'a str>,
    cmd: &'a str,
    events: Vec<&'a str>,
    positions: usize,
    /// The `positions:` line's value (`line`, `instr line`, ...).
    position_names: &'a str,
    body: Vec<&'a str>,
    totals: Vec<u64>,
}

/// Whether a line is the start of a body: a name specification or a cost line.
fn starts_body(line: &str) -> bool {
    const NAMES: [&str; 9] = [
        "ob=", "fl=", "fi=", "fe=", "fn=", "cob=", "cfi=", "cfl=", "cfn=",
    ];
    NAMES.iter().any(|n| line.starts_with(n)) || is_cost(line)
}

/// Whether a line, empty or not, is a cost line.
fn is_cost(line: &str) -> bool {
    !line.is_empty() && super::is_cost_line(line)
}

fn split<'a>(part: &Part<'a>) -> Result<Split<'a>, Problem> {
    let mut split = Split {
        header: Vec::new(),
        cmd: "",
        events: Vec::new(),
        positions: 1,
        position_names: "line",
        body: Vec::new(),
        totals: Vec::new(),
    };
    let mut in_body = false;
    for line in part.text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(totals) = line.strip_prefix("totals:") {
            split.totals = numbers(totals)?;
            continue;
        }
        if !in_body && !line.is_empty() && !line.starts_with('#') && starts_body(line) {
            in_body = true;
        }
        if in_body {
            split.body.push(line);
            continue;
        }
        if let Some(events) = line.strip_prefix("events:") {
            split.events = events.split_whitespace().collect();
        } else if let Some(positions) = line.strip_prefix("positions:") {
            split.positions = positions.split_whitespace().count().max(1);
            split.position_names = positions.trim();
        } else if !line.starts_with("summary:") {
            if let Some(cmd) = line.strip_prefix("cmd:") {
                split.cmd = cmd.trim();
            }
            split.header.push(line);
        }
    }
    if split.events.is_empty() {
        return Err(Problem::new("no `events:` line"));
    }
    // A relative position refers to the line before, which is another part's once joined.
    let first_cost = split.body.iter().find(|l| is_cost(l));
    if first_cost.is_some_and(|l| l.starts_with(['+', '-', '*'])) {
        return Err(Problem::new(
            "its first cost line has a relative position (run Callgrind with \
             `--compress-pos=no`)",
        ));
    }
    split.totals.resize(split.events.len(), 0);
    Ok(split)
}

fn numbers(text: &str) -> Result<Vec<u64>, Problem> {
    text.split_whitespace()
        .map(|t| t.parse().map_err(|_| problem!("`{t}` is not a count")))
        .collect()
}

/// The parts as one profile. The first part's header heads it; a part whose events are in
/// another order has its cost lines rewritten; positions must be the same in all.
pub fn join(parts: &[Part<'_>]) -> Result<String, Problem> {
    let splits: Vec<Split<'_>> = parts
        .iter()
        .map(|part| {
            split(part).map_err(|e| {
                problem!(
                    "the profile of process {} thread {}: {e}",
                    part.id.pid,
                    part.id.thread
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let Some(first) = splits.first() else {
        return Err(Problem::new("no profile to join"));
    };
    let mut events: Vec<&str> = Vec::new();
    for split in &splits {
        if split.position_names != first.position_names {
            return Err(Problem::new("the profiles have different positions"));
        }
        for event in &split.events {
            if !events.contains(event) {
                events.push(event);
            }
        }
    }
    let mut totals = vec![0u64; events.len()];
    let mut out = String::new();
    for line in &first.header {
        out.push_str(line);
        out.push('\n');
    }
    for (part, split) in parts.iter().zip(&splits) {
        let mut own = vec![0u64; events.len()];
        for (event, value) in split.events.iter().zip(&split.totals) {
            let i = events
                .iter()
                .position(|e| e == event)
                .expect("a known event");
            own[i] = *value;
            totals[i] = totals[i]
                .checked_add(*value)
                .ok_or_else(|| Problem::new("the totals add up to more than 2^64"))?;
        }
        let _ = writeln!(
            out,
            "{PART_COMMENT} pid={} thread={} totals={} cmd={}",
            part.id.pid,
            part.id.thread,
            join_numbers(&own),
            split.cmd
        );
    }
    let _ = writeln!(out, "positions: {}", first.position_names);
    let _ = writeln!(out, "events: {}", events.join(" "));
    let _ = writeln!(out, "summary: {}", join_numbers(&totals));
    out.push('\n');
    for split in &splits {
        // Where the part's events sit in the joined list, when not in the same order.
        let map: Option<Vec<usize>> =
            (split.events != events[..split.events.len().min(events.len())]).then(|| {
                split
                    .events
                    .iter()
                    .map(|e| events.iter().position(|x| x == e).expect("a known event"))
                    .collect()
            });
        for line in &split.body {
            match &map {
                Some(map) if is_cost(line) => {
                    out.push_str(&reorder(line, split.positions, map, events.len()));
                }
                _ => out.push_str(line),
            }
            out.push('\n');
        }
        out.push('\n');
    }
    let _ = writeln!(out, "totals: {}", join_numbers(&totals));
    Ok(out)
}

/// A cost line with its counts moved to where `map` says.
fn reorder(line: &str, positions: usize, map: &[usize], events: usize) -> String {
    let mut fields = line.split_whitespace();
    let mut out: Vec<String> = fields.by_ref().take(positions).map(str::to_owned).collect();
    let mut counts = vec!["0"; events];
    for (i, count) in fields.enumerate() {
        if let Some(&to) = map.get(i) {
            counts[to] = count;
        }
    }
    // Trailing zeros may be left out, as Callgrind does.
    let last = counts.iter().rposition(|c| *c != "0").map_or(0, |i| i + 1);
    out.extend(counts[..last].iter().map(|c| (*c).to_owned()));
    out.join(" ")
}

fn join_numbers(values: &[u64]) -> String {
    let text: Vec<String> = values.iter().map(u64::to_string).collect();
    text.join(" ")
}

/// A part of a joined profile, as noted in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotedPart {
    /// Whose it is.
    pub id: PartId,
    /// Its totals, in the order of the profile's events.
    pub totals: Vec<u64>,
    /// The command line of its process (empty when unknown).
    pub cmd: String,
}

/// A part noted in a joined profile: `pid=P thread=T totals=N N ... cmd=COMMAND` after
/// [`PART_COMMENT`].
pub fn parse_part_comment(rest: &str) -> Option<NotedPart> {
    let rest = rest.trim();
    let rest = rest.strip_prefix("pid=")?;
    let (pid, rest) = rest.split_once(' ')?;
    let rest = rest.strip_prefix("thread=")?;
    let (thread, rest) = rest.split_once(' ')?;
    let rest = rest.strip_prefix("totals=")?;
    let (totals, cmd) = rest.split_once(" cmd=").unwrap_or((rest, ""));
    let id = PartId {
        pid: pid.parse().ok()?,
        thread: thread.parse().ok()?,
    };
    Some(NotedPart {
        id,
        totals: numbers(totals).ok()?,
        cmd: cmd.trim().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIN: &str = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\n\
cmd:  ./prog\npart: 1\nthread: 1\n\npositions: line\nevents: Ir Dr\nsummary: 0\n\n\
fl=a.rs\nfn=main\n3 10 2\ncfn=work\ncalls=1 9\n4 5 1\n\ntotals: 15 3\n";
    const WORKER: &str = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\n\
cmd:  ./prog\npart: 1\nthread: 2\n\npositions: line\nevents: Dr Ir\nsummary: 0\n\n\
fl=a.rs\nfn=work\n9 1 5\n\ntotals: 1 5\n";

    #[test]
    fn parts_join_into_one_profile_with_their_sum_and_each_noted() {
        let parts = [
            Part {
                id: PartId { pid: 7, thread: 1 },
                text: MAIN,
            },
            Part {
                id: PartId { pid: 7, thread: 2 },
                text: WORKER,
            },
        ];
        let joined = join(&parts).unwrap();
        assert!(
            joined.starts_with("# callgrind format\nversion: 1\n"),
            "{joined}"
        );
        assert_eq!(joined.matches("events:").count(), 1, "{joined}");
        assert!(
            joined.contains("positions: line\nevents: Ir Dr\n"),
            "{joined}"
        );
        assert!(joined.contains("# benchgrind part: pid=7 thread=1 totals=15 3 cmd=./prog\n"));
        assert!(joined.contains("# benchgrind part: pid=7 thread=2 totals=5 1 cmd=./prog\n"));
        // The worker's cost line in the joined order of events.
        assert!(joined.contains("fn=work\n9 5 1\n"), "{joined}");
        assert!(joined.ends_with("totals: 20 4\n"), "{joined}");
        let read = crate::parse::profile::Read::Full;
        let profile =
            crate::parse::profile::parse(std::path::Path::new("j"), joined.as_bytes(), read)
                .unwrap();
        assert_eq!(profile.totals(), [20, 4]);
        assert_eq!(profile.parts.len(), 2);
        let line = joined
            .lines()
            .find(|l| l.starts_with(PART_COMMENT))
            .unwrap();
        let noted = parse_part_comment(&line[PART_COMMENT.len()..]).unwrap();
        assert_eq!(noted.id, PartId { pid: 7, thread: 1 });
        assert_eq!((noted.totals, noted.cmd.as_str()), (vec![15, 3], "./prog"));
    }

    #[test]
    fn a_part_starting_with_a_relative_position_and_one_without_events_are_refused() {
        // Relative after an absolute line of the same part: still right once joined.
        let relative = MAIN.replace("4 5 1", "+1 5 1");
        let part = |text| Part {
            id: PartId { pid: 1, thread: 1 },
            text,
        };
        assert!(join(&[part(&relative)]).is_ok());
        let first_relative = MAIN.replace("3 10 2", "+3 10 2");
        let e = join(&[part(&first_relative)]).unwrap_err();
        assert!(e.contains("relative position"), "{e}");
        let none = "positions: line\nfn=x\n1 2\n";
        let e = join(&[part(none)]).unwrap_err();
        assert!(
            e.contains("process 1 thread 1") && e.contains("events"),
            "{e}"
        );
    }
}
