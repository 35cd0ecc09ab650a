//! Stage 6 of the pipeline, compare: the difference between two values of a metric.
//!
//! Pure functions, shared by the comparison with the previous run and `compare_by_id`; the
//! [`regression`] limits build on them. perf's samples are compared in [`perf`] (the interval
//! of a change and its verdict against a margin) and gated in [`limits`].

pub mod layout;
pub mod limits;
pub mod perf;
pub mod regression;

/// How a new value relates to an old one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// No old value to compare with.
    NoOld,
    /// Both equal.
    Same,
    /// Different: the change in percent of the old value and the factor (`new/old` when it grew,
    /// `-(old/new)` when it shrank), both infinite when the old (or new) value is zero.
    Diff {
        /// `(new - old) / old * 100`.
        pct: f64,
        /// `new / old`, or `-(old / new)` for a decrease.
        factor: f64,
    },
}

/// Whether a change is within `tolerance` percent either way (`OutputFormat::tolerance`,
/// `--tolerance`): shown as `(Tolerance)` instead of its percentage.
pub fn within_tolerance(change: Change, tolerance: Option<f64>) -> bool {
    match (change, tolerance) {
        (Change::Diff { pct, .. }, Some(t)) => pct.abs() <= t.abs(),
        _ => false,
    }
}

/// Compares a new value with an optional old one.
pub fn change(new: u64, old: Option<u64>) -> Change {
    let Some(old) = old else {
        return Change::NoOld;
    };
    if new == old {
        return Change::Same;
    }
    change_f64(new as f64, Some(old as f64))
}

/// [`change`] of numbers with a fraction (the rates, in percent): their change in percent of
/// the old value, as for counts.
pub fn change_f64(n: f64, old: Option<f64>) -> Change {
    let Some(o) = old else {
        return Change::NoOld;
    };
    if n == o {
        return Change::Same;
    }
    let pct = if o == 0.0 {
        f64::INFINITY
    } else {
        (n - o) / o * 100.0
    };
    let factor = if n > o {
        if o == 0.0 {
            f64::INFINITY
        } else {
            n / o
        }
    } else if n == 0.0 {
        f64::NEG_INFINITY
    } else {
        -(o / n)
    };
    Change::Diff { pct, factor }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_in_both_directions() {
        assert_eq!(change(5, None), Change::NoOld);
        assert_eq!(change(5, Some(5)), Change::Same);
        let Change::Diff { pct, factor } = change(2804, Some(1733)) else {
            panic!()
        };
        assert!((pct - 61.8003).abs() < 1e-4);
        assert!((factor - 1.61800).abs() < 1e-5);
        let Change::Diff { pct, factor } = change(94, Some(103)) else {
            panic!()
        };
        assert!((pct + 8.73786).abs() < 1e-5);
        assert!((factor + 1.09574).abs() < 1e-5);
        assert_eq!(
            change(3, Some(0)),
            Change::Diff {
                pct: f64::INFINITY,
                factor: f64::INFINITY
            }
        );
        assert_eq!(
            change(0, Some(3)),
            Change::Diff {
                pct: -100.0,
                factor: f64::NEG_INFINITY
            }
        );
    }
}
