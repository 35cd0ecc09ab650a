//! The one text form of limits, for every tool: `KEY=LIMIT[|LIMIT],...`, where `N%` is a soft
//! limit (a change in percent of the old value, negative for a fall), a number a hard one (with
//! a unit where the metric takes one: `2.5ms`), and `N%|M` both. `--callgrind-limits`,
//! `--cachegrind-limits`, `--dhat-limits` ([`super::tool_metrics::text`]) and `--perf-limits`
//! ([`super::perf::run`]) read their items here and give each key its own meaning (a metric or
//! `@group`, a pattern over perf's metric names); checking the limits is [`crate::compare`]'s.

use crate::error::Problem;
use crate::problem;

/// One `KEY=LIMIT[|LIMIT]` item, read but not yet given to a tool's metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Item<'a> {
    /// The whole item, for errors.
    pub text: &'a str,
    /// What is left of the last `=` (trimmed): a metric, a group or a pattern.
    pub key: &'a str,
    /// The soft limit in percent, if given.
    pub soft: Option<f64>,
    /// The hard limit, if given.
    pub hard: Option<Hard<'a>>,
}

/// A hard limit as written: a number, 0 or more, and what follows it (empty, or a unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hard<'a> {
    /// The number.
    pub value: f64,
    /// The unit after it, trimmed (`""`, `ms`).
    pub unit: &'a str,
}

impl Item<'_> {
    /// An error about this item: `` `ir=1.5`: WHAT ``.
    pub fn error(&self, what: impl std::fmt::Display) -> Problem {
        problem!("`{}`: {what}", self.text)
    }
}

/// The comma-separated items of `text`; an error names the item and what to write instead.
pub fn items(text: &str) -> Result<Vec<Item<'_>>, Problem> {
    let texts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    if texts.is_empty() {
        return Err(Problem::new(
            "nothing given; write KEY=N% (soft), KEY=N (hard) or KEY=N%|M (both)",
        ));
    }
    texts.into_iter().map(item).collect()
}

fn item(text: &str) -> Result<Item<'_>, Problem> {
    let fail = |what: String| problem!("`{text}`: {what}");
    // The last `=`: a perf pattern may hold one (`cpu/event=0x3c/`).
    let (key, limits) = text.rsplit_once('=').ok_or_else(|| {
        fail("not a limit; write KEY=N% (soft), KEY=N (hard) or KEY=N%|M (both)".into())
    })?;
    let mut item = Item {
        text,
        key: key.trim(),
        soft: None,
        hard: None,
    };
    for part in limits.split('|').map(str::trim) {
        if let Some(pct) = part.strip_suffix('%') {
            let pct = pct.trim().parse::<f64>().ok().filter(|p| p.is_finite());
            item.soft = Some(pct.ok_or_else(|| fail(format!("`{part}` is not a percentage")))?);
        } else {
            let split = part
                .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e')))
                .unwrap_or(part.len());
            let (number, unit) = part.split_at(split);
            let value = number
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0);
            let value = value.ok_or_else(|| {
                fail(format!(
                    "`{part}` is not a limit; write N% for a change in percent or a number (0 or \
                     more, with a unit where the metric takes one: 2.5ms) for a hard limit"
                ))
            })?;
            item.hard = Some(Hard {
                value,
                unit: unit.trim(),
            });
        }
    }
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_soft_hard_both_units() {
        // (text, key, soft, hard value and unit)
        type Row<'a> = (&'a str, &'a str, Option<f64>, Option<(f64, &'a str)>);
        let table: [Row; 6] = [
            ("ir=5%", "ir", Some(5.0), None),
            ("@hits=10000", "@hits", None, Some((10_000.0, ""))),
            (
                "EstimatedCycles=-2%|900",
                "EstimatedCycles",
                Some(-2.0),
                Some((900.0, "")),
            ),
            (
                "task-clock*=40%|2.5ms",
                "task-clock*",
                Some(40.0),
                Some((2.5, "ms")),
            ),
            ("cpu/event=0x3c/=3%", "cpu/event=0x3c/", Some(3.0), None),
            (" cycles = 1e6 ", "cycles", None, Some((1e6, ""))),
        ];
        for (text, key, soft, hard) in table {
            let got = items(text).unwrap();
            assert_eq!(got.len(), 1, "{text}");
            assert_eq!(got[0].key, key, "{text}");
            assert_eq!(got[0].soft, soft, "{text}");
            assert_eq!(got[0].hard.map(|h| (h.value, h.unit)), hard, "{text}");
        }
        assert_eq!(items("a=1%,,b=2").unwrap().len(), 2);
    }

    #[test]
    fn mistakes_name_the_item_and_the_remedy() {
        // (text, what the error says)
        let table = [
            ("", "nothing given"),
            ("ir", "`ir`: not a limit; write KEY=N%"),
            ("ir=x%", "`ir=x%`: `x%` is not a percentage"),
            ("ir=-3", "`ir=-3`: `-3` is not a limit"),
            ("ir=ms", "`ms` is not a limit"),
            ("ir=5%,cycles", "`cycles`: not a limit"),
        ];
        for (text, want) in table {
            let e = items(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
