//! perf's limits: soft ones in percent (a significant change beyond them fails), hard ones on
//! the new mean (in the metric's unit, or with a unit for times: `2.5ms`), and the text of
//! `--perf-limits`: `PATTERN=LIMIT[|LIMIT],...` (`task-clock*=40%|2.5ms`).

use crate::config::perf::Unit;

/// The limits of one metric pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The metric pattern ([`super::pattern`]).
    pub pattern: String,
    /// A soft limit in percent.
    pub soft: Option<f64>,
    /// A hard limit and its unit.
    pub hard: Option<(f64, Option<Unit>)>,
}

/// Reads `--perf-limits`' text; the error names the part that is wrong.
pub fn parse(text: &str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (pattern, limits) = part.rsplit_once('=').ok_or_else(|| {
            format!("`{part}` has no `=`: write PATTERN=LIMIT, e.g. task-clock*=10%")
        })?;
        let mut rule = Rule {
            pattern: pattern.trim().to_owned(),
            soft: None,
            hard: None,
        };
        for limit in limits.split('|').map(str::trim) {
            if let Some(pct) = limit.strip_suffix('%') {
                let pct = pct.trim().parse::<f64>().map_err(|_| {
                    format!("`{limit}` in `{part}` is not a percentage such as 5% or -10%")
                })?;
                rule.soft = Some(pct);
            } else {
                let split = limit
                    .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
                    .unwrap_or(limit.len());
                let (number, unit) = limit.split_at(split);
                let value = number.parse::<f64>().map_err(|_| {
                    format!(
                        "`{limit}` in `{part}` is neither a percentage (5%) nor a number with an \
                         optional unit (1000000, 2.5ms)"
                    )
                })?;
                let unit = (!unit.trim().is_empty()).then(|| Unit::parse(unit));
                rule.hard = Some((value, unit));
            }
        }
        rules.push(rule);
    }
    Ok(rules)
}

/// A hard limit in the metric's own values (nanoseconds for times), or why it does not apply:
/// a bare number on a time is perf's milliseconds.
pub fn hard_value(value: f64, unit: Option<&Unit>, time: bool) -> Result<f64, String> {
    match (unit, time) {
        (None, true) => Ok(value * 1e6),
        (None, false) => Ok(value),
        (Some(unit), true) => unit
            .nanos()
            .map(|n| value * n)
            .ok_or_else(|| format!("{unit:?} is not a unit of time")),
        (Some(unit), false) => Err(format!("{unit:?} does not apply to a count")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_hard_and_both() {
        let rules = parse("*instructions*=5%|1000000, task-clock*=40%|2.5ms,cycles=-3%").unwrap();
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[0].soft, Some(5.0));
        assert_eq!(rules[0].hard, Some((1_000_000.0, None)));
        assert_eq!(rules[1].pattern, "task-clock*");
        assert_eq!(rules[1].hard, Some((2.5, Some(Unit::Milliseconds))));
        assert_eq!(rules[2].soft, Some(-3.0));
        assert!(parse("cycles").unwrap_err().contains("no `=`"));
        assert!(parse("cycles=x%").unwrap_err().contains("`x%`"));
    }

    #[test]
    fn hard_values_in_the_metrics_units() {
        assert_eq!(
            hard_value(2.5, Some(&Unit::Milliseconds), true),
            Ok(2_500_000.0)
        );
        assert_eq!(hard_value(2.0, None, true), Ok(2_000_000.0));
        assert_eq!(hard_value(7.0, None, false), Ok(7.0));
        assert!(hard_value(1.0, Some(&Unit::Bytes), true).is_err());
        assert!(hard_value(1.0, Some(&Unit::Seconds), false).is_err());
    }
}
