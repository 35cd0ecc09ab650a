//! Aggregate statistics over a benchmark's samples: median, median absolute deviation, mean,
//! standard deviation, min and max, all as `f64` so nothing is rounded before it is written.

/// The aggregates of one set of samples (nanoseconds, or instructions).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// The middle sample (mean of the two middle ones for an even count).
    pub median: f64,
    /// Median of the absolute deviations from the median.
    pub mad: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1); 0 for a single sample.
    pub stddev: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
}

/// The median of sorted samples (mean of the middle two for an even count).
fn median_of_sorted(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Summarizes `samples`; `None` when there are none.
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let mut xs = samples.to_vec();
    xs.sort_by(f64::total_cmp);
    let median = median_of_sorted(&xs);
    let mut dev: Vec<f64> = xs.iter().map(|x| (x - median).abs()).collect();
    dev.sort_by(f64::total_cmp);
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let stddev = if xs.len() < 2 {
        0.0
    } else {
        (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    };
    Some(Summary {
        median,
        mad: median_of_sorted(&dev),
        mean,
        stddev,
        min: xs[0],
        max: xs[xs.len() - 1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        assert_eq!(summarize(&[]), None);
        let one = summarize(&[5.0]).unwrap();
        assert_eq!(
            one,
            Summary {
                median: 5.0,
                mad: 0.0,
                mean: 5.0,
                stddev: 0.0,
                min: 5.0,
                max: 5.0
            }
        );
        let s = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(
            (s.median, s.mad, s.mean, s.min, s.max),
            (2.5, 1.0, 2.5, 1.0, 4.0)
        );
        assert!((s.stddev - 1.2909944487358056).abs() < 1e-12);
        let odd = summarize(&[10.0, 1.0, 2.0, 2.0, 3.0]).unwrap();
        assert_eq!((odd.median, odd.mad), (2.0, 1.0));
    }
}
