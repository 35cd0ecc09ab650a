//! perf's event names, as `perf stat --event` takes them, and the counters they stand for.

use crate::error::Problem;
use crate::problem;

/// The kind of counter (perf_event_attr's `type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A hardware event of the CPU's PMU (`PERF_TYPE_HARDWARE`).
    Hardware,
    /// A kernel software event (`PERF_TYPE_SOFTWARE`).
    Software,
    /// A raw PMU event (`rNNNN`, `PERF_TYPE_RAW`).
    Raw,
}

/// One event to count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its name as the report shows it (perf's name, with the modifier given: `instructions:u`).
    pub name: String,
    /// The counter's kind.
    pub kind: Kind,
    /// The counter's `config`.
    pub config: u64,
    /// Count in user space only (`:u`).
    pub user_only: bool,
    /// Count in the kernel only (`:k`).
    pub kernel_only: bool,
}

impl Event {
    /// Whether the event's value is a time in nanoseconds (`task-clock`, `cpu-clock`).
    pub fn is_time(&self) -> bool {
        self.kind == Kind::Software && (self.config == 0 || self.config == 1)
    }
}

/// The hardware events by name (`perf list`'s generic names and aliases).
const HARDWARE: &[(&str, u64)] = &[
    ("cpu-cycles", 0),
    ("cycles", 0),
    ("instructions", 1),
    ("cache-references", 2),
    ("cache-misses", 3),
    ("branch-instructions", 4),
    ("branches", 4),
    ("branch-misses", 5),
    ("bus-cycles", 6),
    ("stalled-cycles-frontend", 7),
    ("idle-cycles-frontend", 7),
    ("stalled-cycles-backend", 8),
    ("idle-cycles-backend", 8),
    ("ref-cycles", 9),
];

/// The software events by name.
const SOFTWARE: &[(&str, u64)] = &[
    ("cpu-clock", 0),
    ("task-clock", 1),
    ("page-faults", 2),
    ("faults", 2),
    ("context-switches", 3),
    ("cs", 3),
    ("cpu-migrations", 4),
    ("migrations", 4),
    ("minor-faults", 5),
    ("major-faults", 6),
    ("alignment-faults", 7),
    ("emulation-faults", 8),
];

/// The events counted where neither the configuration nor the command line names any: those of
/// `perf stat` without `--event`, the hardware ones where the machine has them.
pub const DEFAULT: &str = "task-clock,context-switches,cpu-migrations,page-faults,cycles,\
                           instructions,branches,branch-misses";

/// The events of one event set (`cycles,instructions`, `{instructions,cycles}`,
/// `instructions:u`, `r00c0`), or what is wrong with it, naming the event.
pub fn parse_set(set: &str) -> Result<Vec<Event>, Problem> {
    let mut events = Vec::new();
    for word in set.split(',') {
        let word = word
            .trim()
            .trim_start_matches('{')
            .trim_end_matches('}')
            .trim();
        if word.is_empty() {
            continue;
        }
        events.push(parse_one(word)?);
    }
    if events.is_empty() {
        return Err(problem!("the perf event set `{set}` names no event"));
    }
    Ok(events)
}

fn parse_one(word: &str) -> Result<Event, Problem> {
    let (base, modifier) = match word.split_once([':', '/']) {
        Some((base, modifier)) => (base, Some(modifier.trim_end_matches('/'))),
        None => (word, None),
    };
    let lower = base.to_ascii_lowercase();
    let (kind, config) = if let Some(&(_, c)) = HARDWARE.iter().find(|(n, _)| *n == lower) {
        (Kind::Hardware, c)
    } else if let Some(&(_, c)) = SOFTWARE.iter().find(|(n, _)| *n == lower) {
        (Kind::Software, c)
    } else if let Some(hex) = lower
        .strip_prefix('r')
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        (
            Kind::Raw,
            u64::from_str_radix(hex, 16).map_err(|e| problem!("perf event `{word}`: {e}"))?,
        )
    } else {
        return Err(problem!(
            "unknown perf event `{word}`: benchgrind counts perf's generic hardware events ({}), \
             its software events ({}) and raw events (`rNNNN`)",
            names(HARDWARE),
            names(SOFTWARE)
        ));
    };
    let (mut user_only, mut kernel_only) = (false, false);
    if let Some(modifier) = modifier {
        for c in modifier.chars() {
            match c {
                'u' => user_only = true,
                'k' => kernel_only = true,
                // Precision and the like change nothing a count shows.
                'p' | 'P' | 'H' | 'G' | 'h' => {}
                _ => {
                    return Err(problem!(
                        "perf event `{word}`: unknown modifier `{c}` (benchgrind knows `u` and `k`)"
                    ))
                }
            }
        }
        if user_only && kernel_only {
            (user_only, kernel_only) = (false, false);
        }
    }
    let canonical = lower;
    let name = match (user_only, kernel_only) {
        (true, _) => format!("{canonical}:u"),
        (_, true) => format!("{canonical}:k"),
        _ => canonical,
    };
    Ok(Event {
        name,
        kind,
        config,
        user_only,
        kernel_only,
    })
}

fn names(table: &[(&str, u64)]) -> String {
    table.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_split_on_commas_and_groups_lose_their_braces() {
        let events = parse_set("{instructions,cycles},task-clock").unwrap();
        let names: Vec<_> = events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["instructions", "cycles", "task-clock"]);
        assert_eq!(events[0].kind, Kind::Hardware);
        assert!(events[2].is_time());
    }

    #[test]
    fn modifiers_and_raw_events() {
        let events = parse_set("instructions:u,r00c0,task-clock/k/").unwrap();
        assert!(events[0].user_only && !events[0].kernel_only);
        assert_eq!(events[0].name, "instructions:u");
        assert_eq!((events[1].kind, events[1].config), (Kind::Raw, 0xc0));
        assert!(events[2].kernel_only);
    }

    #[test]
    fn unknown_events_and_modifiers_are_named() {
        let err = parse_set("cycles,instructionz").unwrap_err();
        assert!(err.contains("`instructionz`"), "{err}");
        let err = parse_set("cycles:x").unwrap_err();
        assert!(err.contains("modifier `x`"), "{err}");
        assert!(parse_set(" , ").is_err());
    }
}
