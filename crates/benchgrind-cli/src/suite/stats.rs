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
    /// Population standard deviation (divided by n, as rebar computes it); 0 for one sample.
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
    let stddev = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
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
        // sqrt(((1.5² + 0.5²) * 2) / 4), the population standard deviation.
        assert!((s.stddev - 1.118033988749895).abs() < 1e-12);
        let odd = summarize(&[10.0, 1.0, 2.0, 2.0, 3.0]).unwrap();
        assert_eq!((odd.median, odd.mad), (2.0, 1.0));
    }

    #[test]
    fn stddev_divides_by_n_as_rebar_does() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32; 32 / 8 = 4, so 2
        // (the sample standard deviation would be sqrt(32 / 7) = 2.138...).
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!((s.mean, s.stddev), (5.0, 2.0));
        // Eleven samples as the issue's: the population figure is sqrt(10/11) of the sample one.
        let xs: Vec<f64> = (0..11)
            .map(|i| 1000.0 + 37.0 * f64::from(i * i % 7))
            .collect();
        let s = summarize(&xs).unwrap();
        let mean = xs.iter().sum::<f64>() / 11.0;
        let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
        assert!((s.stddev - (ss / 11.0).sqrt()).abs() < 1e-9);
        assert!((s.stddev / (ss / 10.0).sqrt() - (10.0f64 / 11.0).sqrt()).abs() < 1e-12);
    }
}
