//! The Callgrind profile format (`callgrind.out`), as far as totals go.
//!
//! A profile names its events in an `events:` header and ends each part with a `totals:` line.
//! When `totals:` is missing (a truncated file, or another writer), the self costs of the body
//! are summed instead: every cost line except the one after `calls=`, which holds the inclusive
//! cost of a call and is already counted in the callee's own lines.

use std::path::Path;

use super::join::{parse_part_comment, NotedPart, PART_COMMENT};
use super::ParseError;

/// What a Callgrind out file says about one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Event names in file order (`Ir`, `Dr`, ...).
    pub events: Vec<String>,
    /// Total per event, in the order of `events`.
    pub totals: Vec<u64>,
    /// The `cmd:` header, when present.
    pub cmd: Option<String>,
    /// The `pid:` header, when present.
    pub pid: Option<u32>,
    /// The threads and processes a joined profile was joined from ([`super::join`]), each
    /// with its totals in the order of `events`; empty for a profile as Callgrind wrote it.
    pub parts: Vec<NotedPart>,
}

impl Profile {
    /// The total of one event, or `None` when the profile does not have that event.
    pub fn total(&self, event: &str) -> Option<u64> {
        let i = self.events.iter().position(|e| e == event)?;
        Some(self.totals.get(i).copied().unwrap_or(0))
    }
}

/// Reads and parses a Callgrind out file.
pub fn parse_file(path: &Path) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "the Callgrind profile")?;
    parse(path, &bytes)
}

/// Parses the bytes of a Callgrind out file; `path` is only used in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Profile, ParseError> {
    let mut reader = Reader {
        events: None,
        positions: 1,
        totals: None,
        summed: Vec::new(),
        cmd: None,
        pid: None,
        after_calls: false,
    };
    super::callgrind_lines(path, bytes, |line| reader.line(line))?;
    let Some(events) = reader.events else {
        return Err(super::no_events(path));
    };
    let parts = part_comments(bytes, events.len());
    Ok(Profile {
        totals: reader.totals.unwrap_or(reader.summed),
        events,
        cmd: reader.cmd,
        pid: reader.pid,
        parts,
    })
}

/// The parts a joined profile notes in its header, totals padded to `events` values.
fn part_comments(bytes: &[u8], events: usize) -> Vec<NotedPart> {
    let mut parts = Vec::new();
    for raw in bytes.split(|&b| b == b'\n') {
        if raw.starts_with(b"events:") {
            break;
        }
        let Some(rest) = raw.strip_prefix(PART_COMMENT.as_bytes()) else {
            continue;
        };
        if let Some(mut part) = parse_part_comment(&String::from_utf8_lossy(rest)) {
            part.totals.resize(events, 0);
            parts.push(part);
        }
    }
    parts
}

/// What has been read of a profile so far.
struct Reader {
    events: Option<Vec<String>>,
    positions: usize,
    totals: Option<Vec<u64>>,
    /// The sum of the cost lines, for profiles without `totals:`.
    summed: Vec<u64>,
    cmd: Option<String>,
    pid: Option<u32>,
    /// The line before was `calls=`: the cost line after it is inclusive, not summed.
    after_calls: bool,
}

impl Reader {
    /// One line; the error is the message for that line.
    fn line(&mut self, line: &str) -> Result<(), String> {
        if super::is_cost_line(line) {
            let Some(events) = &self.events else {
                return Err("a cost line comes before the `events:` line".into());
            };
            let costs = cost_line(line, self.positions, events.len())
                .map_err(|m| format!("{m} in cost line `{line}`"))?;
            if !self.after_calls {
                for (sum, c) in self.summed.iter_mut().zip(costs) {
                    *sum = sum
                        .checked_add(c)
                        .ok_or("the costs add up to more than 2^64")?;
                }
            }
            self.after_calls = false;
            return Ok(());
        }
        self.after_calls = false;
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err(format!("unrecognised line `{line}`"));
        };
        self.header(key, value.trim())
    }

    /// A `key: value` or `key=value` line.
    fn header(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "events" => {
                let names: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
                if names.is_empty() {
                    return Err("the `events:` line names no event".into());
                }
                if let Some(first) = self.events.as_ref().filter(|first| **first != names) {
                    return Err(another_events_line(first));
                }
                self.summed = vec![0; names.len()];
                self.events = Some(names);
            }
            "positions" => {
                self.positions = value.split_whitespace().count();
                if self.positions == 0 {
                    return Err("the `positions:` line is empty".into());
                }
            }
            "totals" | "summary" => {
                let Some(events) = &self.events else {
                    return Err(format!("`{key}:` comes before `events:`"));
                };
                let mut values = numbers(value).map_err(|m| format!("{m} in `{key}:` line"))?;
                if values.len() > events.len() {
                    return Err(format!(
                        "`{key}:` has {} values for {} events",
                        values.len(),
                        events.len()
                    ));
                }
                values.resize(events.len(), 0);
                if key == "totals" {
                    self.totals = Some(values);
                }
            }
            "cmd" => self.cmd = Some(value.to_owned()),
            "pid" => self.pid = value.parse().ok(),
            "calls" => self.after_calls = true,
            _ => {}
        }
        Ok(())
    }
}

/// The error of an `events:` line that names other events than the first one did.
pub(crate) fn another_events_line(first: &[String]) -> String {
    format!(
        "a second `events:` line with other events than the first (`{}`): two profiles in one \
         file? Keep one",
        first.join(" ")
    )
}

fn numbers(text: &str) -> Result<Vec<u64>, String> {
    text.split_whitespace()
        .map(|t| {
            t.parse::<u64>()
                .map_err(|_| format!("`{t}` is not a count"))
        })
        .collect()
}

/// The costs of a cost line: `positions` position columns (absolute, `+n`, `-n` or `*`, in
/// decimal or `0x` hex), then up to `events` counts.
fn cost_line(line: &str, positions: usize, events: usize) -> Result<Vec<u64>, String> {
    let mut fields = line.split_whitespace();
    for _ in 0..positions {
        let pos = fields.next().ok_or("a position is missing")?;
        let digits = pos.trim_start_matches(['+', '-']);
        let valid = pos == "*"
            || digits.parse::<u64>().is_ok()
            || digits
                .strip_prefix("0x")
                .is_some_and(|h| u64::from_str_radix(h, 16).is_ok());
        if !valid {
            return Err(format!("`{pos}` is not a position"));
        }
    }
    let costs = numbers(&fields.collect::<Vec<_>>().join(" "))?;
    if costs.len() > events {
        return Err(format!("{} costs for {} events", costs.len(), events));
    }
    Ok(costs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Profile, ParseError> {
        parse(Path::new("t.out"), text.as_bytes())
    }

    #[test]
    fn sums_self_costs_when_totals_are_missing() {
        let text = "events: Ir Dr\nfn=a\n3 10 2\n+1 5\ncalls=1 0\n4 100 50\nfn=b\n* 7 1\n";
        let profile = p(text).unwrap();
        assert_eq!(profile.totals, vec![22, 3]);
    }

    #[test]
    fn totals_line_wins_and_short_lines_are_zero_filled() {
        let profile = p("events: Ir Dr Dw\n1 1\ntotals: 9\n").unwrap();
        assert_eq!(profile.totals, vec![9, 0, 0]);
        assert_eq!(profile.total("Dw"), Some(0));
        assert_eq!(profile.total("Bc"), None);
    }

    #[test]
    fn errors_name_the_line() {
        let e = p("events: Ir\nfn=a\n1 x\n").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().starts_with("t.out:3: "), "{e}");
        let e = p("fn=a\n1 2\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = p("").unwrap_err();
        assert!(e.to_string().contains("no `events:` line"), "{e}");
        let e = p("events: Ir\ntotals: 1 2\n").unwrap_err();
        assert_eq!(e.line, Some(2));
    }

    // Found by fuzzing (fuzz/fuzz_targets/callgrind_profile.rs), minimized.
    #[test]
    fn a_second_events_line_must_name_the_same_events() {
        let e = p("events:m\ntotals:\nevents:b 6").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().contains("second `events:` line"), "{e}");
        assert!(p("events: Ir\n1 5\nevents: Ir\n2 6\n").is_ok());
    }

    #[test]
    fn costs_past_u64_are_an_error_not_an_overflow() {
        let e = p("events: Ir\n1 18446744073709551615\n2 1\n").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().contains("more than 2^64"), "{e}");
    }
}
