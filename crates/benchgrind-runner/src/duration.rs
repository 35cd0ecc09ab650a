//! Durations as every flag, variable and configuration value of benchgrind takes them: a decimal
//! number of seconds (`600`, `2.5`) or a decimal number with a unit (`10s`, `1.5ms`, `250us`,
//! `7ns`, `2m`, `1h`), spaces around the unit allowed. The one parser of the bench binaries'
//! `--timeout` and `BENCHGRIND_TIMEOUT` and the `benchgrind` command's `--timeout`,
//! `--max-time` and the others.

use crate::error::Problem;
use crate::problem;
use std::time::Duration;

/// Reads a duration (see the module's documentation); the error says what is wrong and what is
/// taken, for the caller to put after the flag's name.
pub fn parse(text: &str) -> Result<Duration, Problem> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let expected =
        "expected seconds (600, 2.5) or a number with a unit: ns, us, ms, s, m, h (10s, \
                    1.5m)";
    if number.is_empty() {
        return Err(problem!("`{text}` has no number; {expected}"));
    }
    let value: f64 = number
        .parse()
        .map_err(|_| problem!("`{number}` is not a number; {expected}"))?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => 1.0,
        "ms" => 1e-3,
        "us" | "µs" => 1e-6,
        "ns" => 1e-9,
        "m" | "min" | "mins" => 60.0,
        "h" => 3600.0,
        other => return Err(problem!("unknown unit `{other}`; {expected}")),
    };
    let total = value * seconds;
    if !total.is_finite() || total >= 1e12 {
        return Err(problem!("`{text}` is too long; {expected}"));
    }
    Ok(Duration::from_secs_f64(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_with_and_without_units() {
        let ms = Duration::from_millis;
        for (text, want) in [
            ("10", ms(10_000)),
            ("2.5", ms(2_500)),
            ("10s", ms(10_000)),
            ("1.5ms", Duration::from_micros(1_500)),
            ("250us", Duration::from_micros(250)),
            ("7ns", Duration::from_nanos(7)),
            ("1m", ms(60_000)),
            ("1.5m", ms(90_000)),
            ("2h", ms(7_200_000)),
            (" 3 s ", ms(3_000)),
            ("0s", ms(0)),
        ] {
            assert_eq!(parse(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn what_is_not_a_duration_says_what_is_taken() {
        for text in ["", "s", "-1s", "1.2.3s", "3 weeks", "1e999"] {
            let e = parse(text).unwrap_err();
            assert!(e.contains("ns, us, ms, s, m, h"), "{text}: {e}");
        }
    }
}
